import { describe, expect, it } from 'vitest';
import { handler as signup } from '../../functions/src/handlers/signup';
import { handler as withdraw } from '../../functions/src/handlers/withdraw';
import { handler as getOrders } from '../../functions/src/handlers/get-orders';
import { allItems, auth, call, tokenFor, uniqueEmail } from './helpers';

/**
 * A refused request's 400 says, at each field, what is wrong in the field's own words and with its
 * limit (issue 35: "Value is required" was the answer to a negative amount and to a 2,000-character
 * password), and stores nothing.
 */
const fieldsOf = (result: { status: number; body: Record<string, unknown> }) => {
  expect(result.status).toBe(400);
  return result.body.fields as Record<string, string>;
};

describe('the 400 answer names the field and the limit, one sentence per kind of problem', () => {
  it('missing, too short, too long and of the wrong type (signup)', async () => {
    const before = await allItems();
    expect(fieldsOf(await call(signup, { body: {} }))).toEqual({
      email: 'The e-mail address is required.',
      password: 'The password is required.',
    });
    const email = uniqueEmail('messages');
    expect(fieldsOf(await call(signup, { body: { email, password: 'x'.repeat(2000) } }))).toEqual({
      password: 'The password must be at most 128 characters.',
    });
    expect(fieldsOf(await call(signup, { body: { email, password: 'short' } }))).toEqual({
      password: 'The password must be at least 8 characters.',
    });
    const wrongType = await call(signup, { body: { email: 5, password: ['a long enough password'] } });
    expect(fieldsOf(wrongType)).toEqual({
      email: 'The e-mail address must be text.',
      password: 'The password must be text.',
    });
    expect(wrongType.body.message).toBe(
      'Invalid request. email: The e-mail address must be text.; password: The password must be text.',
    );
    expect(await allItems()).toEqual(before);
  });

  it('a number too small (withdraw), too big and a value not among the choices (getOrders)', async () => {
    const member = await tokenFor(false);
    const negative = await call(withdraw, {
      body: { requestId: 'a'.repeat(22), receive: -1, fee: -0.5 },
      headers: auth(member),
    });
    expect(fieldsOf(negative)).toMatchObject({
      receive: 'The amount to receive must be 0 or more.',
      fee: 'The fee must be 0 or more.',
    });
    const admin = await tokenFor(true);
    expect(fieldsOf(await call(getOrders, { body: { limit: 501 }, headers: auth(admin) }))).toEqual({
      limit: 'The limit must be 500 or less.',
    });
    expect(fieldsOf(await call(getOrders, { body: { limit: 0 }, headers: auth(admin) }))).toEqual({
      limit: 'The limit must be 1 or more.',
    });
    expect(fieldsOf(await call(getOrders, { body: { status: 'lost' }, headers: auth(admin) }))).toEqual({
      status: 'The status must be one of: not_ordered, ordered, shipped, fulfilled.',
    });
  });
});
