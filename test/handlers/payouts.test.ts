import { randomInt } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { sdk } from '../../infra/local/stripe/testing';
import { allItems, call, uniqueEmail, uniqueIp, type CallResult } from './helpers';

/**
 * The payout calls through the real `stripe` SDK against the emulator the handler setup starts.
 * The logger is at DEBUG and every line it (or anything else) writes is captured, so the test of
 * the tax ID sees every log line these calls produce.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
// What an operator might switch on while debugging; the request bodies must still stay out of the log.
process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
const logLines: string[] = [];
const capture = (chunk: string | Uint8Array) => {
  logLines.push(String(chunk));
  return true;
};
vi.spyOn(process.stdout, 'write').mockImplementation(capture);
vi.spyOn(process.stderr, 'write').mockImplementation(capture);
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(' ')));
}
afterAll(() => vi.restoreAllMocks());

const { loadLogger } = await import('../../functions/src/config/logger');
const { handler: signup } = await import('../../functions/src/handlers/signup');
const { handler: createPayoutAccount } = await import('../../functions/src/handlers/create-payout-account');
const { handler: addPayoutMethod } = await import('../../functions/src/handlers/add-payout-method');
const { handler: getExternalAccounts } = await import('../../functions/src/handlers/get-external-accounts');

const stripe = sdk(Number(new URL(inject('stripeApiUrl')).port), process.env.STRIPE_SECRET_KEY);

interface Member {
  token: string;
  id: string;
}

async function newMember(): Promise<Member> {
  const result = await call(signup, { body: { email: uniqueEmail('payout'), password: 'long enough password' } });
  expect(result.status).toBe(200);
  return { token: String(result.body.access_token), id: (result.body.userProfile as { id: string }).id };
}

const as = (member: Member) => ({ authorization: `Bearer ${member.token}` });
const thisYear = new Date().getFullYear();

const form = (overrides: Record<string, unknown> = {}) => ({
  social_profile: 'https://social.example.com/jenny',
  first_name: 'Jenny',
  last_name: 'Rosen',
  phone: '(202) 555-0123',
  street_address_1: '1 Main St',
  address_unit: 'Apt 4',
  city: 'Springfield',
  state: 'il',
  zipcode: '62701-1234',
  // Stripe's test values: this date of birth and ID number verify at once.
  dob_day: 1,
  dob_month: 1,
  dob_year: 1902,
  tax_id: '222-22-2222',
  tos_accepted: true,
  refresh_token: 'ignored',
  ...overrides,
});

const userOf = (result: CallResult) => result.body.user as Record<string, unknown>;
const accountsOf = async (userId: string) =>
  (await stripe.accounts.list({ limit: 100 })).data.filter((account) => account.metadata?.userId === userId);
const cardToken = async (number: string) =>
  (await stripe.tokens.create({ card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' } })).id;

describe('/api/createPayoutAccount', () => {
  it('creates a US individual connected account and stores its id, the profile and isAccountCreated = 1', async () => {
    const member = await newMember();
    const sourceIp = uniqueIp();
    const result = await call(createPayoutAccount, {
      // The link as a person types it, without https://: the server adds it.
      body: form({ social_profile: 'social.example.com/jenny' }),
      headers: { ...as(member), 'user-agent': 'payout-test' },
      sourceIp,
    });
    expect(result.status).toBe(200);
    const user = userOf(result);
    expect(user).toMatchObject({
      id: member.id,
      isAccountCreated: 1,
      isPayoutMethodAdded: 0,
      first_name: 'Jenny',
      last_name: 'Rosen',
      phone: '2025550123',
      street_address_1: '1 Main St',
      address_unit: 'Apt 4',
      city: 'Springfield',
      state: 'IL',
      zipcode: '62701-1234',
    });
    expect(user.stripeID).toMatch(/^acct_/);
    const account = await stripe.accounts.retrieve(String(user.stripeID));
    expect(account).toMatchObject({
      country: 'US',
      business_type: 'individual',
      // 5399, Misc. General Merchandise; the portal pays each commission out itself.
      business_profile: { url: 'https://social.example.com/jenny', mcc: '5399' },
      settings: { payouts: { schedule: { interval: 'manual' } } },
      tos_acceptance: { ip: sourceIp, user_agent: 'payout-test' },
      capabilities: { transfers: 'active' },
      individual: {
        first_name: 'Jenny',
        last_name: 'Rosen',
        phone: '+12025550123',
        dob: { day: 1, month: 1, year: 1902 },
        address: { line1: '1 Main St', line2: 'Apt 4', city: 'Springfield', state: 'IL', postal_code: '62701-1234' },
        id_number_provided: true,
      },
    });
    expect(Math.abs(account.tos_acceptance!.date! - Date.now() / 1000)).toBeLessThan(600);
    expect(account.controller).toMatchObject({ requirement_collection: 'application' });
    expect(account.requirements?.currently_due).toEqual(['external_account']);
  });

  it("takes the spec's body (payoutRequest with address, dob, ssn and social_media_url) as the form", async () => {
    const member = await newMember();
    const result = await call(createPayoutAccount, {
      body: {
        refresh_token: 'ignored',
        payoutRequest: {
          address: {
            line1: '1 Main St',
            line2: 'Apt 4',
            city: 'Springfield',
            state: 'IL',
            postal_code: '62701',
            zipcode: '62701',
            country: 'US',
          },
          dob: { day: '29', month: '02', year: '1988' },
          first_name: 'Jenny',
          last_name: 'Rosen',
          ssn: '000000000',
          phone: '2025550123',
          social_media_url: 'https://social.example.com/jenny',
        },
      },
      headers: as(member),
    });
    expect(result.status).toBe(200);
    expect(userOf(result)).toMatchObject({ isAccountCreated: 1, street_address_1: '1 Main St', zipcode: '62701' });
    const account = await stripe.accounts.retrieve(String(userOf(result).stripeID));
    expect(account.individual).toMatchObject({
      dob: { day: 29, month: 2, year: 1988 },
      address: { line1: '1 Main St', line2: 'Apt 4', city: 'Springfield', state: 'IL', postal_code: '62701' },
      id_number_provided: true,
    });
    expect(account.business_profile).toMatchObject({ url: 'https://social.example.com/jenny' });
  });

  it("names a refused value of the spec's body where that body has it, creating nothing", async () => {
    const member = await newMember();
    const result = await call(createPayoutAccount, {
      body: {
        payoutRequest: {
          address: { line1: '1 Main St', city: 'Springfield', state: 'IL', zipcode: '62701' },
          dob: { day: 1, month: 1, year: thisYear },
          first_name: 'Jenny',
          last_name: 'Rosen',
          ssn: '000000000',
          phone: '2025550123',
          social_media_url: 'https://social.example.com/jenny',
        },
      },
      headers: as(member),
    });
    expect(result.status).toBe(400);
    expect(result.body.fields).toEqual({ 'payoutRequest.dob.year': 'You must be at least 18 years old' });
    expect(await accountsOf(member.id)).toHaveLength(0);
  });

  it('creates one account for a double submit, and answers the existing account to a later one', async () => {
    const member = await newMember();
    const [first, second] = await Promise.all([
      call(createPayoutAccount, { body: form(), headers: as(member) }),
      call(createPayoutAccount, { body: form(), headers: as(member) }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(userOf(second).stripeID).toBe(userOf(first).stripeID);
    const later = await call(createPayoutAccount, { body: form({ first_name: 'Jane' }), headers: as(member) });
    expect(later.status).toBe(200);
    expect(userOf(later)).toMatchObject({ stripeID: userOf(first).stripeID, first_name: 'Jenny' });
    expect(await accountsOf(member.id)).toHaveLength(1);
  });

  it('refuses each bad field by name, creating nothing at Stripe and storing nothing', async () => {
    const member = await newMember();
    const result = await call(createPayoutAccount, {
      body: form({
        social_profile: 'ftp://social.example.com/jenny',
        first_name: ' ',
        phone: '555-0123',
        city: 'A',
        state: 'XX',
        zipcode: '6270',
        dob_year: 1899,
        tax_id: '123-45-678',
        tos_accepted: false,
        extra: 1,
      }),
      headers: as(member),
    });
    expect(result.status).toBe(400);
    expect(Object.keys(result.body.fields as object).sort()).toEqual(
      [
        'social_profile',
        'first_name',
        'phone',
        'city',
        'state',
        'zipcode',
        'dob_year',
        'tax_id',
        'tos_accepted',
        'extra',
      ].sort(),
    );
    const dates = await Promise.all(
      [
        { dob_day: 30, dob_month: 2, dob_year: 1990 },
        { dob_day: 29, dob_month: 2, dob_year: 1990 },
        { dob_day: 1, dob_month: 1, dob_year: thisYear - 10 },
        { dob_day: 1, dob_month: 1, dob_year: thisYear + 1 },
      ].map((dob) => call(createPayoutAccount, { body: form(dob), headers: as(member) })),
    );
    expect(dates.map((answer) => [answer.status, Object.keys(answer.body.fields as object)])).toEqual([
      [400, ['dob_day']],
      [400, ['dob_day']],
      [400, ['dob_year']],
      [400, ['dob_year']],
    ]);
    expect((dates[2]!.body.fields as Record<string, string>).dob_year).toBe('You must be at least 18 years old');
    expect(await accountsOf(member.id)).toEqual([]);
    const stored = (await allItems()).find((item) => item.id === member.id);
    expect(stored).toMatchObject({ stripeID: null, isAccountCreated: 0 });
  });
});

describe('/api/addPayoutMethod and /api/getExternalAccounts', () => {
  let owner: Member;
  let other: Member;
  let accountId: string;
  beforeAll(async () => {
    [owner, other] = await Promise.all([newMember(), newMember()]);
    const [created] = await Promise.all([
      call(createPayoutAccount, { body: form(), headers: as(owner) }),
      call(createPayoutAccount, { body: form({ first_name: 'Other' }), headers: as(other) }),
    ]);
    accountId = String(userOf(created!).stripeID);
  });

  it("refuses another member's account without a word about it, and changes nothing", async () => {
    const token = await cardToken('4000056655665556');
    const added = await call(addPayoutMethod, { body: { id: accountId, token }, headers: as(other) });
    const listed = await call(getExternalAccounts, { body: { id: accountId }, headers: as(other) });
    const unknown = await call(getExternalAccounts, { body: { id: 'acct_nobody' }, headers: as(other) });
    for (const answer of [added, listed, unknown]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'No such payout account.' });
    }
    expect((await stripe.accounts.listExternalAccounts(accountId)).data).toEqual([]);
  });

  it("refuses a credit card with Stripe's words at the card field, and changes nothing", async () => {
    const result = await call(addPayoutMethod, {
      body: { id: accountId, token: await cardToken('4242424242424242') },
      headers: as(owner),
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      message: "This card doesn't appear to be a debit card.",
      fields: { token: "This card doesn't appear to be a debit card." },
    });
    expect((await allItems()).find((item) => item.id === owner.id)).toMatchObject({ isPayoutMethodAdded: 0 });
    const listed = await call(getExternalAccounts, { body: { id: accountId }, headers: as(owner) });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });

  it('adds a debit card: isPayoutMethodAdded = 1, the card in the answer and in the list', async () => {
    const result = await call(addPayoutMethod, {
      body: { id: accountId, token: await cardToken('5200828282828210') },
      headers: as(owner),
    });
    expect(result.status).toBe(200);
    const card = { brand: 'MasterCard', exp_month: 12, exp_year: 2034, last4: '8210' };
    expect(result.body.card).toEqual(card);
    expect(userOf(result)).toMatchObject({ isPayoutMethodAdded: 1, isAccountCreated: 1, stripeID: accountId });
    const listed = await call(getExternalAccounts, { body: { id: accountId }, headers: as(owner) });
    expect(listed.body).toEqual([card]);
    expect((await stripe.accounts.retrieve(accountId)).payouts_enabled).toBe(true);
  });
});

describe('the tax ID goes to Stripe only', () => {
  it('is in no table item, no data file but the emulator state, and no log line, nor any 9-digit run of it', async () => {
    const digits = String(randomInt(100_000_000, 1_000_000_000));
    const taxId = `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
    const member = await newMember();
    const created = await call(createPayoutAccount, { body: form({ tax_id: taxId }), headers: as(member) });
    expect(created.status).toBe(200);
    // A refused form too, and a second submit: every path that sees the tax ID.
    await call(createPayoutAccount, { body: form({ tax_id: taxId, zipcode: 'x' }), headers: as(member) });
    await call(createPayoutAccount, { body: form({ tax_id: taxId }), headers: as(member) });
    // The digits in any grouping (123456789, 123-45-6789, 123 45 6789, …).
    const run = new RegExp(digits.split('').join('[\\s-]?'));
    const holding = (texts: [string, string][]) => texts.filter(([, text]) => run.test(text)).map(([where]) => where);

    // The search finds the tax ID however it is written (so an empty finding means something).
    expect(
      holding([
        ['dashes', `"${taxId}"`],
        ['digits', `x${digits}y`],
        ['spaces', taxId.replaceAll('-', ' ')],
      ]),
    ).toEqual(['dashes', 'digits', 'spaces']);
    // Stripe got it: the account says an ID number was provided.
    const [account] = await accountsOf(member.id);
    expect(account?.individual?.id_number_provided).toBe(true);
    const stripeDir = inject('stripeDataDir');

    const items = await allItems();
    expect(items.length).toBeGreaterThan(0);
    expect(holding(items.map((item) => [`item ${String(item.pk)}`, JSON.stringify(item)]))).toEqual([]);

    const engineDir = inject('engineDataDir');
    const files = readdirSync(engineDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => !file.startsWith(stripeDir));
    expect(holding(files.map((file) => [relative(engineDir, file), readFileSync(file, 'latin1')]))).toEqual([]);

    // The capture sees the handlers' logger at DEBUG.
    (await loadLogger()).debug('payout test probe');
    expect(logLines.some((line) => line.includes('payout test probe'))).toBe(true);
    expect(holding(logLines.map((line, index) => [`log line ${index}`, line]))).toEqual([]);
  });
});
