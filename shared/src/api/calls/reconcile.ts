import type { Call } from '../call';
import { pure } from '../pure';
import * as z from '../zod';
import { RECONCILE_MAX_DAYS, dayStart, periodDays } from '../reconcile-period';

/**
 * POST /api/reconcile (admin): compares our ledger with Stripe's over a period of whole UTC days,
 * `from` to `to` inclusive (issue 27, "Reconciliation"): charges, refunds, transfers and their
 * reversals, and the payouts of the members' connected accounts. Every difference comes in words,
 * naming the objects on both sides. docs/decisions/0210-reconciliation-by-keys.md.
 */

export { RECONCILE_MAX_DAYS };

const DATE_MESSAGE = 'Enter a date as YYYY-MM-DD, for example 2026-11-01.';

const Day = /* @__PURE__ */ pure(() =>
  z.string().check(
    z.minLength(1),
    z.refine((value) => !Number.isNaN(dayStart(value)), DATE_MESSAGE),
  ),
);

export const ReconcileRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ from: Day, to: Day }).check(
    z.superRefine((period, context) => {
      if (Number.isNaN(dayStart(period.from)) || Number.isNaN(dayStart(period.to))) return;
      if (dayStart(period.from) > dayStart(period.to)) {
        context.issues.push({
          code: 'custom',
          path: ['to'],
          input: period.to,
          message: `The period ends before it starts: choose an end on or after ${period.from}.`,
        });
      } else if (periodDays(period.from, period.to) > RECONCILE_MAX_DAYS) {
        context.issues.push({
          code: 'custom',
          path: ['to'],
          input: period.to,
          message: `A period is at most ${RECONCILE_MAX_DAYS} days; this one is ${periodDays(period.from, period.to)}. Choose a closer end date or run it in parts.`,
        });
      }
    }),
  ),
);

/** What a difference is about at Stripe. */
export const ReconcileSubject = /* @__PURE__ */ pure(() =>
  z.enum(['charge', 'refund', 'transfer', 'reversal', 'payout']),
);

/**
 * `missing_in_ledger`: at Stripe, not in our ledger; `missing_in_stripe`: in our ledger, not at
 * Stripe; `amount`: both, different amounts; `status`: both, different states (paid / failed).
 */
export const DifferenceKind = /* @__PURE__ */ pure(() =>
  z.enum(['missing_in_ledger', 'missing_in_stripe', 'amount', 'status']),
);

export const Difference = /* @__PURE__ */ pure(() =>
  z.object({
    kind: DifferenceKind,
    subject: ReconcileSubject,
    /** The difference in words, naming both sides' objects. */
    text: z.string(),
    /** Stripe's ids (ch_, re_, tr_, trr_, po_, acct_). */
    stripeIds: z.array(z.string()),
    /** Ours: order numbers (RP-…), commission ids, batch ids. */
    ledgerIds: z.array(z.string()),
  }),
);

const Count = /* @__PURE__ */ pure(() => z.number().check(z.int()));

export const ReconcileResult = /* @__PURE__ */ pure(() =>
  z.object({
    from: z.string(),
    to: z.string(),
    /** What was compared: Stripe's objects of the period (and those our records named), our orders of the period and the records they lead to. */
    checked: z.object({
      charges: Count,
      refunds: Count,
      transfers: Count,
      reversals: Count,
      payouts: Count,
      accounts: Count,
      orders: Count,
      commissions: Count,
    }),
    differences: z.array(Difference),
  }),
);

export const reconcile = {
  name: 'reconcile',
  path: '/api/reconcile',
  role: 'admin',
  body: 'json',
  request: ReconcileRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const reconcileResponse = ReconcileResult;
