import { fieldLabel } from './messages';
import { pure } from './pure';
import * as z from './zod';
import { Id, UserProfile } from './schemas';

/**
 * The payout account form (Create payout account) and the payout card calls: one schema for the
 * server and the form. It asks what a real US individual payout account needs.
 */

/**
 * 1900: Stripe's test dates of birth (1901-01-01 verifies, 1902-01-01 verifies at once,
 * 1900-01-01 raises a sanctions alert; any other date fails in test mode) must be enterable.
 */
export const FIRST_BIRTH_YEAR = 1900;
/** The sentence for a field a correction must give with its group. */
const requiredSentence = (field: string): string => `The ${fieldLabel([field])} is required.`;

/** The first year the birth-year list offers (the spec's); before it, only Stripe's test years, in test mode. */
export const FIRST_LISTED_BIRTH_YEAR = 1937;
/** Stripe's test dates of birth fall in these years: listed only while Stripe is in test mode. */
export const STRIPE_TEST_BIRTH_YEARS = [1902, 1901, 1900] as const;
/** Test mode, as the publishable key's prefix says (`pk_test_…`; live keys are `pk_live_…`). */
export const isTestModeKey = (publishableKey: string | undefined): boolean =>
  Boolean(publishableKey?.startsWith('pk_test_'));
export const MIN_AGE = 18;

/** The 50 states and DC, the codes a US individual's address takes at Stripe. */
export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const; // prettier-ignore

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

/** Digits only: "(202) 555-0123", "202-555-0123" and "+1 202 555 0123" are all 2025550123. */
export const UsPhone = /* @__PURE__ */ pure(() =>
  z
    .pipe(
      z.string().check(z.trim(), z.minLength(1)),
      z.transform((value: string) => value.replace(/[\s().-]/g, '').replace(/^\+?1(?=\d{10}$)/, '')),
    )
    .check(z.refine((digits: string) => /^[2-9]\d{2}[2-9]\d{6}$/.test(digits), 'Enter a 10-digit US phone number')),
);

/** Nine digits, dashes and spaces allowed while typing (123-45-6789); the value is the digits. */
export const TaxId = /* @__PURE__ */ pure(() =>
  z
    .pipe(
      z.string().check(z.trim(), z.minLength(1)),
      z.transform((value: string) => value.replace(/[\s-]/g, '')),
    )
    .check(z.refine((digits: string) => /^\d{9}$/.test(digits), 'Enter the 9 digits of your tax ID (SSN or ITIN)')),
);

/**
 * A link typed without its scheme ("instagram.com/x") gets `https://` in front, as a person
 * means it; a link with a scheme (http, https, or another one the rule then refuses) is kept.
 */
export function withHttps(value: string): string {
  const link = value.trim();
  if (
    link === '' ||
    /^[a-z][a-z\d+.-]*:\/\//i.test(link) ||
    /^(javascript|data|mailto|tel|file|vbscript):/i.test(link)
  ) {
    return link;
  }
  return `https://${link.replace(/^\/+/, '')}`;
}

export const SOCIAL_PROFILE_INVALID = 'Enter the link to your profile, like instagram.com/yourname';

export const SocialProfile = /* @__PURE__ */ pure(() =>
  z.pipe(z.string(), z.transform(withHttps)).check(
    z.minLength(1),
    z.maxLength(2000),
    z.refine((value: string) => {
      try {
        const url = new URL(value);
        // No user name in it: an e-mail address ("jenny@example.com") is no profile link.
        return (
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          url.hostname.includes('.') &&
          !url.username &&
          !url.password
        );
      } catch {
        return false;
      }
    }, SOCIAL_PROFILE_INVALID),
  ),
);

/** The days of a month in a year (February 29 in leap years). */
export const daysInMonth = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether someone born on that date is at least `MIN_AGE` on `today` (their birthday counts). */
export function isAdultOn(dob: { day: number; month: number; year: number }, today: Date): boolean {
  const [y, m, d] = [today.getFullYear(), today.getMonth() + 1, today.getDate()];
  const age = y - dob.year - (m < dob.month || (m === dob.month && d < dob.day) ? 1 : 0);
  return age >= MIN_AGE;
}

