import { pure } from './pure';
import * as z from './zod';
import { ShareCode } from './checkout';

export { VisitId } from './checkout';
import { Email, Id } from './schemas';

/**
 * Link statistics (issue 39, docs/link-statistics.md): a share page's visit counted without cookies
 * or personal data, and the counts by day that members and admins read. Days are UTC, `YYYY-MM-DD`.
 */

/** The days a chart covers: today and the 89 before it. */
export const STATS_DAYS = 90;

export const CountVisitRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    /** The product the share page shows. */
    id: Id,
    /** The share code of the link, when it has one. */
    ref: z.optional(ShareCode),
  }),
);

export const CountVisitResponse = /* @__PURE__ */ pure(() =>
  z.object({
    /** The visit's id, for the checkout to carry; null for a bot or link preview (not counted). */
    visitId: z.nullable(z.string()),
    /** Whether this request added a visit (false: a bot, or the same visitor on this link within the hour). */
    counted: z.boolean(),
  }),
);
export type CountVisitResponse = z.infer<typeof CountVisitResponse>;

/** Counts by day, oldest first, one number per day of `days` (columns, so 90 days stay small). */
export const DailyCounts = /* @__PURE__ */ pure(() =>
  z.object({
    visits: z.array(z.int()),
    /** Checkouts started: a visit's first payment intent. */
    checkouts: z.array(z.int()),
    sales: z.array(z.int()),
    /** What the customers paid, in integer cents. */
    salesCents: z.array(z.int()),
    /** The commissions the sales made, in integer cents. */
    earningsCents: z.array(z.int()),
    /** Sales that came through a counted visit (the funnel's last step). */
    paid: z.array(z.int()),
  }),
);
export type DailyCounts = z.infer<typeof DailyCounts>;

export const ProductCounts = /* @__PURE__ */ pure(() =>
  z.object({ productId: z.string(), name: z.string(), counts: DailyCounts }),
);
export type ProductCounts = z.infer<typeof ProductCounts>;

export const LinkStatistics = /* @__PURE__ */ pure(() =>
  z.object({
    /** The days the columns are for, oldest first (STATS_DAYS of them, ending today, UTC). */
    days: z.array(z.string()),
    /** Every product's counts together. */
    total: DailyCounts,
    /** Each product's own counts (a member's products; for the admin, those of the member chosen). */
    products: z.array(ProductCounts),
    /** What the admin's answer is about, in words ("All links", "Desk Lamp Pro", "dana@example.com"). */
    scope: z.string(),
  }),
);
export type LinkStatistics = z.infer<typeof LinkStatistics>;

export const MyLinkStatisticsRequest = /* @__PURE__ */ pure(() => z.strictObject({}));

export const AdminLinkStatisticsRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    /** One product's counts over every member's links. */
    productId: z.optional(Id),
    /** One member's counts, by their e-mail address (with each of their products). */
    memberEmail: z.optional(Email),
  }),
);
