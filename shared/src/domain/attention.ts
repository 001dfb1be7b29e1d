import type { UserProfile } from '../api/schemas';

/**
 * Why the red badge shows (spec section 2): each missing step of the payout set-up, in the words
 * the badges show and say. The order is the order the steps are done in.
 */
export const ATTENTION_REASONS = {
  /** isAccountCreated is 0: no payout (Stripe Connect) account yet. */
  account: 'Create your payout account',
  /** isPayoutMethodAdded is 0: no debit card to pay commissions to. */
  method: 'Add a debit card',
} as const;

export type AttentionReason = (typeof ATTENTION_REASONS)[keyof typeof ATTENTION_REASONS];

/**
 * The steps still to do for this profile; none for a profile that is set up, or no profile. An
 * administrator is asked only after choosing to sell, which creating the payout account on My
 * Account is: until then no badge, banner or drawer box asks them (issue 34).
 */
export function attentionReasons(
  profile: (Pick<UserProfile, 'isAccountCreated' | 'isPayoutMethodAdded'> & { isAdmin?: boolean }) | null | undefined,
): AttentionReason[] {
  if (!profile) return [];
  if (profile.isAdmin && !profile.isAccountCreated) return [];
  const reasons: AttentionReason[] = [];
  if (!profile.isAccountCreated) reasons.push(ATTENTION_REASONS.account);
  if (!profile.isPayoutMethodAdded) reasons.push(ATTENTION_REASONS.method);
  return reasons;
}

/** 'Action needed: Create your payout account. Add a debit card.' — for accessible names and tooltips. */
export function attentionSummary(reasons: readonly string[]): string {
  return reasons.length ? `Action needed: ${reasons.map((reason) => `${reason}.`).join(' ')}` : '';
}
