import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signature } from './webhooks';

describe('webhook signature', () => {
  it('is t=<seconds>,v1=<HMAC-SHA256 of "t.payload">, as the SDK verifies it', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payout.paid' });
    const timestamp = Math.floor(Date.now() / 1000);
    const header = signature(payload, 'whsec_test', timestamp);
    const expected = createHmac('sha256', 'whsec_test').update(`${timestamp}.${payload}`).digest('hex');
    expect(header).toBe(`t=${timestamp},v1=${expected}`);
    const stripe = new Stripe('sk_test_x');
    expect(stripe.webhooks.constructEvent(payload, header, 'whsec_test').id).toBe('evt_1');
    expect(() =>
      stripe.webhooks.constructEvent(payload, signature(payload, 'whsec_other', timestamp), 'whsec_test'),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('is refused by the SDK when older than its tolerance', () => {
    const payload = '{"id":"evt_1","object":"event"}';
    const old = Math.floor(Date.now() / 1000) - 3600;
    expect(() =>
      new Stripe('sk_test_x').webhooks.constructEvent(payload, signature(payload, 'whsec_test', old), 'whsec_test'),
    ).toThrow(/Timestamp outside the tolerance zone/);
  });
});
