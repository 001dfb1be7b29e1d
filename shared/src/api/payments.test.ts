import { describe, expect, it } from 'vitest';
import {
  createPayoutAccountBody,
  daysInMonth,
  isAdultOn,
  payoutAccountRequest,
  SOCIAL_PROFILE_INVALID,
  withHttps,
} from './payments';

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

describe('the social profile link', () => {
  it('gets https:// when typed without a scheme, and keeps a scheme that is there', () => {
    expect(withHttps(' instagram.com/x ')).toBe('https://instagram.com/x');
    expect(withHttps('//instagram.com/x')).toBe('https://instagram.com/x');
    expect(withHttps('instagram.com:443/x')).toBe('https://instagram.com:443/x');
    expect(withHttps('http://example.com/x')).toBe('http://example.com/x');
    expect(withHttps('HTTPS://example.com/x')).toBe('HTTPS://example.com/x');
    expect(withHttps('ftp://example.com/x')).toBe('ftp://example.com/x');
    expect(withHttps('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(withHttps('  ')).toBe('');
  });

  it('is stored with https:// added; other schemes and non-links are refused in words', () => {
    const parse = (social_profile: string) => payoutAccountRequest().safeParse(body({ social_profile }));
    const parsed = parse('instagram.com/x');
    expect(parsed.success && parsed.data.social_profile).toBe('https://instagram.com/x');
    for (const bad of ['ftp://example.com/x', 'javascript:alert(1)', 'not a link', 'localhost/x']) {
      const result = parse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues.find((issue) => issue.path[0] === 'social_profile')?.message, bad).toBe(
        SOCIAL_PROFILE_INVALID,
      );
    }
    expect(parse('').error?.issues.find((issue) => issue.path[0] === 'social_profile')?.message).toBe(
      'The social profile link is required.',
    );
  });
});

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
      ['social_profile', 'jenny@example.com'],
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

/** The spec's body (spec sections 3 and 7): `payoutRequest` with an address, a date of birth, ssn and social_media_url. */
const specBody = (overrides: Record<string, unknown> = {}, address: Record<string, unknown> = {}) => ({
  refresh_token: 'old-client-token',
  payoutRequest: {
    address: {
      line1: '1 Main St',
      line2: 'Apt 4',
      city: 'Springfield',
      state: 'il',
      postal_code: '62701',
      country: 'US',
      ...address,
    },
    dob: { day: '15', month: '06', year: '2008' },
    first_name: 'Jenny',
    last_name: 'Rosen',
    ssn: '123-45-6789',
    phone: '202-555-0123',
    social_media_url: 'https://social.example.com/jenny',
    ...overrides,
  },
});

describe("the createPayoutAccount body: the form's or the spec's payoutRequest", () => {
  const call = createPayoutAccountBody(() => today);
  const pathsOf = (input: unknown) => {
    const result = call.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
  };

  it("takes the spec's payoutRequest and answers it in the form's shape", () => {
    expect(call.parse(specBody())).toEqual({
      social_profile: 'https://social.example.com/jenny',
      first_name: 'Jenny',
      last_name: 'Rosen',
      phone: '2025550123',
      street_address_1: '1 Main St',
      address_unit: 'Apt 4',
      city: 'Springfield',
      state: 'IL',
      zipcode: '62701',
      dob_day: 15,
      dob_month: 6,
      dob_year: 2008,
      tax_id: '123456789',
      tos_accepted: true,
      refresh_token: 'old-client-token',
    });
  });

  it("takes the form's body as the form does", () => {
    expect(call.parse(body())).toEqual(schema.parse(body()));
    expect(pathsOf(body({ dob_day: 16 }))).toEqual(['dob_year']);
  });

  it('takes zipcode or postal_code, and refuses both when they differ or neither', () => {
    expect(call.parse(specBody({}, { postal_code: undefined, zipcode: '62702' })).zipcode).toBe('62702');
    expect(pathsOf(specBody({}, { zipcode: '62702' }))).toEqual(['payoutRequest.address.zipcode']);
    expect(pathsOf(specBody({}, { postal_code: undefined }))).toEqual(['payoutRequest.address.zipcode']);
  });

  it('names a refused value where the spec body has it', () => {
    expect(pathsOf(specBody({ ssn: '1234' }))).toEqual(['payoutRequest.ssn']);
    expect(pathsOf(specBody({ dob: { day: 16, month: 6, year: 2008 } }))).toEqual(['payoutRequest.dob.year']);
    expect(pathsOf(specBody({ social_media_url: 'jenny@example.com' }))).toEqual(['payoutRequest.social_media_url']);
    expect(pathsOf(specBody({}, { country: 'CA' }))).toEqual(['payoutRequest.address.country']);
    expect(pathsOf(specBody({ dob: { day: 'x', month: 6, year: 2008 } }))).toEqual(['payoutRequest.dob.day']);
    expect(pathsOf(specBody({ nickname: 'J' }))).toEqual(['payoutRequest.nickname']);
    expect(pathsOf({ ...specBody(), tos_accepted: false })).toEqual(['tos_accepted']);
  });
});
