import { pure } from './pure';
import * as z from './zod';

/** What the admin home reads: the day's work, each figure the size of the list it links to. */

const Count = /* @__PURE__ */ pure(() => z.int().check(z.gte(0)));

/** A count read by a bounded Query: `atLeast` when there are more than `count` (shown as "500+"). */
export const BoundedCount = /* @__PURE__ */ pure(() => z.object({ count: Count, atLeast: z.boolean() }));
export type BoundedCount = z.infer<typeof BoundedCount>;

export const AdminSummary = /* @__PURE__ */ pure(() =>
  z.object({
    orders: z.object({
      /** Not ordered from the supplier yet. */
      toOrder: Count,
      toShip: Count,
      toFulfil: Count,
    }),
    commissions: z.object({
      /** Can be sent to Stripe now: fulfilled, past its hold, not held for review. Amounts in dollars. */
      toSend: Count,
      toSendAmount: z.number(),
      /** In the member's Stripe balance, not paid out yet and not held for review (failed payouts included). */
      toPay: Count,
      toPayAmount: z.number(),
    }),
    /** Commissions to be paid whose last payout failed. */
    failedPayouts: BoundedCount,
    productsInReview: BoundedCount,
  }),
);
export type AdminSummary = z.infer<typeof AdminSummary>;