const int = (message: string) => z.number().check(z.int(message));

/** The form's body; `today` decides the age rule and the last year (tests pass a fixed day). */
export function payoutAccountRequest(today: () => Date = () => new Date()) {
  return z
    .strictObject({
      social_profile: SocialProfile,
      first_name: text(100),
      last_name: text(100),
      phone: UsPhone,
      street_address_1: text(200),
      address_unit: z.optional(z.string().check(z.trim(), z.maxLength(100))),
      city: text(100).check(z.refine((value: string) => value.length >= 2, 'City must be at least 2 characters')),
      state: z
        .pipe(
          z.string().check(z.trim()),
          z.transform((value: string) => value.toUpperCase()),
        )
        .check(
          z.refine(
            (value: string) => (US_STATES as readonly string[]).includes(value),
            'Choose a US state (2-letter code)',
          ),
        ),
      zipcode: z.string().check(
        z.trim(),
        z.refine((value: string) => /^\d{5}(-\d{4})?$/.test(value), 'Enter a 5-digit ZIP code (or ZIP+4)'),
      ),
      dob_day: int('Choose a day').check(z.gte(1, 'Choose a day'), z.lte(31, 'Choose a day')),
      dob_month: int('Choose a month').check(z.gte(1, 'Choose a month'), z.lte(12, 'Choose a month')),
      dob_year: int('Choose a year').check(z.gte(FIRST_BIRTH_YEAR, `Choose a year from ${FIRST_BIRTH_YEAR}`)),
      tax_id: TaxId,
      tos_accepted: z.literal(true, { error: 'Accept the Terms of Service to continue' }),
      /** The spec sends it; the session comes from the access token and the cookie, as for every call. */
      refresh_token: z.optional(z.string().check(z.maxLength(512))),
    })
    .check(
      z.superRefine((body: DateOfBirth, context) => {
        const now = today();
        if (body.dob_year > now.getFullYear()) {
          context.addIssue({ code: 'custom', path: ['dob_year'], message: `Choose a year up to ${now.getFullYear()}` });
          return;
        }
        if (body.dob_day > daysInMonth(body.dob_month, body.dob_year)) {
          context.addIssue({ code: 'custom', path: ['dob_day'], message: 'This month has fewer days' });
          return;
        }
        if (!isAdultOn({ day: body.dob_day, month: body.dob_month, year: body.dob_year }, now)) {
          context.addIssue({
            code: 'custom',
            path: ['dob_year'],
            message: `You must be at least ${MIN_AGE} years old`,
          });
        }
      }),
    );
}

/**
 * POST /api/updatePayoutAccount's body: the details Stripe could not verify, corrected by the
 * member, in groups (the name, the date of birth, the home address, the tax ID); only the groups
 * the payout account screen asks for are sent, each whole.
 */
export function updatePayoutAccountRequest(today: () => Date = () => new Date()) {
  const create = payoutAccountRequest(today);
  const shape = create.def.shape;
  return z
    .strictObject({
      first_name: z.optional(shape.first_name),
      last_name: z.optional(shape.last_name),
      street_address_1: z.optional(shape.street_address_1),
      address_unit: shape.address_unit,
      city: z.optional(shape.city),
      state: z.optional(shape.state),
      zipcode: z.optional(shape.zipcode),
      dob_day: z.optional(shape.dob_day),
      dob_month: z.optional(shape.dob_month),
      dob_year: z.optional(shape.dob_year),
      tax_id: z.optional(shape.tax_id),
    })
    .check(
      z.superRefine((body: Partial<Record<string, unknown>>, context) => {
        const groups: [string, string[]][] = [
          ['name', ['first_name', 'last_name']],
          ['address', ['street_address_1', 'city', 'state', 'zipcode']],
          ['dob', ['dob_day', 'dob_month', 'dob_year']],
          ['tax_id', ['tax_id']],
        ];
        let any = false;
        for (const [, fields] of groups) {
          const given = fields.filter((field) => body[field] !== undefined);
          if (given.length) any = true;
          if (given.length && given.length < fields.length) {
            for (const field of fields.filter((name) => body[name] === undefined)) {
              context.addIssue({ code: 'custom', path: [field], message: requiredSentence(field) });
            }
          }
        }
        if (!any) context.addIssue({ code: 'custom', path: ['first_name'], message: 'Correct at least one detail' });
        const { dob_day: day, dob_month: month, dob_year: year } = body as Partial<DateOfBirth>;
        if (day !== undefined && month !== undefined && year !== undefined) {
          const now = today();
          if (year > now.getFullYear()) {
            context.addIssue({
              code: 'custom',
              path: ['dob_year'],
              message: `Choose a year up to ${now.getFullYear()}`,
            });
          } else if (day > daysInMonth(month, year)) {
            context.addIssue({ code: 'custom', path: ['dob_day'], message: 'This month has fewer days' });
          } else if (!isAdultOn({ day, month, year }, now)) {
            context.addIssue({
              code: 'custom',
              path: ['dob_year'],
              message: `You must be at least ${MIN_AGE} years old`,
            });
          }
        }
      }),
    );
}
export const UpdatePayoutAccountRequest = /* @__PURE__ */ updatePayoutAccountRequest();
export type UpdatePayoutAccountRequest = z.input<typeof UpdatePayoutAccountRequest>;
export const GetPayoutAccountRequest = /* @__PURE__ */ pure(() => z.strictObject({}));

