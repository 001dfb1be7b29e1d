/**
 * Instant Payouts for Connect as Stripe prices and limits them (docs.stripe.com/connect/instant-payouts,
 * "Pricing" and "Eligibility and daily volume limits"):
 *
 * - Stripe charges the **platform** 1 % of every Instant Payout to a connected account, "assessed
 *   as part of your overall Connect fees": the connected account's balance gives the payout's
 *   amount only, the platform's balance the fee;
 * - each Instant Payout is at least 0.50 USD and at most 9,999 USD (a payout's bounds, not a fee floor);
 * - the platform needs Instant Payouts enabled, and has "a maximum amount it can pay out instantly
 *   per day across all connected accounts", reset at midnight US Central Time.
 */

/** 1 % of the payout, billed to the platform. */
export const INSTANT_PAYOUT_FEE_PERCENT = 1;
/** The US bounds of one Instant Payout, in cents. */
export const INSTANT_PAYOUT_MINIMUM_CENTS = 50;
export const INSTANT_PAYOUT_MAXIMUM_CENTS = 999_900;
/**
 * The emulator's daily Instant Payouts volume of a platform when a test sets none: Stripe sets
 * each platform's own and does not publish it (decision 0270).
 */
export const DEFAULT_INSTANT_DAILY_LIMIT_CENTS = 1_000_000;

export const instantPayoutFee = (amountCents: number): number =>
  Math.round((amountCents * INSTANT_PAYOUT_FEE_PERCENT) / 100);

/** The US Central calendar day (YYYY-MM-DD) of a Unix time: where Stripe's daily limit resets. */
export const centralDay = (unixSeconds: number): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(unixSeconds * 1000));

/**
 * Whether Stripe lets the platform make Instant Payouts, and its daily volume: a test control
 * (as `StripeFaults`), changeable while the emulator runs. `eligible = false` is a platform Stripe
 * has not enabled: every instant payout is refused with `instant_payouts_config_disabled`.
 */
export class InstantPayoutsControl {
  eligible: boolean;
  dailyLimitCents: number;

  constructor(options: { eligible?: boolean; dailyLimitCents?: number } = {}) {
    this.eligible = options.eligible ?? true;
    this.dailyLimitCents = options.dailyLimitCents ?? DEFAULT_INSTANT_DAILY_LIMIT_CENTS;
  }
}
