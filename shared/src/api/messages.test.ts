import { describe, expect, it } from 'vitest';
import * as z from './zod';
import { fieldLabel } from './messages';
import { ChangePasswordRequest } from './account';
import { Credentials, SignupRequest } from './schemas';

/** The message of each field of a failed parse, as the API's 400 `fields` gives them. */
const messages = (schema: { safeParse(value: unknown): { error?: z.core.$ZodError } }, value: unknown) =>
  Object.fromEntries(
    (schema.safeParse(value).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );

describe('validation sentences (issue 35): each kind of issue in its own words, naming the field and the limit', () => {
  const form = z.strictObject({
    amountCents: z.number().check(z.int(), z.gte(0), z.lte(100_000)),
    fee: z.number().check(z.gt(0), z.lt(1000)),
    password: z.string().check(z.minLength(8), z.maxLength(128)),
    first_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    status: z.enum(['paid', 'refunded']),
    flag: z.union([z.literal(0), z.literal(1)]),
    email: z.string().check(z.email()),
    items: z.array(z.string()).check(z.minLength(1), z.maxLength(2)),
    enabled: z.boolean(),
  });
  const good = {
    amountCents: 100,
    fee: 1,
    password: 'long enough',
    first_name: 'Maya',
    status: 'paid',
    flag: 1,
    email: 'maya@example.com',
    items: ['a'],
    enabled: true,
  };

  it('missing', () => {
    expect(messages(form, {})).toEqual({
      amountCents: 'The amount is required.',
      fee: 'The fee is required.',
      password: 'The password is required.',
      first_name: 'The first name is required.',
      status: 'The status must be one of: paid, refunded.',
      flag: 'The flag must be one of: 0, 1.',
      email: 'The e-mail address is required.',
      items: 'The items is required.',
      enabled: 'The enabled is required.',
    });
    // Blank after trimming is missing too.
    expect(messages(form, { ...good, first_name: '   ' })).toEqual({ first_name: 'The first name is required.' });
  });

  it('too small and too big numbers, inclusive or not, and whole numbers', () => {
    expect(messages(form, { ...good, amountCents: -1, fee: 0 })).toEqual({
      amountCents: 'The amount must be 0 or more.',
      fee: 'The fee must be more than 0.',
    });
    expect(messages(form, { ...good, amountCents: 100_001, fee: 1000 })).toEqual({
      amountCents: 'The amount must be 100,000 or less.',
      fee: 'The fee must be less than 1,000.',
    });
    expect(messages(form, { ...good, amountCents: 1.5 })).toEqual({
      amountCents: 'The amount must be a whole number.',
    });
  });

  it('too short and too long text, and lists', () => {
    expect(messages(form, { ...good, password: 'short', first_name: 'x'.repeat(101) })).toEqual({
      password: 'The password must be at least 8 characters.',
      first_name: 'The first name must be at most 100 characters.',
    });
    expect(messages(form, { ...good, password: 'x'.repeat(2000) })).toEqual({
      password: 'The password must be at most 128 characters.',
    });
    expect(messages(form, { ...good, items: [] })).toEqual({ items: 'The items must have at least 1 item.' });
    expect(messages(form, { ...good, items: ['a', 'b', 'c'] })).toEqual({
      items: 'The items must have at most 2 items.',
    });
  });

  it('wrong type, bad enum and literal, bad format', () => {
    expect(
      messages(form, { ...good, amountCents: '5', password: 5, enabled: 'yes', status: 'lost', flag: 2, email: 'no' }),
    ).toEqual({
      amountCents: 'The amount must be a number.',
      password: 'The password must be text.',
      enabled: 'The enabled must be true or false.',
      status: 'The status must be one of: paid, refunded.',
      flag: 'The flag must be one of: 0, 1.',
      email: 'The e-mail address must be a valid e-mail address.',
    });
  });

  it('the API’s own schemas: a 2,000-character password and a missing one are told apart', () => {
    expect(
      messages(ChangePasswordRequest, { currentPassword: 'x'.repeat(2000), newPassword: 'y'.repeat(2000) }),
    ).toEqual({
      currentPassword: 'The current password must be at most 1,024 characters.',
      newPassword: 'The new password must be at most 128 characters.',
    });
    expect(messages(Credentials, { email: '' })).toEqual({
      email: 'The e-mail address is required.',
      password: 'The password is required.',
    });
    expect(messages(SignupRequest, { email: 'maya@example.com', password: 'short' })).toEqual({
      password: 'The password must be at least 8 characters.',
    });
  });

  it('names a field by the words of its name', () => {
    expect(fieldLabel(['currentPassword'])).toBe('current password');
    expect(fieldLabel(['street_address_1'])).toBe('street address');
    expect(fieldLabel(['unitAmountCents'])).toBe('unit amount');
    expect(fieldLabel(['items', 0, 'product_id'])).toBe('product ID');
    expect(fieldLabel(['items', 3])).toBe('items');
    expect(fieldLabel([])).toBe('value');
  });
});