/** The parts of the payout form's body its date rule reads. */
interface DateOfBirth {
  dob_day: number;
  dob_month: number;
  dob_year: number;
}

export const CreatePayoutAccountRequest = /* @__PURE__ */ payoutAccountRequest();
export type CreatePayoutAccountRequest = z.input<typeof CreatePayoutAccountRequest>;

/**
 * The spec's body of /api/createPayoutAccount (spec sections 3 and 7): `payoutRequest` with an
 * address, a date of birth, `ssn` and `social_media_url`. The spec lists both `postal_code` and
 * `zipcode`: either one is taken. The spec's client calls only once the terms are accepted.
 */
export interface SpecPayoutAccountBody {
  refresh_token?: string;
  tos_accepted?: true;
  payoutRequest: {
    address: {
      line1: string;
      line2?: string;
      city: string;
      state: string;
      postal_code?: string;
      zipcode?: string;
      /** US only. */
      country?: string;
    };
    /** Numbers, or their digits as text ("06"). */
    dob: { day: number | string; month: number | string; year: number | string };
    first_name: string;
    last_name: string;
    ssn: string;
    phone: string;
    social_media_url: string;
  };
}

/**
 * Each form field and where the spec's body has it (`payoutRequest.` and this path): the spec's
 * body is moved into the form's shape along these, and a refused value named back along them.
 */
const SPEC_FIELDS = {
  social_profile: 'social_media_url',
  first_name: 'first_name',
  last_name: 'last_name',
  phone: 'phone',
  street_address_1: 'address.line1',
  address_unit: 'address.line2',
  city: 'address.city',
  state: 'address.state',
  zipcode: 'address.zipcode',
  dob_day: 'dob.day',
  dob_month: 'dob.month',
  dob_year: 'dob.year',
  tax_id: 'ssn',
} as const;
/** The spec body's keys, by object: any other is refused as unknown, as the form's are. */
const SPEC_KEYS: Record<string, readonly string[]> = {
  '': ['refresh_token', 'tos_accepted', 'payoutRequest'],
  payoutRequest: ['address', 'dob', 'first_name', 'last_name', 'ssn', 'phone', 'social_media_url'],
  'payoutRequest.address': ['line1', 'line2', 'city', 'state', 'postal_code', 'zipcode', 'country'],
  'payoutRequest.dob': ['day', 'month', 'year'],
};

/**
 * The body /api/createPayoutAccount takes: the app's form (`payoutAccountRequest`), or the spec's
 * `payoutRequest` (`SpecPayoutAccountBody`), both checked by the form's rules and answered in the
 * form's shape, so the handler sees one shape. A body with `payoutRequest` is read as the spec's;
 * its refused values are named at their place in it (`payoutRequest.dob.year`).
 */
