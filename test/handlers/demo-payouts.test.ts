import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Events } from './catalogue-helpers';
import { auth, call } from './helpers';
import { ownStripe, type OwnStripe } from './own-stripe';

/**
 * The payouts' demo (infra/local/demo-payouts.ts) from empty data, as a fresh `npm start` seeds it
 * after the demo accounts, catalogue, member and sales: the demo member can withdraw, and the
 * quote the seed keeps is what My Account shows them.
 */
const EMAIL = 'member@example.com';
const PASSWORD = 'member-demo-password';
let own: OwnStripe;

beforeAll(async () => {
  own = await ownStripe('demo-payouts');
});
afterAll(() => own?.stop());

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
      imagesDir: join(own.dataDir, 'images'),
      afterUpload: () => s3Events.idle(),
    });
    const stripe = { stripeApiUrl: own.emulator.url, stripeSecretKey: process.env.STRIPE_SECRET_KEY! };
    await seedDemoMember({ email: EMAIL, ...stripe });
    await seedDemoSales({ memberEmail: EMAIL, ...stripe });

    const outcome = await seedDemoPayouts({ memberEmail: EMAIL, stripeApiUrl: own.emulator.url });
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

    expect(await seedDemoPayouts({ memberEmail: EMAIL, stripeApiUrl: own.emulator.url })).toEqual({
      seeded: false,
      reason: 'present',
    });
    // The whole demo is seeded first (36 products with pictures, 36 sales through the emulator).
  }, 600_000);
});
