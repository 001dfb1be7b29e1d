import { describe, expect, it } from 'vitest';
import { daysInMonth, isAdultOn, payoutAccountRequest } from './payments';

const body = (overrides: Record<string, unknown> = {}) => ({
  social_profile: 'https://social.example.com/jenny',
  first_name: 'Jenny',
  last_name: 'Rosen',
  phone: '+1 (202) 555-0123',
  street_address_1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipcode: '62701',
  dob_day: 15,
  dob_month: 6,
  dob_year: 2008,
  tax_id: '123-45-6789',
  tos_accepted: true,
  ...overrides,
});

const today = new Date(2026, 5, 15); // June 15th, 2026
const schema = payoutAccountRequest(() => today);
const fieldsOf = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('the payout account form', () => {
  it('takes a member who turns 18 today, with the phone and tax ID as digits, the unit optional', () => {
    const parsed = schema.parse(body());
    expect(parsed).toMatchObject({ phone: '2025550123', tax_id: '123456789', state: 'IL' });
    expect(parsed.address_unit).toBeUndefined();
  });

  it("refuses a member who turns 18 tomorrow, and a year before 1900 (Stripe's test dates start there) or after this one", () => {
    expect(fieldsOf(body({ dob_day: 16 }))).toEqual(['dob_year']);
    expect(fieldsOf(body({ dob_year: 1899 }))).toEqual(['dob_year']);
    expect(fieldsOf(body({ dob_year: 2027 }))).toEqual(['dob_year']);
    expect(fieldsOf(body({ dob_year: 1900 }))).toEqual([]);
  });

  it('fits the days to the month and the year', () => {
    expect(daysInMonth(2, 2000)).toBe(29);
    expect(daysInMonth(2, 1900)).toBe(28);
    expect(daysInMonth(4, 1990)).toBe(30);
    expect(fieldsOf(body({ dob_day: 29, dob_month: 2, dob_year: 1990 }))).toEqual(['dob_day']);
    expect(fieldsOf(body({ dob_day: 29, dob_month: 2, dob_year: 1988 }))).toEqual([]);
    expect(isAdultOn({ day: 29, month: 2, year: 2008 }, new Date(2026, 1, 28))).toBe(false);
    expect(isAdultOn({ day: 29, month: 2, year: 2008 }, new Date(2026, 2, 1))).toBe(true);
  });

  it('checks the phone, state, ZIP, tax ID, link, city and the terms', () => {
    for (const [field, value] of [
      ['phone', '555-0123'],
      ['phone', '(102) 555-0123'],
      ['state', 'XX'],
      ['zipcode', '6270'],
      ['zipcode', '62701-12'],
      ['tax_id', '12345678'],
      ['tax_id', '12345678a'],
      ['social_profile', 'javascript:alert(1)'],
      ['social_profile', 'social.example.com/jenny'],
      ['city', 'A'],
      ['tos_accepted', false],
      ['first_name', '  '],
    ] as const) {
      expect([field, value, fieldsOf(body({ [field]: value }))]).toEqual([field, value, [field]]);
    }
    expect(fieldsOf(body({ zipcode: '62701-1234', tax_id: '123456789', refresh_token: 'x' }))).toEqual([]);
    expect(fieldsOf(body({ unknown: 1 }))).toEqual(['']);
  });
});
