import { pure } from './pure';
import * as z from './zod';

/**
 * Zod schemas shared by the handlers (runtime validation) and the apps (types and form checks),
 * written with `zod/mini` (./zod.ts). Every request schema is strict: an unknown field is a 400,
 * never silently ignored.
 */

/**
 * The message of a missing or blank required value is the field's own ("The password is
 * required."), as is every other message a schema does not name: ./messages.ts (issue 35).
 */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

/** Trimmed and lower-cased so that "Ann@Example.com " and "ann@example.com" are one account. */
export const Email = /* @__PURE__ */ pure(() =>
  z.pipe(
    z.pipe(z.string().check(z.trim(), z.minLength(1), z.maxLength(254)), z.email()),
    z.transform((value: string) => value.toLowerCase()),
  ),
);

export const Password = /* @__PURE__ */ pure(() =>
  z.string().check(z.minLength(1), z.minLength(MIN_PASSWORD), z.maxLength(MAX_PASSWORD)),
);

export const Id = /* @__PURE__ */ pure(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(200)));

export const Flag = /* @__PURE__ */ pure(() => z.union([z.literal(0), z.literal(1)]));

export const UserProfile = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string(),
    street_address_1: z.string(),
    address_unit: z.string(),
    city: z.string(),
    state: z.string(),
    zipcode: z.string(),
    isEmailVerified: z.boolean(),
    isAccountCreated: Flag,
    isPayoutMethodAdded: Flag,
    stripeID: z.nullable(z.string()),
    isAdmin: z.boolean(),
    /** The member's share code, stable for life, carried in their share links (null until given one). */
    shareCode: z.nullable(z.string()),
    /** The name the member chose for customers to see ("Recommended by …"); empty or absent: the default. */
    display_name: z.optional(z.string()),
    /** What Stripe last said of the payout account (absent before one is made): verifying, or what it needs. */
    payoutAccount: z.optional(
      z.object({
        transfers: z.string(),
        payoutsEnabled: z.boolean(),
        requirementsDue: z.array(z.string()),
        pendingVerification: z.optional(z.array(z.string())),
        errors: z.optional(z.array(z.object({ requirement: z.string(), code: z.string(), reason: z.string() }))),
      }),
    ),
    /** The member's optional mails ("you made a sale", "your payout is on its way"): both on unless turned off. */
    mailPreferences: z.optional(z.object({ saleMails: z.boolean(), payoutMails: z.boolean() })),
  }),
);
export type UserProfile = z.infer<typeof UserProfile>;

export const Credentials = /* @__PURE__ */ pure(() => z.strictObject({ email: Email, password: Password }));
export type Credentials = z.input<typeof Credentials>;

export const PASSWORD_IS_BLANK = "Your password can't be only spaces.";
export const PASSWORD_IS_EMAIL = "Your password can't be your e-mail address.";
/** Said by the server only: the list of leaked passwords is too big for the apps (functions/src/auth/common-passwords.ts). */
export const PASSWORD_IS_COMMON =
  'This password is too common: it appears in lists of leaked passwords. Choose another.';

/** A password chosen at sign-up: the length rules, and more than white space. */
export const NewPassword = /* @__PURE__ */ pure(() =>
  Password.check(z.refine((value: string) => value.trim() !== '', PASSWORD_IS_BLANK)),
);

/**
 * The sign-up body, for the server and the sign-up form alike: the password may not be the
 * e-mail address or the part before its @ (ignoring case and surrounding spaces). Whether it is
 * a leaked password the server checks; the form shows its answer at the password field.
 */
export const SignupRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ email: Email, password: NewPassword }).check(
    z.superRefine(({ email, password }: { email: string; password: string }, context) => {
      const chosen = password.trim().toLowerCase();
      if (chosen === email || chosen === email.slice(0, email.lastIndexOf('@'))) {
        context.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_IS_EMAIL });
      }
    }),
  ),
);

/** Login asks only that a password is present: its length rules are for choosing one at sign-up. */
export const LoginRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    email: Email,
    password: z.string().check(z.minLength(1), z.maxLength(1024)),
  }),
);

export const AuthResponse = /* @__PURE__ */ pure(() =>
  z.object({
    loginValid: z.boolean(),
    isLoggedIn: z.boolean(),
    isAdmin: z.boolean(),
    userProfile: UserProfile,
    refresh_token: z.string(),
    access_token: z.string(),
    /** Seconds until the access token expires. */
    expires_in: z.number(),
  }),
);
export type AuthResponse = z.infer<typeof AuthResponse>;

/** checkAuth's answer to a visitor with no refresh token at all: logged out, without an error status. */
export const LoggedOutResponse = /* @__PURE__ */ pure(() =>
  z.object({ loginValid: z.literal(false), isLoggedIn: z.literal(false) }),
);
export type LoggedOutResponse = z.infer<typeof LoggedOutResponse>;

/** The web apps send no token in the body and rely on the HttpOnly cookie; other clients may send it. */
export const CheckAuthRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ refresh_token: z.optional(z.string().check(z.maxLength(512))) }),
);
export const LogoutRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ refresh_token: z.optional(z.string().check(z.maxLength(512))) }),
);
export const OkResponse = /* @__PURE__ */ pure(() => z.object({ ok: z.literal(true) }));

export const ErrorBody = /* @__PURE__ */ pure(() =>
  z.object({
    message: z.string(),
    /** Field path -> message, for 400s caused by a request body. */
    fields: z.optional(z.record(z.string(), z.string())),
    correlationId: z.optional(z.string()),
    /** A failed login (401) says `loginValid: false`, as the spec's answer does (spec section 8), besides its message. */
    loginValid: z.optional(z.literal(false)),
  }),
);
export type ErrorBody = z.infer<typeof ErrorBody>;

export const IdRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id }));
export const EmptyRequest = /* @__PURE__ */ pure(() => z.strictObject({}));
