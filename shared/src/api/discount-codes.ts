import { pure } from './pure';
import * as z from './zod';
import { Email } from './schemas';

/** A code as customers type it: letters, digits and dashes (Stripe's promotion code characters), 3 to 30. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9-]{3,30}$/;

/**
 * Members' discount codes (issue 39): a code ("DANA10") belongs to one member and is tied to a
 * Stripe promotion code under a coupon (percent or amount off). Money in integer US cents, as the
 * checkout's; times are ISO 8601 strings, expiry dates Unix seconds as Stripe keeps them.
 */

/** A code as typed: trimmed; letters, digits and dashes, 3 to 30. The server compares it in upper case. */
export const DiscountCodeText = /* @__PURE__ */ pure(() =>
  z
    .string()
    .check(
      z.trim(),
      z.regex(DISCOUNT_CODE_PATTERN, 'A discount code has 3 to 30 letters, digits or dashes (no spaces)'),
    ),
);

/** One code as the admin and its member see it. */
export const DiscountCode = /* @__PURE__ */ pure(() =>
  z.object({
    code: z.string(),
    memberId: z.string(),
    /** The member as the admin reads them (their e-mail); the member's own list leaves it empty. */
    memberEmail: z.string(),
    /** "10 % off", "$5.00 off". */
    discount: z.string(),
    percentOff: z.nullable(z.number()),
    amountOffCents: z.nullable(z.int()),
    status: z.enum(['active', 'disabled', 'expired', 'used_up']),
    /** The status in words, for the person reading it. */
    statusWords: z.string(),
    /** Unix seconds, or null: no end. */
    expiresAt: z.nullable(z.int()),
    maxRedemptions: z.nullable(z.int()),
    /** Checkouts that took the code (counted when the checkout's payment is made ready, decision 0430). */
    redeemed: z.int(),
    /** Paid orders with the code, and what they brought (after the discount and their refunds). */
    uses: z.int(),
    revenueCents: z.int(),
    couponId: z.string(),
    promotionCodeId: z.string(),
    createdAt: z.string(),
  }),
);
export type DiscountCode = z.infer<typeof DiscountCode>;

/** One paid order that used a code. */
export const DiscountCodeOrder = /* @__PURE__ */ pure(() =>
  z.object({
    orderId: z.string(),
    orderID: z.string(),
    createdAt: z.string(),
    /** What the customer paid, after the discount. */
    paidCents: z.int(),
    discountCents: z.int(),
    refundedCents: z.int(),
  }),
);
export type DiscountCodeOrder = z.infer<typeof DiscountCodeOrder>;

export const AdminDiscountCode = /* @__PURE__ */ pure(() =>
  z.object({ ...DiscountCode.shape, orders: z.array(DiscountCodeOrder) }),
);
export type AdminDiscountCode = z.infer<typeof AdminDiscountCode>;

export const DiscountCodeList = /* @__PURE__ */ pure(() => z.object({ items: z.array(AdminDiscountCode) }));
export const MyDiscountCodeList = /* @__PURE__ */ pure(() => z.object({ items: z.array(DiscountCode) }));

/**
 * The admin makes a code for a member: under a coupon made now (`percentOff` or `amountOffCents`)
 * or an existing one (`couponId`); optional expiry and number of uses. Without `code`, one is made
 * from the member's display name and the discount ("DANA10").
 */
export const CreateDiscountCodeRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    memberEmail: Email,
    code: z.optional(DiscountCodeText),
    couponId: z.optional(
      z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_]{1,64}$/, 'A coupon id has letters, digits and _')),
    ),
    percentOff: z.optional(
      z.number().check(z.gt(0, 'The percentage off must be above 0'), z.lte(100, 'The percentage off is at most 100')),
    ),
    amountOffCents: z.optional(
      z
        .number()
        .check(z.int('The amount off is a whole number of cents'), z.gte(1, 'The amount off must be at least $0.01')),
    ),
    /** Unix seconds. */
    expiresAt: z.optional(z.number().check(z.int('The expiry is a whole number of seconds'))),
    maxRedemptions: z.optional(
      z.number().check(z.int('The number of uses is a whole number'), z.gte(1, 'A code can be used at least once')),
    ),
  }),
);
export type CreateDiscountCodeRequest = z.input<typeof CreateDiscountCodeRequest>;

/** A call that takes nothing. */
export const EmptyRequest = /* @__PURE__ */ pure(() => z.strictObject({}));

export const DiscountCodeRequest = /* @__PURE__ */ pure(() => z.strictObject({ code: DiscountCodeText }));

export const DiscountCodeResult = /* @__PURE__ */ pure(() => z.object({ code: DiscountCode }));
