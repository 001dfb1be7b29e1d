import { pure } from './pure';
import * as z from './zod';
import { US_STATES, UsPhone } from './payments';
import { Email, NewPassword, UserProfile } from './schemas';
import { DISPLAY_NAME_MAX, displayNameProblem, normaliseDisplayName } from './display-name';

export { DISPLAY_NAME_CONTROL, DISPLAY_NAME_MAX, DISPLAY_NAME_NO_EMAIL } from './display-name';

/**
 * A member's self-service (issue 28, "Members"): the profile they edit, the display name customers
 * see ("Recommended by Maya P."), a new e-mail address verified before it replaces the old one, a
 * new password, and a forgotten password reset by a single-use link.
 */

export const ADDRESS_INCOMPLETE = 'Give the whole address (street, city, state and ZIP code), or leave it all empty.';

/**
 * The name a customer sees on a member's shop page: the one they chose, else their first name and
 * the initial of their last ("Maya P."), else none. Never the e-mail address.
 */
export function displayNameOf(user: { display_name?: string; first_name: string; last_name: string }): string | null {
  // A name stored before the rules of ./display-name.ts (issue 35) is shown only if it keeps them.
  const chosen = normaliseDisplayName(user.display_name ?? '');
  if (chosen && !displayNameProblem(chosen)) return chosen;
  const first = user.first_name.trim();
  const initial = user.last_name.trim().charAt(0).toUpperCase();
  if (!first) return null;
  return initial ? `${first} ${initial}.` : first;
}

const optionalText = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const requiredText = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

/**
 * The display name as stored: NFKC and trimmed, then its rules (./display-name.ts) and its length,
 * all on that form. A refused character ends the checks: its sentence is the one that helps.
 */
const DisplayName = /* @__PURE__ */ pure(() =>
  z.string().check(
    z.overwrite(normaliseDisplayName),
    z.superRefine((value: string, context) => {
      const problem = displayNameProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem, input: value, continue: false });
    }),
    z.maxLength(DISPLAY_NAME_MAX),
  ),
);

/** Empty, or a 10-digit US phone number (kept as its digits). */
const OptionalPhone = /* @__PURE__ */ pure(() =>
  z.union([
    z.pipe(
      z.string().check(z.trim(), z.maxLength(0)),
      z.transform(() => ''),
    ),
    UsPhone,
  ]),
);

interface ProfileAddress {
  street_address_1: string;
  city: string;
  state: string;
  zipcode: string;
}

/**
 * The profile form: names required, phone and address optional (an address is all there or all
 * empty), the display name optional (empty: the default, first name and last initial).
 */
export const UpdateProfileRequest = /* @__PURE__ */ pure(() =>
  z
    .strictObject({
      first_name: requiredText(100),
      last_name: requiredText(100),
      display_name: z.optional(DisplayName),
      phone: OptionalPhone,
      street_address_1: optionalText(200),
      address_unit: z.optional(optionalText(100)),
      city: optionalText(100),
      state: z
        .pipe(
          optionalText(2),
          z.transform((value: string) => value.toUpperCase()),
        )
        .check(
          z.refine(
            (value: string) => value === '' || (US_STATES as readonly string[]).includes(value),
            'Choose a US state (2-letter code)',
          ),
        ),
      zipcode: optionalText(10).check(
        z.refine(
          (value: string) => value === '' || /^\d{5}(-\d{4})?$/.test(value),
          'Enter a 5-digit ZIP code (or ZIP+4)',
        ),
      ),
    })
    .check(
      z.superRefine((body: ProfileAddress, context) => {
        const parts = ['street_address_1', 'city', 'state', 'zipcode'] as const;
        const given = parts.filter((part) => body[part] !== '');
        if (given.length === 0 || given.length === parts.length) return;
        for (const part of parts) {
          if (body[part] === '') context.addIssue({ code: 'custom', path: [part], message: ADDRESS_INCOMPLETE });
        }
      }),
    ),
);
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequest>;

export const ProfileResponse = /* @__PURE__ */ pure(() => z.object({ userProfile: UserProfile }));

/** The current password, asked again before the e-mail address or the password changes. */
const CurrentPassword = /* @__PURE__ */ pure(() => z.string().check(z.minLength(1), z.maxLength(1024)));

export const ChangeEmailRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ email: Email, password: CurrentPassword }),
);
export type ChangeEmailRequest = z.input<typeof ChangeEmailRequest>;

export const ChangeEmailResponse = /* @__PURE__ */ pure(() =>
  z.object({
    /** Where the link went: the address becomes the login once the link is opened. */
    pendingEmail: z.string(),
    /** The login until then. */
    email: z.string(),
    nextAllowedInSeconds: z.number().check(z.int(), z.nonnegative()),
  }),
);

export const SAME_PASSWORD = 'Choose a password other than your current one.';

export const ChangePasswordRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ currentPassword: CurrentPassword, newPassword: NewPassword }).check(
    z.superRefine((body: { currentPassword: string; newPassword: string }, context) => {
      if (body.currentPassword === body.newPassword) {
        context.addIssue({ code: 'custom', path: ['newPassword'], message: SAME_PASSWORD });
      }
    }),
  ),
);
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const ChangePasswordResponse = /* @__PURE__ */ pure(() =>
  z.object({
    ok: z.literal(true),
    /** The account's other sessions (other browsers, devices) were ended; this one stays. */
    otherSessionsEnded: z.literal(true),
  }),
);

export const RequestPasswordResetRequest = /* @__PURE__ */ pure(() => z.strictObject({ email: Email }));
export type RequestPasswordResetRequest = z.input<typeof RequestPasswordResetRequest>;

/** The same answer whether or not the address has an account. */
export const RequestPasswordResetResponse = /* @__PURE__ */ pure(() =>
  z.object({ sent: z.literal(true), email: z.string(), validMinutes: z.number().check(z.int()) }),
);

/** The token of a reset link: 32 random bytes in base64url (43 characters). */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const INVALID_RESET_LINK =
  'This password reset link is not valid. Open the whole link from the e-mail, or ask for a new one.';
export const EXPIRED_RESET_LINK = 'This password reset link has expired (links work for one hour). Ask for a new one.';
export const USED_RESET_LINK = 'This password reset link was used already. Log in, or ask for a new link.';
/** A link mailed before the account's password or e-mail address changed: every such link stops working. */
export const SUPERSEDED_RESET_LINK =
  "This password reset link no longer works: the account's password or e-mail address was changed after it was sent. Ask for a new link if you still need one.";

export const ResetPasswordRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    token: z.string({ error: INVALID_RESET_LINK }).check(z.regex(RESET_TOKEN_PATTERN, INVALID_RESET_LINK)),
    password: NewPassword,
  }),
);
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;

/** POST /api/checkResetLink: whether a reset link can still be used, before the form is shown. */
export const CheckResetLinkRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    token: z.string({ error: INVALID_RESET_LINK }).check(z.regex(RESET_TOKEN_PATTERN, INVALID_RESET_LINK)),
  }),
);
export const CheckResetLinkResponse = /* @__PURE__ */ pure(() => z.object({ ok: z.literal(true) }));

export const ResetPasswordResponse = /* @__PURE__ */ pure(() => z.object({ ok: z.literal(true), email: z.string() }));

/** The password may not be the e-mail address or the part before its @ (the sign-up's rule). */
export function isPasswordTheEmail(password: string, email: string): boolean {
  const chosen = password.trim().toLowerCase();
  const address = email.toLowerCase();
  return chosen === address || chosen === address.slice(0, address.lastIndexOf('@'));
}
