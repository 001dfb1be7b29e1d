import { describe, expect, it } from 'vitest';
import { PaymentConfig } from '../../shared/src/api/payment-config';
import { handler as getPaymentConfig } from '../../functions/src/handlers/get-payment-config';
import { handler as signup } from '../../functions/src/handlers/signup';
import { auth, call, uniqueEmail } from './helpers';

describe('/api/getPaymentConfig', () => {
  it('answers the publishable key and, against the emulator, the same-origin path to it', async () => {
    const created = await call(signup, { body: { email: uniqueEmail('config'), password: 'long enough password' } });
    const token = String(created.body.access_token);
    const answer = await call(getPaymentConfig, { body: {}, headers: auth(token) });
    expect(answer.status).toBe(200);
    expect(PaymentConfig.parse(answer.body)).toEqual({
      publishableKey: process.env.STRIPE_PUBLISHABLE_KEY,
      emulatorBase: '/stripe-emulator',
    });
    expect(JSON.stringify(answer.body)).not.toContain(String(process.env.STRIPE_SECRET_KEY));
  });

  it('answers a logged-out customer too (the shop page’s checkout): the publishable key only', async () => {
    const answer = await call(getPaymentConfig, { body: {} });
    expect(answer.status).toBe(200);
    expect(PaymentConfig.parse(answer.body).publishableKey).toBe(process.env.STRIPE_PUBLISHABLE_KEY);
    expect(JSON.stringify(answer.body)).not.toContain(String(process.env.STRIPE_SECRET_KEY));
  });
});