export function createPayoutAccountBody(today: () => Date = () => new Date()) {
  const form = payoutAccountRequest(today);
  type Form = z.output<typeof form>;
  const checked = z.pipe(
    z.unknown(),
    z.transform((body: unknown, context): Form => {
      const isSpec = typeof body === 'object' && body !== null && 'payoutRequest' in body;
      const issues: { path: PropertyKey[]; message: string }[] = [];
      let input = body;
      if (isSpec) {
        const objectAt = (path: string): Record<string, unknown> => {
          const value = path
            .split('.')
            .reduce<unknown>((at, key) => (key ? (at as Record<string, unknown>)?.[key] : at), body);
          return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
        };
        for (const [path, keys] of Object.entries(SPEC_KEYS)) {
          for (const key of Object.keys(objectAt(path)))
            if (!keys.includes(key))
              issues.push({ path: [...path.split('.').filter(Boolean), key], message: 'Unknown field: remove it.' });
        }
        const spec = objectAt('payoutRequest');
        const { postal_code: postal, zipcode, country } = objectAt('payoutRequest.address');
        if (postal !== undefined && zipcode !== undefined && postal !== zipcode)
          issues.push({
            path: ['payoutRequest', 'address', 'zipcode'],
            message: 'postal_code and zipcode differ: send one',
          });
        if (country !== undefined && String(country).trim().toUpperCase() !== 'US')
          issues.push({ path: ['payoutRequest', 'address', 'country'], message: 'Payout accounts are US only' });
        const moved: Record<string, unknown> = {
          tos_accepted: (body as { tos_accepted?: unknown }).tos_accepted ?? true,
        };
        for (const [field, path] of Object.entries(SPEC_FIELDS)) {
          const [outer, inner] = path.split('.') as [string, string | undefined];
          const value = inner === undefined ? spec[outer] : objectAt(`payoutRequest.${outer}`)[inner];
          // The date's parts may come as digits ("06"); the zip as either of the spec's two names.
          const given = field === 'zipcode' ? (value ?? postal) : value;
          if (given !== undefined)
            moved[field] =
              typeof given === 'string' && /^\s*\d+\s*$/.test(given) && field.startsWith('dob_')
                ? Number(given)
                : given;
        }
        if ('refresh_token' in body) moved.refresh_token = body.refresh_token;
        input = moved;
      }
      const result = form.safeParse(input);
      if (result.success && issues.length === 0) return result.data;
      for (const issue of result.error?.issues ?? []) {
        if (!isSpec) {
          context.issues.push({ ...issue, input: body } as z.core.$ZodRawIssue);
          continue;
        }
        const [field, ...rest] = issue.path;
        const at = typeof field === 'string' ? SPEC_FIELDS[field as keyof typeof SPEC_FIELDS] : undefined;
        issues.push({ ...issue, path: at ? ['payoutRequest', ...at.split('.'), ...rest] : issue.path });
      }
      for (const issue of issues) context.issues.push({ ...issue, code: 'custom', input: body });
      return z.NEVER;
    }),
  );
  // Typed with both inputs: the pipe's first stage takes any value and decides which it is.
  return checked as unknown as z.ZodMiniType<Form, z.input<typeof form> | SpecPayoutAccountBody>;
}

/** The request schema of /api/createPayoutAccount (shared/src/api/calls/create-payout-account.ts). */
export const CreatePayoutAccountBody = /* @__PURE__ */ createPayoutAccountBody();

export const PayoutAccountResponse = /* @__PURE__ */ pure(() => z.object({ user: UserProfile }));

/** A card token (`tok_…`) made in the browser, attached to the caller's own account `id`. */
export const AddPayoutMethodRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    id: Id,
    token: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  }),
);

export const PayoutCard = /* @__PURE__ */ pure(() =>
  z.object({
    brand: z.string(),
    exp_month: z.number().check(z.int()),
    exp_year: z.number().check(z.int()),
    last4: z.string(),
  }),
);
export type PayoutCard = z.infer<typeof PayoutCard>;

export const AddPayoutMethodResponse = /* @__PURE__ */ pure(() => z.object({ user: UserProfile, card: PayoutCard }));
export const ExternalAccountsRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id }));
export const ExternalAccounts = /* @__PURE__ */ pure(() => z.array(PayoutCard));

/** The webhook's answer to Stripe once an event is taken (or was already). */
export const WebhookReceived = /* @__PURE__ */ pure(() => z.object({ received: z.literal(true) }));
