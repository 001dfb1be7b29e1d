import { pure } from './pure';
import * as z from './zod';
import { Id } from './schemas';
import { ListRequest } from './sales';

/**
 * Fewer, larger money movements (issue 27): an admin's "Send all available" and "Pay all" (one
 * member or everyone), the daily payouts, and a member's withdrawal. Each member's part of a batch
 * is one transfer and one payout; money here is two-decimal US dollars (the API edge).
 */

const Dollars = /* @__PURE__ */ pure(() => z.number());

/**
 * The request's own id, made by the app when the confirmation opens: a retry of the same request
 * (a lost answer, a crash between Stripe and the table) continues the same batch with the same
 * Stripe keys; a new confirmation is a new batch.
 */
export const RequestId = /* @__PURE__ */ pure(() =>
  z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9-]{8,64}$/, 'The request id must be 8 to 64 letters, digits or dashes: reload the page.'),
    ),
);

export const BatchStep = /* @__PURE__ */ pure(() =>
  z.enum(['send', 'pay'], { error: 'Choose "send" (to the Stripe balances) or "pay" (to the debit cards).' }),
);

/** Admin: one member's available commissions (`memberId`), or everyone's. */
export const RunPayoutBatchRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({ step: BatchStep, memberId: z.optional(Id), requestId: RequestId }),
);

/**
 * Where one member's part of a batch stands: `empty` (nothing it could take), `busy` (another
 * payout of theirs is running), `below_minimum`, `sent` (in their Stripe balance), `paid` (paid out
 * to their card), `settled` (all netted against their clawback debt, no money moved), `waiting`
 * (transferred; the payout waits for funds, retried by the next run), `refused` (Stripe refused the
 * transfer: nothing moved, the commissions are free again).
 */
export const BatchState = /* @__PURE__ */ pure(() =>
  z.enum(['empty', 'busy', 'below_minimum', 'sent', 'paid', 'settled', 'waiting', 'refused']),
);

export const BatchOutcome = /* @__PURE__ */ pure(() =>
  z.object({
    memberId: z.string(),
    memberEmail: z.string(),
    batchId: z.string(),
    state: BatchState,
    commissionCount: z.number().check(z.int()),
    /** The commissions' whole amount. */
    amount: Dollars,
    /** What was netted against the member's clawback debt. */
    netted: Dollars,
    /** The transfer to the member's Stripe balance (0: none). */
    transfer: Dollars,
    /** The payout to the member's card (0: none). */
    payout: Dollars,
    /** Stripe's instant payout fee (withdrawals to a card that takes instant payouts). */
    fee: Dollars,
    method: z.nullable(z.enum(['instant', 'standard'])),
    /** Its transfers: one per card sale's charge, one for orders entered by hand (decision 0280). */
    transferIds: z.array(z.string()),
    payoutId: z.nullable(z.string()),
    /** In words, for the person who asked. */
    message: z.string(),
  }),
);
export type BatchOutcome = z.infer<typeof BatchOutcome>;

export const RunPayoutBatchResponse = /* @__PURE__ */ pure(() =>
  z.object({
    outcomes: z.array(BatchOutcome),
    /** Members not reached before the call's time ran out: run it again for them. */
    remaining: z.number().check(z.int()),
    message: z.string(),
  }),
);

/** Member: what "Withdraw" would pay now, for the confirmation. */
export const WithdrawalQuoteRequest = /* @__PURE__ */ pure(() => z.strictObject({}));
export const WithdrawalQuote = /* @__PURE__ */ pure(() =>
  z.object({
    /** The available balance after clawbacks. */
    available: Dollars,
    minimum: Dollars,
    canWithdraw: z.boolean(),
    /** Why not, in words (null when the member can withdraw). */
    reason: z.nullable(z.string()),
    method: z.nullable(z.enum(['instant', 'standard'])),
    fee: Dollars,
    feePaidBy: z.enum(['member', 'platform']),
    /** What reaches the card. */
    receive: Dollars,
    card: z.nullable(z.object({ last4: z.string(), brand: z.string() })),
    /** In words, when the card takes instant payouts but this one goes standard ("Instant payouts are not available (…); paid by standard payout, no fee."). */
    note: z.optional(z.nullable(z.string())),
    /** What Stripe still holds as pending, by the day it becomes available (ISO; null: Stripe gives none). */
    pending: z.array(z.object({ amount: Dollars, availableOn: z.nullable(z.string()) })),
    /** The clawback debt the member owes (refunds of orders already paid), taken from the next payouts. */
    owed: Dollars,
    /** What of that debt this withdrawal would take (the `available` figure is after it). */
    owedNetted: z.optional(Dollars),
    /** The last payout that failed, while its money waits to be paid again: amount, why in words, when. */
    failedPayout: z.nullable(z.object({ amount: Dollars, reason: z.string(), at: z.nullable(z.string()) })),
  }),
);
export type WithdrawalQuote = z.infer<typeof WithdrawalQuote>;

/** Member: withdraw the available balance, as the confirmation showed it (`receive` and `fee`). */
export const WithdrawRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    requestId: RequestId,
    receive: z.number().check(z.gte(0)),
    fee: z.number().check(z.gte(0)),
  }),
);
export const WithdrawResponse = /* @__PURE__ */ pure(() => z.object({ outcome: BatchOutcome }));

/** Admin: the debit card a member's payouts go to, for a money action's confirmation. */
export const MemberPayoutCardRequest = /* @__PURE__ */ pure(() => z.strictObject({ memberId: Id }));
export const MemberPayoutCard = /* @__PURE__ */ pure(() =>
  z.object({
    memberId: z.string(),
    /** The member's default debit card for USD payouts; null when they have none at Stripe. */
    card: z.nullable(z.object({ last4: z.string(), brand: z.string(), instant: z.boolean() })),
  }),
);
export type MemberPayoutCard = z.infer<typeof MemberPayoutCard>;

/** Admin: the members who still owe the platform after clawbacks (refunds of sales already paid out). */
export const MemberDebtsRequest = ListRequest;
export const MemberDebt = /* @__PURE__ */ pure(() =>
  z.object({
    member: z.object({ id: z.string(), email: z.string() }),
    /** What the member still owes: taken from their next payouts before anything is paid. */
    owed: Dollars,
  }),
);
export type MemberDebt = z.infer<typeof MemberDebt>;
export const MemberDebtPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(MemberDebt), nextCursor: z.nullable(z.string()) }),
);
export type MemberDebtPage = z.infer<typeof MemberDebtPage>;
