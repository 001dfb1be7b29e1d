import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as signup } from '../../functions/src/handlers/signup';
import { handler as stripeWebhook } from '../../functions/src/handlers/stripe-webhook';
import { auth, call, uniqueEmail } from './helpers';
import { product } from './sales-helpers';

/**
 * API answers compressed as the browser accepts (functions/src/http/compress.ts), seen through a
 * real call over DynamoDB Local: the member home's product list.
 */
let token = '';
const email = uniqueEmail('compress');
const password = 'a long enough password';

beforeAll(async () => {
  const signed = await call(signup, { body: { email, password } });
  expect(signed.status).toBe(200);
  token = String(signed.body.access_token);
  for (let i = 0; i < 12; i++) await product(1995 + i, 'approved', `Compressed Lamp ${i}`);
});

describe('a real call’s answer', () => {
  it('is brotli when the browser accepts it, the same list as without, a fraction of the bytes', async () => {
    const plain = await call(getApprovedProducts, { body: {}, headers: auth(token) });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect((plain.body.items as unknown[]).length).toBeGreaterThanOrEqual(12);
    expect(plain.wireBytes).toBeGreaterThan(1_000);

    const br = await call(getApprovedProducts, {
      body: {},
      headers: { ...auth(token), 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.body).toEqual(plain.body);
    expect(br.wireBytes).toBeLessThan(plain.wireBytes / 3);
  });

  it('is gzip when the browser refuses brotli (br;q=0), identity when it names neither', async () => {
    const gzip = await call(getApprovedProducts, {
      body: {},
      headers: { ...auth(token), 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((gzip.body.items as unknown[]).length).toBeGreaterThanOrEqual(12);
    const identity = await call(getApprovedProducts, {
      body: {},
      headers: { ...auth(token), 'accept-encoding': 'identity' },
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toEqual(gzip.body);
  });

  it('of a login (it sets the refresh cookie and carries the access token) is never compressed', async () => {
    const result = await call(login, { body: { email, password }, headers: { 'accept-encoding': 'br' } });
    expect(result.status).toBe(200);
    expect(result.cookies.length).toBeGreaterThan(0);
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.headers.vary).toBeUndefined();
  });

  it('of Stripe’s webhook is never compressed nor varied', async () => {
    const result = await call(stripeWebhook, {
      rawBody: JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', padding: 'x'.repeat(2_000) }),
      headers: { 'accept-encoding': 'br, gzip', 'stripe-signature': 't=1,v1=bad' },
    });
    expect(result.status).toBe(400);
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.headers.vary).toBeUndefined();
  });
});
