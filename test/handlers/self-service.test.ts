import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { clock } from '../../functions/src/config/clock';
import { RESET_LIMITS, RESET_LINK_VALID_MS } from '../../functions/src/email/password-reset';
import { ADDRESS_TAKEN } from '../../functions/src/email/verification';
import { WRONG_CURRENT_PASSWORD } from '../../functions/src/auth/account';
import { handler as signup } from '../../functions/src/handlers/signup';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as checkAuth } from '../../functions/src/handlers/check-auth';
import { handler as verifyEmail } from '../../functions/src/handlers/verify-email';
import { handler as updateProfile } from '../../functions/src/handlers/update-profile';
import { handler as changeEmail } from '../../functions/src/handlers/change-email';
import { handler as changePassword } from '../../functions/src/handlers/change-password';
import { handler as requestPasswordReset } from '../../functions/src/handlers/request-password-reset';
import { handler as resetPassword } from '../../functions/src/handlers/reset-password';
import { handler as getSharedProduct } from '../../functions/src/handlers/get-shared-product';
import { handler as replacePayoutMethod } from '../../functions/src/handlers/replace-payout-method';
import {
  ADDRESS_INCOMPLETE,
  DISPLAY_NAME_CONTROL,
  DISPLAY_NAME_NO_EMAIL,
  EXPIRED_RESET_LINK,
  USED_RESET_LINK,
} from '../../shared/src/api/account';
import { USED_VERIFICATION_LINK } from '../../shared/src/api/email';
import { PASSWORD_IS_COMMON } from '../../shared/src/api/schemas';
import { keys } from '../../shared/src/db/table';
import { allItems, auth, call, cookieFrom, uniqueEmail, uniqueIp } from './helpers';
import { mailsTo, type StoredMail } from './outbox';
import { debitCardToken, payableMember as newPayableMember, product, stripeAtEmulator } from './sales-helpers';

/**
 * A member's self-service (issue 28) against DynamoDB Local, the Stripe emulator and this file's
 * mail outbox: the profile and its display name on the shop page, a new e-mail address verified
 * before it replaces the old one (and the race for one address), a new password that ends the
 * other sessions, a forgotten password's single-use link, and a replaced debit card.
 */
const PASSWORD = 'a long enough password';
const tokenOf = (mail: StoredMail | undefined): string => new URL(mail!.link!.url).searchParams.get('token')!;

interface Member {
  id: string;
  email: string;
  token: string;
  cookie: string;
  shareCode: string;
}

async function newMember(prefix = 'self'): Promise<Member> {
  const email = uniqueEmail(prefix);
  const result = await call(signup, { body: { email, password: PASSWORD } });
  expect(result.status).toBe(200);
  const profile = result.body.userProfile as { id: string; shareCode: string };
  return {
    id: profile.id,
    email,
    token: String(result.body.access_token),
    cookie: cookieFrom(result),
    shareCode: profile.shareCode,
  };
}

async function logIn(email: string, password = PASSWORD) {
  return call(login, { body: { email, password }, sourceIp: uniqueIp() });
}

const userItem = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }))).Item;
const claimOf = async (email: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }))).Item;

const profileBody = {
  first_name: 'Maya',
  last_name: 'Patel',
  phone: '(217) 555-0142',
  street_address_1: '700 E Adams St',
  address_unit: 'Suite 2',
  city: 'Springfield',
  state: 'il',
  zipcode: '62701',
};

afterEach(() => vi.restoreAllMocks());

