import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { handler as signup } from '../../functions/src/handlers/signup';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as verifyEmail } from '../../functions/src/handlers/verify-email';
import { handler as changeEmail } from '../../functions/src/handlers/change-email';
import { handler as changePassword } from '../../functions/src/handlers/change-password';
import { handler as requestPasswordReset } from '../../functions/src/handlers/request-password-reset';
import { handler as resetPassword } from '../../functions/src/handlers/reset-password';
import { handler as replacePayoutMethod } from '../../functions/src/handlers/replace-payout-method';
import { CARD_CHANGED_AT_ONCE, toDomainError } from '../../functions/src/adapters/payments/stripe-gateway';
import { DomainError } from '../../functions/src/errors';
import { dynamoAccountLocks } from '../../functions/src/adapters/auth/dynamo-account-locks';
import { ACCOUNT_LOCK_LEASE_MS } from '../../functions/src/auth/account-lock';
import { PASSWORD_CHANGE_UNDER_WAY } from '../../functions/src/auth/account';
import { RESEND_LIMITS } from '../../functions/src/email/verification';
import { RESET_ANSWER_FLOOR_MS } from '../../functions/src/email/password-reset';
import { clock } from '../../functions/src/config/clock';
import { SUPERSEDED_RESET_LINK } from '../../shared/src/api/account';
import { SUPERSEDED_VERIFICATION_LINK } from '../../shared/src/api/email';
import { keys } from '../../shared/src/db/table';
import { allItems, auth, call, uniqueEmail, uniqueIp } from './helpers';
import { mailsTo, type StoredMail } from './outbox';
import { debitCardToken, payableMember, stripeAtEmulator } from './sales-helpers';

/**
 * Every link mailed to an account ends when its password or e-mail address changes (issue 35;
 * decision 0240), against DynamoDB Local and this file's mail outbox: a reset link mailed to an old
 * address, a reset link from before a password change, and the e-mail links of before a change.
 */
const PASSWORD = 'a long enough password';
const tokenOf = (mail: StoredMail | undefined): string => new URL(mail!.link!.url).searchParams.get('token')!;
const linksTo = (email: string, label: string) =>
  mailsTo(email)
    .filter((mail) => mail.link?.label === label)
    .map(tokenOf);

interface Member {
  id: string;
  email: string;
  token: string;
}

async function newMember(prefix = 'links'): Promise<Member> {
  const email = uniqueEmail(prefix);
  const result = await call(signup, { body: { email, password: PASSWORD } });
  expect(result.status).toBe(200);
  return { id: (result.body.userProfile as { id: string }).id, email, token: String(result.body.access_token) };
}

const logIn = (email: string, password: string) => call(login, { body: { email, password }, sourceIp: uniqueIp() });
const userItem = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }))).Item;

async function resetLink(email: string): Promise<string> {
  const before = linksTo(email, 'Password reset link').length;
  expect((await call(requestPasswordReset, { body: { email } })).status).toBe(200);
  const links = linksTo(email, 'Password reset link');
  expect(links).toHaveLength(before + 1);
  return links.at(-1)!;
}

afterEach(() => vi.restoreAllMocks());

