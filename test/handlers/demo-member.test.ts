import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, call, uniqueIp } from './helpers';
import { ownStripe, type OwnStripe } from './own-stripe';

/**
 * The demo member starts payable (infra/local/demo-member.ts), from empty data: this file's own
 * table and its own emulator, which a test wipes and starts again on the same port, as removing
 * `.local/stripe/` between two `npm start`s would.
 */
const EMAIL = 'member@example.com';
const PASSWORD = 'member-demo-password';
let own: OwnStripe;

beforeAll(async () => {
  // Pointed at it before the functions make their Stripe client.
  own = await ownStripe('demo-member');
});
afterAll(() => own?.stop());

const seed = async () => {
  const { seedDemoMember } = await import('../../infra/local/demo-member');
  return seedDemoMember({
    email: EMAIL,
    stripeApiUrl: process.env.STRIPE_API_URL,
    stripeSecretKey: process.env.STRIPE_SECRET_KEY!,
  });
};
const stripe = () => own.stripe;

async function loggedIn(): Promise<{ token: string; profile: Record<string, unknown> }> {
  const { handler: login } = await import('../../functions/src/handlers/login');
  const result = await call(login, { body: { email: EMAIL, password: PASSWORD }, sourceIp: uniqueIp() });
  expect(result.status).toBe(200);
  return { token: String(result.body.access_token), profile: result.body.userProfile as Record<string, unknown> };
}

async function cardsOf(token: string, id: string) {
  const { handler: getExternalAccounts } = await import('../../functions/src/handlers/get-external-accounts');
  return call(getExternalAccounts, { body: { id }, headers: { authorization: `Bearer ${token}` } });
}

const accountsOf = async (userId: string) =>
  (await stripe().accounts.list({ limit: 100 })).data.filter((account) => account.metadata?.userId === userId);

describe('the demo member starts payable', () => {
  it('seeds nothing with the developer’s own Stripe key, and nothing before the member exists', async () => {
    const { seedDemoMember } = await import('../../infra/local/demo-member');
    expect(await seedDemoMember({ email: EMAIL, stripeApiUrl: undefined, stripeSecretKey: 'sk_test_own' })).toEqual({
      seeded: false,
      reason: 'own-stripe-key',
    });
    expect(await seed()).toEqual({ seeded: false, reason: 'no-member' });
    expect((await stripe().accounts.list({ limit: 100 })).data).toEqual([]);
  });

  it('gives the demo member a payout account, a debit card and a verified e-mail, once', async () => {
    const { ensureAccount } = await import('../../infra/local/accounts');
    expect(await ensureAccount(EMAIL, PASSWORD, false)).toBe('created');
    const first = await seed();
    expect(first).toMatchObject({ seeded: true, reseeded: false, accountId: expect.stringMatching(/^acct_/) });

    const { token, profile } = await loggedIn();
    expect(profile).toMatchObject({
      stripeID: first.seeded && first.accountId,
      isAccountCreated: 1,
      isPayoutMethodAdded: 1,
      isEmailVerified: true,
      first_name: 'Dana',
      city: 'Springfield',
      // The name its shop links show customers (issue 28).
      display_name: 'Dana from Springfield',
    });
    const cards = await cardsOf(token, String(profile.stripeID));
    expect(cards.status).toBe(200);
    expect(cards.body).toEqual([{ brand: 'Visa', exp_month: 12, exp_year: expect.any(Number), last4: '5556' }]);
    const account = await stripe().accounts.retrieve(String(profile.stripeID));
    expect(account).toMatchObject({
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
      // Stripe's test values that verify at once.
      individual: { dob: { day: 1, month: 1, year: 1902 }, id_number_provided: true },
    });

    // A second start: no second account, no second card, the table as it was.
    const before = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(await seed()).toEqual({ seeded: false, reason: 'present', accountId: profile.stripeID });
    expect(await accountsOf(String(profile.id))).toHaveLength(1);
    expect((await stripe().accounts.listExternalAccounts(String(profile.stripeID))).data).toHaveLength(1);
    const after = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(after).toEqual(before);
  });

  it('seeds a new account when the emulator’s state was wiped but the table was not', async () => {
    const { profile: was } = await loggedIn();
    await own.wipe();

    const again = await seed();
    expect(again).toMatchObject({ seeded: true, reseeded: true });
    const { token, profile } = await loggedIn();
    expect(profile.stripeID).not.toBe(was.stripeID);
    expect(profile).toMatchObject({ isAccountCreated: 1, isPayoutMethodAdded: 1, isEmailVerified: true });
    expect((await cardsOf(token, String(profile.stripeID))).body).toEqual([
      expect.objectContaining({ brand: 'Visa', last4: '5556' }),
    ]);
    expect(await accountsOf(String(profile.id))).toHaveLength(1);
    expect(await seed()).toMatchObject({ seeded: false, reason: 'present' });
  });
});
