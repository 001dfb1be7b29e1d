import { pure } from './pure';
import * as z from './zod';

/**
 * /api/verifyEmail: one call that sends a verification link and verifies one (spec section 7).
 *
 * - `{}` or `{ action: 'send' }` sends (or sends again) a link to the caller's own e-mail address;
 *   it needs a session (a bearer access token), and is rate-limited.
 * - `{ token }` (with `action: 'verify'` or without) verifies the address the link was sent to.
 *   It needs no session: the link may be opened in another browser or on a phone; holding the
 *   token proves the mailbox, which is all the call decides.
 *
 * The call is therefore public in the contract; the handler asks for a session for `send`.
 */

/** The token of a link: 32 random bytes in base64url (43 characters, no padding). */
export const VERIFICATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const INVALID_VERIFICATION_LINK =
  'This verification link is not valid. Open the whole link from the e-mail, or ask for a new one from My Profile.';
export const EXPIRED_VERIFICATION_LINK = 'This link has expired — ask for a new one from My Profile.';
export const USED_VERIFICATION_LINK = 'This link has already been used. Your e-mail address was verified with it.';
/** A link mailed before the account's password or e-mail address changed: every such link stops working. */
export const SUPERSEDED_VERIFICATION_LINK =
  'This link no longer works: the password or e-mail address of the account was changed after it was sent. Ask for a new one from My Profile.';

const VerifyEmailBody = /* @__PURE__ */ pure(() =>
  z.strictObject({
    action: z.optional(z.enum(['send', 'verify'], { error: "action must be 'send' or 'verify'" })),
    token: z.optional(
      z
        .string({ error: INVALID_VERIFICATION_LINK })
        .check(z.regex(VERIFICATION_TOKEN_PATTERN, INVALID_VERIFICATION_LINK)),
    ),
  }),
);

export const VerifyEmailRequest = /* @__PURE__ */ pure(() =>
  z.pipe(
    VerifyEmailBody.check(
      z.superRefine(({ action, token }: z.output<typeof VerifyEmailBody>, context) => {
        if (action === 'verify' && token === undefined) {
          context.addIssue({ code: 'custom', path: ['token'], message: INVALID_VERIFICATION_LINK });
        }
        if (action === 'send' && token !== undefined) {
          context.addIssue({ code: 'custom', path: ['token'], message: 'Send no token to ask for a new link.' });
        }
      }),
    ),
    z.transform(({ token }: z.output<typeof VerifyEmailBody>) =>
      token === undefined ? ({ action: 'send' } as const) : ({ action: 'verify', token } as const),
    ),
  ),
);
export type VerifyEmailRequest = z.input<typeof VerifyEmailRequest>;

export const VerifyEmailResponse = /* @__PURE__ */ pure(() =>
  z.union([
    z.object({
      sent: z.literal(true),
      /** Where the link went. */
      email: z.string(),
      /** When the next link may be asked for. */
      nextAllowedInSeconds: z.number().check(z.int(), z.nonnegative()),
    }),
    z.object({
      verified: z.literal(true),
      /** The address now verified (no profile: the call is public, and the holder of a link may not be the one logged in). */
      email: z.string(),
    }),
  ]),
);
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;
