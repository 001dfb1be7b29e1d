import { pure } from './pure';
import * as z from './zod';
import { Customer } from './customer';
import { Id } from './schemas';
import { DiscountCodeText } from './discount-codes';

/**
 * The customer's checkout (the public product page of the sales issue): the payment intent a
 * card payment is taken through. Amounts are integer US cents; the server computes the price
 * from the approved product and refuses an `amount` that differs from it.
 */

export const MIN_QTY = 1;
export const MAX_QTY = 99;
/** Stripe's largest USD charge: $999,999.99. */
export const MAX_CHARGE_CENTS = 99_999_999;

/** A member's share code as links carry it (issue 15 defines how it is made); bounded, URL-safe. */
export const ShareCode = /* @__PURE__ */ pure(() =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(64),
      z.regex(/^[A-Za-z0-9_-]+$/, 'A share code has letters, digits, - and _ only'),
    ),
);

/**
 * One checkout form's random id (a UUID the page makes when it opens): the same checkout asked
 * twice (a double click, a retry) answers the same payment intent.
 */
export const CheckoutId = /* @__PURE__ */ pure(() =>
  z.string().check(z.trim(), z.regex(/^[A-Za-z0-9-]{16,64}$/, 'A checkout id is 16 to 64 letters, digits or dashes')),
);

/** A counted visit's id (countVisit, issue 39): 32 lowercase hex, a salted hash that names no person. */
export const VisitId = /* @__PURE__ */ pure(() =>
  z.string().check(z.regex(/^[0-9a-f]{32}$/, 'A visit id is 32 hexadecimal characters')),
);

export const PaymentIntentRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    /** The approved product's id. */
    id: Id,
    /** What the page shows the customer, in integer cents: must equal the server's price × qty. */
    amount: z
      .number()
      .check(
        z.int('The amount is a whole number of cents'),
        z.gte(1, 'The amount must be positive'),
        z.lte(MAX_CHARGE_CENTS, 'The amount is more than one card payment can take ($999,999.99)'),
      ),
    qty: z._default(
      z
        .number()
        .check(
          z.int(`Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
          z.gte(MIN_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
          z.lte(MAX_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
        ),
      MIN_QTY,
    ),
    ref: z.optional(ShareCode),
    checkoutId: z.optional(CheckoutId),
    /**
     * The buyer from the checkout form: put on the intent (shipping, receipt e-mail, metadata) so
     * the `payment_intent.succeeded` webhook records the order with them. Optional: without it the
     * order takes what Stripe has of the buyer.
     */
    customer: z.optional(Customer),
    /**
     * A member's discount code (issue 39): the sale is that member's, and `amount` is the price
     * after the code's discount (checkDiscountCode shows it). An unusable code is a 400 in words.
     */
    code: z.optional(DiscountCodeText),
    /** The share page's counted visit (countVisit): the intent's metadata carries it to the sale. */
    visitId: z.optional(VisitId),
  }),
);
export type PaymentIntentRequest = z.input<typeof PaymentIntentRequest>;

export const PaymentIntentResponse = /* @__PURE__ */ pure(() =>
  z.object({
    /** For Stripe.js `confirmCardPayment` (or the emulator's card form). */
    clientSecret: z.string(),
    amount: z.int(),
    currency: z.literal('usd'),
  }),
);
export type PaymentIntentResponse = z.infer<typeof PaymentIntentResponse>;

/** Public: what a code takes off a product's price before paying (the share page's Apply). */
export const CheckDiscountCodeRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    id: Id,
    qty: z._default(
      z
        .number()
        .check(
          z.int(`Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
          z.gte(MIN_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
          z.lte(MAX_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
        ),
      MIN_QTY,
    ),
    code: DiscountCodeText,
  }),
);

export const CheckedDiscountCode = /* @__PURE__ */ pure(() =>
  z.object({
    code: z.string(),
    discount: z.string(),
    listCents: z.int(),
    discountCents: z.int(),
    /** What the customer pays: the checkout's `amount` with this code. */
    totalCents: z.int(),
  }),
);
export type CheckedDiscountCode = z.infer<typeof CheckedDiscountCode>;
