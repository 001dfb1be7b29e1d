import * as z from 'zod/mini';

/**
 * The money rules' settings, read in this one place. Each is an environment variable the stack sets
 * (from CDK context) and `npm start` sets from its own environment; a malformed value stops the
 * function with its name and what it accepts, as `env()` does.
 *
 * - `COMMISSION_HOLD_DAYS` (0–90, default 14): a commission stays on hold for this many days after
 *   its order is fulfilled (the refund window), then it is available to send. 0: available at once.
 * - `PAYOUT_MINIMUM_CENTS` (default 1000, $10): the available balance (after clawbacks) from which
 *   the daily job pays a member and a member may ask for a withdrawal.
 * - `INSTANT_FEE_PAID_BY` (`member` | `platform`, default `member`): who pays Stripe's instant
 *   payout fee when a member withdraws to a card that allows instant payouts.
 * - `SELF_PURCHASE` (`no_commission` | `review`, default `review`): a member buying through their
 *   own share link earns nothing, or the commission is held for an admin's review.
 */
const whole = (min: number, max: number) =>
  z
    .pipe(
      z.string().check(z.regex(/^\d+$/, 'a whole number')),
      z.transform((value) => Number(value)),
    )
    .check(z.gte(min), z.lte(max));

const Settings = z.object({
  COMMISSION_HOLD_DAYS: z._default(whole(0, 90), 14),
  PAYOUT_MINIMUM_CENTS: z._default(whole(100, 10_000_000), 1000),
  INSTANT_FEE_PAID_BY: z._default(z.enum(['member', 'platform']), 'member'),
  SELF_PURCHASE: z._default(z.enum(['no_commission', 'review']), 'review'),
});
export type MoneySettings = z.infer<typeof Settings>;

const ACCEPTS: Record<keyof MoneySettings, string> = {
  COMMISSION_HOLD_DAYS: 'a whole number of days from 0 to 90',
  PAYOUT_MINIMUM_CENTS: 'a whole number of cents from 100 to 10000000',
  INSTANT_FEE_PAID_BY: '"member" or "platform"',
  SELF_PURCHASE: '"no_commission" or "review"',
};

/** Per environment object, as env() (config/env.ts): once per container in Lambda. */
const cached = new WeakMap<object, MoneySettings>();

/** The settings, parsed once per container; `source` is for tests. */
export function moneySettings(source: Record<string, string | undefined> = process.env): MoneySettings {
  const known = source === process.env ? cached.get(source) : undefined;
  if (known) return known;
  const picked = Object.fromEntries(
    Object.keys(ACCEPTS).map((name) => [name, source[name] === '' ? undefined : source[name]]),
  );
  const parsed = Settings.safeParse(picked);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))] as (keyof MoneySettings)[];
    throw new Error(`Setting out of range: ${names.map((name) => `${name} must be ${ACCEPTS[name]}`).join('; ')}`);
  }
  if (source === process.env) cached.set(source, parsed.data);
  return parsed.data;
}

/** The day count in milliseconds, for `availableAt = fulfilledAt + holdMs`. */
export const holdMs = (settings: MoneySettings): number => settings.COMMISSION_HOLD_DAYS * 24 * 3600 * 1000;