describe('a change of password or e-mail address ends every link mailed before it', () => {
  // The reset request's answer floor is not waited out here (its own test is below).
  beforeEach(() => void vi.spyOn(clock, 'sleep').mockResolvedValue());

  it('a reset link mailed to the old address does not work once the e-mail address has changed', async () => {
    const member = await newMember();
    const oldMailbox = await resetLink(member.email);
    const next = uniqueEmail('links-new');
    const asked = await call(changeEmail, { body: { email: next, password: PASSWORD }, headers: auth(member.token) });
    expect(asked.status).toBe(200);
    expect((await call(verifyEmail, { body: { token: linksTo(next, 'E-mail change link')[0]! } })).status).toBe(200);

    // Whoever holds the old mailbox cannot take the account with the link.
    const taken = await call(resetPassword, { body: { token: oldMailbox, password: 'the old mailbox owner wins' } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe(SUPERSEDED_RESET_LINK);
    expect(taken.body.fields).toEqual({ token: SUPERSEDED_RESET_LINK });
    expect((await logIn(next, 'the old mailbox owner wins')).status).toBe(401);
    expect((await logIn(next, PASSWORD)).status).toBe(200);
  });

  it('a reset link from before a password change does not work after it', async () => {
    const member = await newMember();
    const link = await resetLink(member.email);
    const changed = await call(changePassword, {
      body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' },
      headers: auth(member.token),
    });
    expect(changed.status).toBe(200);
    const stored = await userItem(member.id);

    const used = await call(resetPassword, { body: { token: link, password: 'an attacker passphrase' } });
    expect(used.status).toBe(400);
    expect(used.body.message).toBe(SUPERSEDED_RESET_LINK);
    // Nothing changed: not the password, not the link (it is refused, not used).
    expect(await userItem(member.id)).toEqual(stored);
    expect((await logIn(member.email, 'a brand new passphrase')).status).toBe(200);
    // A link asked for after the change works.
    const fresh = await resetLink(member.email);
    expect(
      (await call(resetPassword, { body: { token: fresh, password: 'a freshly chosen passphrase' } })).status,
    ).toBe(200);
    expect((await logIn(member.email, 'a freshly chosen passphrase')).status).toBe(200);
  });

  it("using a reset link ends the account's other reset links and its pending e-mail change", async () => {
    const member = await newMember();
    const next = uniqueEmail('links-pending');
    expect(
      (await call(changeEmail, { body: { email: next, password: PASSWORD }, headers: auth(member.token) })).status,
    ).toBe(200);
    const first = await resetLink(member.email);
    const second = await resetLink(member.email);
    expect((await call(resetPassword, { body: { token: first, password: 'the first link passphrase' } })).status).toBe(
      200,
    );

    const other = await call(resetPassword, { body: { token: second, password: 'the second link passphrase' } });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(SUPERSEDED_RESET_LINK);
    const change = await call(verifyEmail, { body: { token: linksTo(next, 'E-mail change link')[0]! } });
    expect(change.status).toBe(400);
    expect(change.body.message).toBe(SUPERSEDED_VERIFICATION_LINK);
    expect(await userItem(member.id)).toMatchObject({ email: member.email });
    expect((await logIn(member.email, 'the first link passphrase')).status).toBe(200);
  });

  it("a password change ends the account's pending e-mail change and its verification link", async () => {
    const member = await newMember();
    const [verification] = linksTo(member.email, 'Verification link');
    expect(verification).toBeDefined();
    const next = uniqueEmail('links-changed');
    expect(
      (await call(changeEmail, { body: { email: next, password: PASSWORD }, headers: auth(member.token) })).status,
    ).toBe(200);
    expect(
      (
        await call(changePassword, {
          body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' },
          headers: auth(member.token),
        })
      ).status,
    ).toBe(200);

    const change = await call(verifyEmail, { body: { token: linksTo(next, 'E-mail change link')[0]! } });
    expect(change.status).toBe(400);
    expect(change.body.message).toBe(SUPERSEDED_VERIFICATION_LINK);
    const verify = await call(verifyEmail, { body: { token: verification! } });
    expect(verify.status).toBe(400);
    expect(verify.body.message).toBe(SUPERSEDED_VERIFICATION_LINK);
    expect(await userItem(member.id)).toMatchObject({ email: member.email, isEmailVerified: false });
  });
});

describe('/api/requestPasswordReset takes as long for an unknown address as for a registered one', () => {
  it('holds both answers to the same floor: the wait is the floor less what the work took, none past it', async () => {
    const member = await newMember('links-timing');
    const unknown = uniqueEmail('links-nobody');
    const sleep = vi.spyOn(clock, 'sleep').mockResolvedValue();
    // The duration clock at each request's start and end: the registered path's work (reads,
    // writes, the mail) took 300 ms, the unknown one's 20 ms, then a registered one past the floor.
    vi.spyOn(clock, 'elapsed')
      .mockReturnValueOnce(10_000)
      .mockReturnValueOnce(10_300)
      .mockReturnValueOnce(20_000)
      .mockReturnValueOnce(20_020)
      .mockReturnValueOnce(30_000)
      .mockReturnValueOnce(30_000 + RESET_ANSWER_FLOOR_MS + 5);
    const answers = [
      await call(requestPasswordReset, { body: { email: member.email } }),
      await call(requestPasswordReset, { body: { email: unknown } }),
      await call(requestPasswordReset, { body: { email: member.email } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(sleep.mock.calls).toEqual([[RESET_ANSWER_FLOOR_MS - 300], [RESET_ANSWER_FLOOR_MS - 20]]);
    // Both registered requests mailed (the floor holds the answer, not the work).
    expect(linksTo(member.email, 'Password reset link')).toHaveLength(2);
    expect(mailsTo(unknown)).toHaveLength(0);
  });
});

describe('/api/changeEmail says nothing of whether an address is registered', () => {
  it("answers a taken address as a free one, counted first; the taken address's owner is told, and past the day's links both are refused alike", async () => {
    const member = await newMember();
    const owner = await newMember('links-owner');
    const ask = (email: string) =>
      call(changeEmail, { body: { email, password: PASSWORD }, headers: auth(member.token) });
    const free = uniqueEmail('links-free');

    const taken = await ask(owner.email);
    const open = await ask(free);
    expect(taken.status).toBe(200);
    expect(open.status).toBe(200);
    expect({ ...taken.body, pendingEmail: '' }).toEqual({ ...open.body, pendingEmail: '' });
    expect(taken.body.pendingEmail).toBe(owner.email);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(open.headers).sort());

    // The free address gets a link; the owner a notice without a link, naming neither the member nor their address.
    expect(linksTo(free, 'E-mail change link')).toHaveLength(1);
    const notices = mailsTo(owner.email).filter((mail) => mail.subject.includes('tried to use your e-mail address'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.link?.label).toBe('Log in to your account');
    expect(notices[0]!.text).toContain('nothing was changed');
    expect(`${notices[0]!.text}${notices[0]!.html}`).not.toContain(member.email);
    expect(linksTo(owner.email, 'E-mail change link')).toHaveLength(0);
    const changeLinks = (await allItems()).filter(
      (item) => item.entity === 'EmailVerification' && item.userId === member.id && item.replaces !== undefined,
    );
    expect(changeLinks.map((item) => item.email)).toEqual([free]);

    // The day's links (sign-up's first included) are used up: taken or free, the same 429, nothing mailed.
    for (let sent = 3; sent < RESEND_LIMITS.perDay.count; sent++) expect((await ask(free)).status).toBe(200);
    const noticesBefore = mailsTo(owner.email).length;
    const takenRefused = await ask(owner.email);
    const freeRefused = await ask(uniqueEmail('links-late'));
    expect(takenRefused.status).toBe(429);
    expect(freeRefused.status).toBe(429);
    expect(takenRefused.body).toEqual(freeRefused.body);
    expect(mailsTo(owner.email)).toHaveLength(noticesBefore);
    expect(await userItem(member.id)).toMatchObject({ email: member.email });
  });
});

describe('concurrent changes of one account: 200 or a 409/429 in words, never a 500', () => {
  /** A refusal a person can read: a sentence, not a code. */
  const inWords = (answer: { status: number; body: Record<string, unknown> }) =>
    answer.status === 200 ||
    ([409, 429].includes(answer.status) && /^[A-Z].{20,}\.$/.test(String(answer.body.message)));

  it('six password changes at once: one password wins, and it logs in', async () => {
    const member = await newMember('links-passwords');
    const passwords = [1, 2, 3, 4, 5, 6].map((n) => `racing passphrase number ${n}`);
    const answers = await Promise.all(
      passwords.map((newPassword) =>
        call(changePassword, {
          body: { currentPassword: PASSWORD, newPassword },
          headers: auth(member.token),
          // The function's own timeout (functions/src/routes.ts): every answer comes within it.
          deadlineMs: 10_000,
        }),
      ),
    );
    expect(answers.filter((answer) => !inWords(answer)).map((answer) => [answer.status, answer.body])).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    const logins = [];
    for (const password of [...passwords, PASSWORD]) logins.push((await logIn(member.email, password)).status);
    // Exactly one of the submitted passwords is the account's; the old one no longer logs in.
    expect(logins.filter((status) => status === 200)).toHaveLength(1);
    expect(logins.at(-1)).toBe(401);
  });

  it("a held lock refuses the account's change in words and changes nothing; a dead holder's lock ends with its lease", async () => {
    const member = await newMember('links-lock');
    const change = (newPassword: string) =>
      call(changePassword, { body: { currentPassword: PASSWORD, newPassword }, headers: auth(member.token) });
    expect(await dynamoAccountLocks.take(member.id, 'password', 'another request', Date.now(), 60_000)).toBe(true);
    const stored = await userItem(member.id);
    const refused = await change('a passphrase while locked');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(PASSWORD_CHANGE_UNDER_WAY);
    expect(await userItem(member.id)).toEqual(stored);

    // A holder that died (its lease over): the next change takes the lock over and is made.
    await dynamoAccountLocks.release(member.id, 'password', 'another request');
    const died = Date.now() - ACCOUNT_LOCK_LEASE_MS - 1;
    expect(await dynamoAccountLocks.take(member.id, 'password', 'a dead request', died, ACCOUNT_LOCK_LEASE_MS)).toBe(
      true,
    );
    expect((await change('a passphrase after the lease')).status).toBe(200);
    expect((await logIn(member.email, 'a passphrase after the lease')).status).toBe(200);
    // The lock is given back after the change: nothing of it is left.
    const locks = (await allItems()).filter((item) => item.entity === 'AccountLock' && item.pk === `USER#${member.id}`);
    expect(locks).toEqual([]);
  });

  it('eight card replacements at once: one card is left at Stripe, the default', async () => {
    const stripe = stripeAtEmulator();
    const member = await payableMember(stripe);
    const tokens = await Promise.all(
      Array.from({ length: 8 }, (_, n) => debitCardToken(stripe, n % 2 ? '5200828282828210' : '4000056655665556')),
    );
    const answers = await Promise.all(
      tokens.map((token) =>
        call(replacePayoutMethod, { body: { id: member.accountId, token }, headers: auth(member.token) }),
      ),
    );
    expect(answers.filter((answer) => !inWords(answer)).map((answer) => [answer.status, answer.body])).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    const cards = (await stripe.accounts.listExternalAccounts(member.accountId, { object: 'card' })).data;
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ default_for_currency: true });
    expect(await userItem(member.id)).toMatchObject({ stripeID: member.accountId, isPayoutMethodAdded: 1 });
  });

  it("Stripe's refusal to delete the default card is a 409 in words", async () => {
    const stripe = stripeAtEmulator();
    const member = await payableMember(stripe);
    const [card] = (await stripe.accounts.listExternalAccounts(member.accountId, { object: 'card' })).data;
    const refusal = await stripe.accounts.deleteExternalAccount(member.accountId, card!.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeDefined();
    const mapped = toDomainError(refusal);
    expect(mapped).toBeInstanceOf(DomainError);
    expect(mapped).toMatchObject({ kind: 'conflict', message: CARD_CHANGED_AT_ONCE });
  });
});