describe('/api/updateProfile and "Recommended by"', () => {
  it('saves names, phone, address and display name; the shop page names the member, never the e-mail', async () => {
    const seller = await newMember();
    const id = await product(1999, 'approved', 'Recommended Lamp');
    const before = await call(getSharedProduct, { body: { id, ref: seller.shareCode } });
    // No name yet: nothing to say, and never the e-mail address.
    expect(before.body.recommendedBy).toBeNull();
    expect(JSON.stringify(before.body)).not.toContain(seller.email);

    const saved = await call(updateProfile, { body: profileBody, headers: auth(seller.token) });
    expect(saved.status).toBe(200);
    expect(saved.body.userProfile).toMatchObject({
      first_name: 'Maya',
      last_name: 'Patel',
      phone: '2175550142',
      state: 'IL',
      display_name: '',
      email: seller.email,
    });
    // The default: first name and last initial.
    expect((await call(getSharedProduct, { body: { id, ref: seller.shareCode } })).body.recommendedBy).toBe('Maya P.');

    await call(updateProfile, {
      body: { ...profileBody, display_name: '  Maya the lamp fan ' },
      headers: auth(seller.token),
    });
    const shared = await call(getSharedProduct, { body: { id, ref: seller.shareCode } });
    expect(shared.body.recommendedBy).toBe('Maya the lamp fan');
    expect(JSON.stringify(shared.body)).not.toContain(seller.email);
    // An unknown code names nobody.
    expect((await call(getSharedProduct, { body: { id, ref: 'UNKNOWN1' } })).body.recommendedBy).toBeNull();
  });

  it('refuses a half address, a display name that is an e-mail and a bad phone, naming each field, and stores nothing', async () => {
    const seller = await newMember();
    await call(updateProfile, { body: profileBody, headers: auth(seller.token) });
    const stored = await userItem(seller.id);
    const halfAddress = await call(updateProfile, {
      body: { ...profileBody, city: '', zipcode: '' },
      headers: auth(seller.token),
    });
    expect(halfAddress.status).toBe(400);
    expect(halfAddress.body.fields).toMatchObject({ city: ADDRESS_INCOMPLETE, zipcode: ADDRESS_INCOMPLETE });
    const emailName = await call(updateProfile, {
      body: { ...profileBody, display_name: 'maya@example.com', phone: '123' },
      headers: auth(seller.token),
    });
    expect(emailName.status).toBe(400);
    expect(emailName.body.fields).toMatchObject({
      display_name: DISPLAY_NAME_NO_EMAIL,
      phone: 'Enter a 10-digit US phone number',
    });
    expect(await userItem(seller.id)).toEqual(stored);
  });

  it('refuses direction and control characters and a full-width "＠", stores the NFKC form, and the shop page shows it', async () => {
    const seller = await newMember();
    const id = await product(1999, 'approved', 'Recommended Lamp');
    await call(updateProfile, { body: profileBody, headers: auth(seller.token) });
    const stored = await userItem(seller.id);
    for (const [name, message] of [
      ['Maya \u202Eelpmaxe', DISPLAY_NAME_CONTROL],
      ['Maya\u2066P\u2069', DISPLAY_NAME_CONTROL],
      ['Maya\u0007P', DISPLAY_NAME_CONTROL],
      ['Maya\u200BP', DISPLAY_NAME_CONTROL],
      ['maya＠example.com', DISPLAY_NAME_NO_EMAIL],
    ] as const) {
      const refused = await call(updateProfile, {
        body: { ...profileBody, display_name: name },
        headers: auth(seller.token),
      });
      expect(refused.status, name).toBe(400);
      expect(refused.body.fields, name).toEqual({ display_name: message });
    }
    expect(await userItem(seller.id)).toEqual(stored);

    const saved = await call(updateProfile, {
      body: { ...profileBody, display_name: ' Ｍａｙａ ﬁnds\u3000lamps ' },
      headers: auth(seller.token),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.userProfile).toMatchObject({ display_name: 'Maya finds lamps' });
    expect((await userItem(seller.id))?.display_name).toBe('Maya finds lamps');
    expect((await call(getSharedProduct, { body: { id, ref: seller.shareCode } })).body.recommendedBy).toBe(
      'Maya finds lamps',
    );
  });

  it('takes an empty phone and an empty address', async () => {
    const seller = await newMember();
    const result = await call(updateProfile, {
      body: { first_name: 'Ann', last_name: 'Lee', phone: '', street_address_1: '', city: '', state: '', zipcode: '' },
      headers: auth(seller.token),
    });
    expect(result.status).toBe(200);
    expect(result.body.userProfile).toMatchObject({ first_name: 'Ann', phone: '', city: '' });
  });
});

describe('/api/changeEmail: a new address is verified before it replaces the old one', () => {
  it('mails the new address; the old stays the login until the link is used, then the claim moves and the old address is told', async () => {
    const member = await newMember();
    const next = uniqueEmail('new-address');
    const sent = await call(changeEmail, { body: { email: next, password: PASSWORD }, headers: auth(member.token) });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ pendingEmail: next, email: member.email });
    const [mail] = mailsTo(next);
    expect(mail?.subject).toBe('Confirm your new e-mail address for the Reseller Portal');

    // Until the link is used: the old address logs in, the new one does not, and nobody holds the new claim.
    expect((await logIn(member.email)).status).toBe(200);
    expect((await logIn(next)).status).toBe(401);
    expect(await claimOf(next)).toBeUndefined();

    const used = await call(verifyEmail, { body: { token: tokenOf(mail) } });
    expect(used.status).toBe(200);
    expect(used.body).toEqual({ verified: true, email: next });
    expect(await userItem(member.id)).toMatchObject({ email: next, isEmailVerified: true });
    expect(await claimOf(next)).toMatchObject({ userId: member.id });
    expect(await claimOf(member.email)).toBeUndefined();
    expect((await logIn(next)).status).toBe(200);
    expect((await logIn(member.email)).status).toBe(401);
    // The old address hears of it, without the whole new address.
    const notices = mailsTo(member.email).filter((m) => m.subject.includes('was changed'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).not.toContain(next);
    // The link is single use.
    const again = await call(verifyEmail, { body: { token: tokenOf(mail) } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(USED_VERIFICATION_LINK);
  });

  it('refuses a wrong current password (nothing mailed); a taken address changes nothing', async () => {
    const member = await newMember();
    const other = await newMember();
    const next = uniqueEmail('never-sent');
    const wrong = await call(changeEmail, {
      body: { email: next, password: 'not my password' },
      headers: auth(member.token),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ password: WRONG_CURRENT_PASSWORD });
    expect(mailsTo(next)).toHaveLength(0);
    const taken = await call(changeEmail, {
      body: { email: other.email.toUpperCase(), password: PASSWORD },
      headers: auth(member.token),
    });
    // The same answer as for a free address (account-links.test.ts): the owner is told instead.
    expect(taken.status).toBe(200);
    expect(mailsTo(other.email).filter((mail) => mail.link?.label === 'E-mail change link')).toHaveLength(0);
    expect(await userItem(member.id)).toMatchObject({ email: member.email });
  });

  it('two members claiming one address at once: one wins, the other is told it is taken, and one claim remains', async () => {
    const [first, second] = await Promise.all([newMember(), newMember()]);
    const contested = uniqueEmail('contested');
    for (const member of [first, second]) {
      const sent = await call(changeEmail, {
        body: { email: contested, password: PASSWORD },
        headers: auth(member.token),
      });
      expect(sent.status).toBe(200);
    }
    const links = mailsTo(contested).map(tokenOf);
    expect(links).toHaveLength(2);
    const results = await Promise.all(links.map((token) => call(verifyEmail, { body: { token } })));
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(results.find((result) => result.status === 409)!.body.message).toBe(ADDRESS_TAKEN);
    const owners = [await userItem(first.id), await userItem(second.id)].filter((user) => user?.email === contested);
    expect(owners).toHaveLength(1);
    const claim = await claimOf(contested);
    expect(claim?.userId).toBe(owners[0]!.id);
    // The loser keeps their own address and its claim.
    const loser = owners[0]!.id === first.id ? second : first;
    expect(await userItem(loser.id)).toMatchObject({ email: loser.email });
    expect(await claimOf(loser.email)).toMatchObject({ userId: loser.id });
    const claims = (await allItems()).filter((item) => item.entity === 'UserEmail' && item.pk === `EMAIL#${contested}`);
    expect(claims).toHaveLength(1);
  });
});

describe('/api/changePassword', () => {
  it('sets the new password, keeps this session and ends the others', async () => {
    const member = await newMember();
    const elsewhere = await logIn(member.email);
    expect(elsewhere.status).toBe(200);
    const otherToken = String(elsewhere.body.access_token);
    const otherCookie = cookieFrom(elsewhere);
    const newPassword = 'a brand new passphrase';

    const changed = await call(changePassword, {
      body: { currentPassword: PASSWORD, newPassword },
      headers: auth(member.token),
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ok: true, otherSessionsEnded: true });

    // This session: its access token still works, its refresh token still rotates.
    expect((await call(updateProfile, { body: profileBody, headers: auth(member.token) })).status).toBe(200);
    const kept = await call(checkAuth, { body: {}, cookies: [member.cookie] });
    expect(kept.status).toBe(200);
    // The other: both its tokens are refused.
    expect((await call(updateProfile, { body: profileBody, headers: auth(otherToken) })).status).toBe(401);
    expect((await call(checkAuth, { body: {}, cookies: [otherCookie] })).status).toBe(401);
    // The passwords.
    expect((await logIn(member.email, PASSWORD)).status).toBe(401);
    expect((await logIn(member.email, newPassword)).status).toBe(200);
  });

  it('refuses a wrong current password and a common new one, and changes nothing', async () => {
    const member = await newMember();
    const stored = await userItem(member.id);
    const wrong = await call(changePassword, {
      body: { currentPassword: 'not my password', newPassword: 'a brand new passphrase' },
      headers: auth(member.token),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD });
    const common = await call(changePassword, {
      body: { currentPassword: PASSWORD, newPassword: 'password123' },
      headers: auth(member.token),
    });
    expect(common.status).toBe(400);
    expect(common.body.fields).toEqual({ newPassword: PASSWORD_IS_COMMON });
    const short = await call(changePassword, {
      body: { currentPassword: PASSWORD, newPassword: 'short' },
      headers: auth(member.token),
    });
    expect(short.status).toBe(400);
    expect(await userItem(member.id)).toEqual(stored);
  });
});

describe('/api/requestPasswordReset and /api/resetPassword', () => {
  // The answer's floor (account-links.test.ts) is not waited out here.
  beforeEach(() => void vi.spyOn(clock, 'sleep').mockResolvedValue());

  it('answers the same whether or not the address has an account, and mails only an account', async () => {
    const member = await newMember();
    const unknown = uniqueEmail('nobody');
    const known = await call(requestPasswordReset, { body: { email: member.email } });
    const none = await call(requestPasswordReset, { body: { email: unknown } });
    expect(known.status).toBe(200);
    expect(none.status).toBe(200);
    expect({ ...known.body, email: '' }).toEqual({ ...none.body, email: '' });
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(none.headers).sort());
    expect(mailsTo(member.email).filter((mail) => mail.link?.label === 'Password reset link')).toHaveLength(1);
    expect(mailsTo(unknown)).toHaveLength(0);
    // Only the hash of the token is stored.
    const token = tokenOf(mailsTo(member.email).find((mail) => mail.link?.label === 'Password reset link'));
    const items = await allItems();
    expect(JSON.stringify(items)).not.toContain(token);
    expect(items.filter((item) => item.entity === 'PasswordReset')).toHaveLength(1);
  });

  it('sets the new password once and ends every session of the account; the link is single use', async () => {
    const member = await newMember();
    await call(requestPasswordReset, { body: { email: member.email } });
    const token = tokenOf(mailsTo(member.email).find((mail) => mail.link?.label === 'Password reset link'));
    const newPassword = 'a freshly chosen passphrase';
    // The page checks the link when it opens: usable, and the check uses nothing up.
    const { handler: checkResetLink } = await import('../../functions/src/handlers/check-reset-link');
    expect((await call(checkResetLink, { body: { token } })).status).toBe(200);
    const reset = await call(resetPassword, { body: { token, password: newPassword } });
    expect(reset.status).toBe(200);
    // Used: the page says so when it opens, before any typing.
    const used = await call(checkResetLink, { body: { token } });
    expect(used.status).toBe(409);
    expect(used.body.message).toBe(USED_RESET_LINK);
    expect(reset.body).toEqual({ ok: true, email: member.email });
    expect((await call(updateProfile, { body: profileBody, headers: auth(member.token) })).status).toBe(401);
    expect((await call(checkAuth, { body: {}, cookies: [member.cookie] })).status).toBe(401);
    expect((await logIn(member.email, PASSWORD)).status).toBe(401);
    expect((await logIn(member.email, newPassword)).status).toBe(200);

    const again = await call(resetPassword, { body: { token, password: 'yet another passphrase' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(USED_RESET_LINK);
    expect((await logIn(member.email, newPassword)).status).toBe(200);
  });

  it('two uses of one link at once: one sets the password, the other is told it was used', async () => {
    const member = await newMember();
    await call(requestPasswordReset, { body: { email: member.email } });
    const token = tokenOf(mailsTo(member.email).find((mail) => mail.link?.label === 'Password reset link'));
    const results = await Promise.all(
      ['first racing passphrase', 'second racing passphrase'].map((password) =>
        call(resetPassword, { body: { token, password } }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
  });

  it('refuses a link after one hour (the clock moved), and a common password, changing nothing', async () => {
    const member = await newMember();
    await call(requestPasswordReset, { body: { email: member.email } });
    const token = tokenOf(mailsTo(member.email).find((mail) => mail.link?.label === 'Password reset link'));
    const stored = await userItem(member.id);
    const common = await call(resetPassword, { body: { token, password: 'password123' } });
    expect(common.status).toBe(400);
    expect(common.body.fields).toEqual({ password: PASSWORD_IS_COMMON });
    const later = Date.now() + RESET_LINK_VALID_MS + 1000;
    vi.spyOn(clock, 'now').mockReturnValue(later);
    const expired = await call(resetPassword, { body: { token, password: 'a freshly chosen passphrase' } });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(EXPIRED_RESET_LINK);
    expect(await userItem(member.id)).toEqual(stored);
  });

  it('throttles one client address like sign-up (429 in words), and mails one account at most its hourly number', async () => {
    const member = await newMember();
    const sourceIp = uniqueIp();
    const answers = [];
    for (let index = 0; index < RESET_LIMITS.perAddress.count; index++) {
      answers.push(await call(requestPasswordReset, { body: { email: member.email }, sourceIp }));
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const refused = await call(requestPasswordReset, { body: { email: member.email }, sourceIp });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Ten answers of "sent", but only the account's hourly number of mails.
    const resets = mailsTo(member.email).filter((mail) => mail.link?.label === 'Password reset link');
    expect(resets).toHaveLength(RESET_LIMITS.perAccount.count);
  });
});

describe('/api/replacePayoutMethod', () => {
  const stripe = stripeAtEmulator();
  const cardToken = (number: string) => debitCardToken(stripe, number);

  async function payableMember() {
    const member = await newPayableMember(stripe);
    return { member, accountId: member.accountId };
  }

  it('makes the new card the default and deletes the old one; the same request again changes nothing', async () => {
    const { member, accountId } = await payableMember();
    const token = await cardToken('5200828282828210');
    const replaced = await call(replacePayoutMethod, { body: { id: accountId, token }, headers: auth(member.token) });
    expect(replaced.status).toBe(200);
    expect(replaced.body.card).toMatchObject({ brand: 'MasterCard', last4: '8210' });
    const cards = (await stripe.accounts.listExternalAccounts(accountId, { object: 'card' })).data;
    expect(cards.map((card) => [card.last4, card.default_for_currency])).toEqual([['8210', true]]);
    // A double click: the same card by its idempotency key, nothing more deleted or made.
    const again = await call(replacePayoutMethod, { body: { id: accountId, token }, headers: auth(member.token) });
    expect(again.status).toBe(200);
    expect((await stripe.accounts.listExternalAccounts(accountId, { object: 'card' })).data.map((c) => c.id)).toEqual(
      cards.map((c) => c.id),
    );
  });

  it('refuses a card Stripe will not pay out to in words at the card field, and keeps the old card', async () => {
    const { member, accountId } = await payableMember();
    const refused = await call(replacePayoutMethod, {
      body: { id: accountId, token: await cardToken('4000000000000002') },
      headers: auth(member.token),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toHaveProperty('token');
    const cards = (await stripe.accounts.listExternalAccounts(accountId, { object: 'card' })).data;
    expect(cards.map((card) => card.last4)).toEqual(['5556']);
  });

  it("refuses another member's account", async () => {
    const { accountId } = await payableMember();
    const stranger = await newMember();
    const result = await call(replacePayoutMethod, {
      body: { id: accountId, token: await cardToken('5200828282828210') },
      headers: auth(stranger.token),
    });
    expect(result.status).toBe(404);
  });
});
