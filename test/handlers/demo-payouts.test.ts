import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeEmulator, type StripeEmulator } from '../../infra/local/stripe';
import { s3Events } from './catalogue-helpers';
import { auth, call } from './helpers';

/**
 * The payouts' demo (infra/local/demo-payouts.ts) from empty data, as a fresh `npm start` seeds it
 * after the demo accounts, catalogue, member and sales: the demo member can withdraw, and the
 * quote the seed keeps is what My Account shows them.
 */
const EMAIL = 'member@example.com';
const PASSWORD = 'member-demo-password';
const dataDir = mkdtempSync(join(tmpdir(), 'demo-payouts-'));
let emulator: StripeEmulator;

beforeAll(async () => {
  emulator = await startStripeEmulator({ dataDir, log: () => undefined });
  process.env.STRIPE_API_URL = emulator.url;
});
afterAll(async () => {
  await emulator?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the payouts demo', () => {
  it('leaves the demo member able to withdraw over the minimum, instantly to their debit card, once', async () => {
    const { ensureAccount } = await import('../../infra/local/accounts');
    const { seedDemoCatalogue } = await import('../../infra/local/demo-catalogue');
    const { seedDemoMember } = await import('../../infra/local/demo-member');
    const { seedDemoSales } = await import('../../infra/local/demo-sales');
    const { seedDemoPayouts, describeDemoPayouts } = await import('../../infra/local/demo-payouts');
    const { handler: login } = await import('../../functions/src/handlers/login');
    const { handler: quote } = await import('../../functions/src/handlers/get-withdrawal-quote');
    await ensureAccount(EMAIL, PASSWORD, false);
    await seedDemoCatalogue({
      origin: 'http://localhost:3000',
      imagesDir: join(dataDir, 'images'),
      afterUpload: () => s3Events.idle(),
    });
    const stripe = { stripeApiUrl: emulator.url, stripeSecretKey: process.env.STRIPE_SECRET_KEY! };
    await seedDemoMember({ email: EMAIL, ...stripe });
    await seedDemoSales({ memberEmail: EMAIL, ...stripe });

    const outcome = await seedDemoPayouts({ memberEmail: EMAIL, stripeApiUrl: emulator.url });
    expect(outcome.seeded).toBe(true);
    if (!outcome.seeded) return;
    expect(outcome.quote).toMatchObject({
      canWithdraw: true,
      reason: null,
      method: 'instant',
      card: { last4: '5556' },
    });
    expect(outcome.quote.available).toBeGreaterThanOrEqual(outcome.quote.minimum);
    expect(describeDemoPayouts(outcome)).toMatch(
      /^Demo payouts: the demo member can withdraw \$\d+\.\d\d to the card ending 5556/,
    );

    // What My Account shows the demo member is that quote.
    const session = await call(login, { body: { email: EMAIL, password: PASSWORD } });
    const shown = await call(quote, { body: {}, headers: auth(String(session.body.access_token)) });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(outcome.quote);

    expect(await seedDemoPayouts({ memberEmail: EMAIL, stripeApiUrl: emulator.url })).toEqual({
      seeded: false,
      reason: 'present',
    });
    // The whole demo is seeded first (36 products with pictures, 36 sales through the emulator).
  }, 600_000);
});
