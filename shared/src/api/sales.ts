import { PRESENTED_COMMISSION_STATUSES } from './commission-statuses';
import { pure } from './pure';
import { REFUND_REASONS } from './refund-reasons';
import * as z from './zod';
import { CheckoutId, MAX_QTY, MIN_QTY, ShareCode } from './checkout';
import { Customer } from './customer';
import { Cursor, ProductDetail } from './products';
import { Email, Flag, Id } from './schemas';

/**
 * The sales loop's calls: share links, the customer's page, orders and commissions. Money here is
 * two-decimal US dollars as numbers (the API edge; storage and arithmetic are integer cents), and
 * every time is an ISO 8601 string the apps format with shared/src/domain/format.ts.
 */

const Dollars = /* @__PURE__ */ pure(() => z.number());
const IsoTime = /* @__PURE__ */ pure(() => z.string());

// ---------------------------------------------------------------------------------------------
// The customer’s page (the share link itself is the member app’s: web-member ShareLink.tsx)

/** Public: the product a share link shows. A banned or unknown product is a 404 "no longer available". */
export const SharedProductRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id, ref: z.optional(ShareCode) }));
export const SharedProduct = /* @__PURE__ */ pure(() =>
  z.object({
    product: ProductDetail,
    /** The sell price in integer cents: what one unit costs the customer (the checkout's `amount` is this × qty). */
    unitAmountCents: z.number().check(z.int()),
    /** Whether `ref` names a member; an unknown code still sells, with no commission (the page says nothing). */
    refKnown: z.boolean(),
    /** Who shared it, as customers see them ("Maya P.": the member's display name), never an e-mail; null when unknown. */
    recommendedBy: z.optional(z.nullable(z.string())),
  }),
);

// The buyer and their address live in ./customer (the checkout's request takes them too); re-exported here.
export { Customer, ShippingAddress } from './customer';

const Qty = /* @__PURE__ */ pure(() =>
  z
    .number()
    .check(
      z.int(`Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
      z.gte(MIN_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
      z.lte(MAX_QTY, `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`),
    ),
);

/**
 * After the card payment succeeds in the browser, the page reports it so the order shows at once;
 * the `payment_intent.succeeded` webhook records the same order (one order per payment, whoever
 * reports first). Public: the payment intent id is checked at Stripe, never trusted.
 */
export const ConfirmCheckoutRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    paymentIntentId: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  }),
);
export const ConfirmCheckoutResponse = /* @__PURE__ */ pure(() =>
  z.object({
    orderID: z.string(),
    qty: z.number().check(z.int()),
    totalPayed: Dollars,
  }),
);

export { CheckoutId };

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * The buyer as an order answers them: what the checkout form, the admin or Stripe gave. A field
 * none of them gave is '' (an admin's order without a buyer, a payment Stripe holds no address
 * for), so this is not the form's schema (./customer.ts), which requires every field.
 */
export const OrderCustomer = /* @__PURE__ */ pure(() =>
  z.object({
    name: z.string(),
    email: z.string(),
    address: z.object({
      line1: z.string(),
      line2: z.optional(z.string()),
      city: z.string(),
      state: z.string(),
      postal_code: z.string(),
    }),
  }),
);

export const Order = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    /** The order number people read and quote (e.g. 'RP-7F3K9Q2M'). */
    orderID: z.string(),
    qty: z.number().check(z.int()),
    product_id: z.string(),
    product_name: z.string(),
    brand: z.string(),
    /** The first product image, for the detail card's show/hide product toggle. */
    product_image: z.nullable(z.string()),
    spu_no: z.string(),
    /** The supplier's product page. */
    product_url: z.string(),
    /** The unit sell price the customer paid. */
    sell_price: Dollars,
    totalPayed: Dollars,
    customer: OrderCustomer,
    /** The member whose share code sold it, or null for a sale without a (known) code. */
    member: z.nullable(z.object({ id: z.string(), email: z.string() })),
    source: z.enum(['checkout', 'admin']),
    isOrdered: Flag,
    isShipped: Flag,
    isFufilled: Flag,
    created_at: IsoTime,
    /** The carrier and tracking number given when it was marked shipped (absent when none were). */
    shipment: z.optional(
      z.object({ carrier: z.string(), trackingNumber: z.string(), trackingUrl: z.nullable(z.string()) }),
    ),
    /** What was refunded of `totalPayed` so far (by an admin here, or in Stripe's dashboard). */
    refunded: Dollars,
    /** Of `refunded`, what Stripe still holds pending (the platform's balance does not cover it yet); 0 when none. */
    refundPending: z.optional(Dollars),
    /** none, partial (Partially refunded) or full (Refunded). */
    refundState: z.enum(['none', 'partial', 'full']),
    /** Whether the order was paid by card, so it can be refunded through Stripe. */
    refundable: z.boolean(),
    /** Flagged for the admin, in words ("Product was banned before payment"); absent when not. */
    flag: z.optional(z.string()),
    /** Each refund as applied, oldest first: an admin's or the dashboard's (`refund`), or a dispute lost (`dispute`). */
    refunds: z.array(z.object({ amount: Dollars, at: IsoTime, kind: z.enum(['refund', 'dispute']) })),
    /**
     * Refunds that failed at Stripe after they were applied (no longer in `refunds` nor `refunded`),
     * oldest first, once each: when the portal learnt it, why in words, and whether the order came
     * back into its work list (the refund had made it refunded in full).
     */
    failedRefunds: z.array(z.object({ amount: Dollars, at: IsoTime, reason: z.string(), backInList: z.boolean() })),
    /** The payment's dispute (the latest), or null: open until Stripe closes it, won or lost. */
    dispute: z.nullable(
      z.object({
        status: z.enum(['open', 'won', 'lost']),
        /** Stripe's reason in words ("the customer says the product was not received"). */
        reason: z.string(),
        amount: Dollars,
        openedAt: IsoTime,
        closedAt: z.nullable(IsoTime),
      }),
    ),
  }),
);
export type Order = z.infer<typeof Order>;

/** The lists of the admin's /orders screens: all, and those lacking each flag. */
export const OrderList = /* @__PURE__ */ pure(() => z.enum(['all', 'not_ordered', 'not_shipped', 'not_fulfilled']));
export type OrderList = z.infer<typeof OrderList>;

/** Counters kept in the same transactions as the orders they count (no scans). */
export const OrderCounters = /* @__PURE__ */ pure(() =>
  z.object({
    all: z.number().check(z.int()),
    notOrdered: z.number().check(z.int()),
    notShipped: z.number().check(z.int()),
    notFulfilled: z.number().check(z.int()),
  }),
);
export type OrderCounters = z.infer<typeof OrderCounters>;

/** One page of a list, newest first. `limit` defaults to 100. */
export const ListRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    cursor: z.optional(Cursor),
    limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(500))),
  }),
);
export type ListRequest = z.infer<typeof ListRequest>;

// ---------------------------------------------------------------------------------------------
// Searching the lists (the admin's All orders and All commissions). Each search reads an index:
// an order number is one lookup, a member's or a product's orders and commissions are their own
// index partitions, a status is its stage list (docs/decisions/0140).

/** An order number as people quote it: 'RP-' and 8 Crockford base32 characters, in either case. */
export const ORDER_NUMBER_FORMAT = 'Enter an order number as it is written, like RP-7F3K9Q2M.';
export const OrderNumber = /* @__PURE__ */ pure(() =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.minLength(1),
      z.refine((value: string) => /^RP-?[0-9A-Z]{8}$/i.test(value), ORDER_NUMBER_FORMAT),
    ),
    // Crockford base32 reads O as 0 and I, L as 1; the hyphen may be left out.
    z.transform((value: string) => `RP-${value.slice(-8).toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1')}`),
  ),
);

/** A product as an admin names it in a search: its SPU number or its 32-character id. */
export const PRODUCT_SEARCH_FORMAT = 'Enter the product’s SPU number (as in the catalogue file) or its ID.';
export const ProductSearch = /* @__PURE__ */ pure(() =>
  z.string().check(z.trim(), z.minLength(1), z.maxLength(200, PRODUCT_SEARCH_FORMAT)),
);

/** An order's status, as the All orders search filters it. */
export const OrderStatusFilter = /* @__PURE__ */ pure(() => z.enum(['not_ordered', 'ordered', 'shipped', 'fulfilled']));
export type OrderStatusFilter = z.infer<typeof OrderStatusFilter>;

export const ONE_SEARCH_AT_A_TIME = 'Search by one of order number, member or product at a time.';
export const SEARCH_ALL_ORDERS_ONLY = 'Searches run on the All orders list; leave out the list type.';

/**
 * getOrders: a page of a list; on the All orders list, optionally searched by ONE of order number,
 * member (their e-mail) or product (SPU number or id), and/or by status.
 */
export const OrdersRequest = /* @__PURE__ */ pure(() =>
  z
    .extend(ListRequest, {
      type: z._default(OrderList, 'all'),
      orderNumber: z.optional(OrderNumber),
      member: z.optional(Email),
      product: z.optional(ProductSearch),
      status: z.optional(OrderStatusFilter),
    })
    .check(
      z.superRefine((request, context) => {
        const by = (['orderNumber', 'member', 'product'] as const).filter((field) => request[field] !== undefined);
        for (const field of by.slice(1))
          context.addIssue({ code: 'custom', path: [field], message: ONE_SEARCH_AT_A_TIME });
        if (request.type !== 'all' && (by.length > 0 || request.status !== undefined))
          context.addIssue({ code: 'custom', path: ['type'], message: SEARCH_ALL_ORDERS_ONLY });
      }),
    ),
);
export type OrdersRequest = z.infer<typeof OrdersRequest>;
export const OrderPage = /* @__PURE__ */ pure(() =>
  z.object({
    items: z.array(Order),
    nextCursor: z.nullable(z.string()),
    counters: OrderCounters,
  }),
);
export type OrderPage = z.infer<typeof OrderPage>;

/** An admin records a phone or e-mail sale; the price comes from the approved product. */
export const AddOrderRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    product_id: Id,
    qty: Qty,
    /** The member's share code. */
    ref: ShareCode,
    /** The buyer, when the admin has them (a checkout always has them). */
    customer: z.optional(Customer),
  }),
);

/** Answer of markAsOrdered / markAsShipped / markAsFufilled: the order as it is now. */
export const OrderResult = /* @__PURE__ */ pure(() => z.object({ order: Order }));

// ---------------------------------------------------------------------------------------------
// Commissions

/** in processing → sent to Stripe (in the member's Stripe balance) → paid to their debit card. */
export const CommissionState = /* @__PURE__ */ pure(() => z.enum(['processing', 'in_stripe', 'paid']));

/** The statuses people read (commission-statuses.ts, zod-free so a screen's first chunk can list them). */
export { PRESENTED_COMMISSION_STATUSES };
export const CommissionStatus = /* @__PURE__ */ pure(() => z.enum(PRESENTED_COMMISSION_STATUSES));
export type CommissionStatus = z.infer<typeof CommissionStatus>;

export const Commission = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    /** The rule's commission on the sale (`rule`; the spec's 10 % of the sell price × qty by default). */
    amount: Dollars,
    product_id: z.string(),
    product_name: z.string(),
    order_id: z.string(),
    orderID: z.string(),
    member: z.object({ id: z.string(), email: z.string() }),
    isPayed: Flag,
    isInCustomersAccount: Flag,
    state: CommissionState,
    /**
     * Why it cannot move on yet, in words for the admin ("The order is not fulfilled yet", "The
     * member has no debit card yet"), or null when its next step can run.
     */
    blockedReason: z.nullable(z.string()),
    /** Stripe's reason when the last payout failed (`payout.failed`); it is back among those to pay. */
    payoutFailure: z.nullable(z.string()),
    /**
     * Paid by a payout still on its way: when Stripe expects it at the bank (its `arrival_date`);
     * null (or absent) once that date has come, or for any other status.
     */
    payoutExpected: z.optional(z.nullable(IsoTime)),
    created_at: IsoTime,
    /** The one status (the flags and `state` above are derived from it). */
    status: CommissionStatus,
    /** When it becomes (or became) available to send, once its order is fulfilled; null before, or when stored before the hold. */
    availableAt: z.nullable(IsoTime),
    /** Why it was reduced, cancelled, reversed, clawed back or is held ("Order refunded: …", "Dispute opened: …"), or null. */
    statusReason: z.nullable(z.string()),
    /** The commission before any refund took its share (equal to `amount` when nothing was refunded). */
    originalAmount: Dollars,
    /**
     * Held at its sale for an admin's review (a self-purchase, a product banned before payment):
     * the admin may release it or cancel it (reviewHeldCommission). Absent when not.
     */
    reviewable: z.optional(z.boolean()),
    /**
     * The commission rule it was made with, in words ("12.5 % for brand Lumo"; issue 39); absent on
     * commissions recorded before rules (the spec's 10 %).
     */
    rule: z.optional(z.string()),
  }),
);
export type Commission = z.infer<typeof Commission>;

export const CommissionTotals = /* @__PURE__ */ pure(() =>
  z.object({
    /** Paid: 'Commissions You Made'. */
    paid: Dollars,
    /** Not yet paid (in processing or in Stripe): 'Commissions in Processing'. */
    processing: Dollars,
    count: z.number().check(z.int()),
  }),
);
export type CommissionTotals = z.infer<typeof CommissionTotals>;

export const CommissionPage = /* @__PURE__ */ pure(() =>
  z.object({
    items: z.array(Commission),
    nextCursor: z.nullable(z.string()),
    /** The totals of the list's whole set (kept in the same transactions, no scans). */
    totals: CommissionTotals,
  }),
);
export type CommissionPage = z.infer<typeof CommissionPage>;

/**
 * A commission's status, as the All commissions search filters it: each presented status (on hold,
 * available, cancelled, clawed back, …), and 'processing' (every status not in Stripe nor paid).
 */
export const COMMISSION_STATUS_FILTERS = ['processing', ...PRESENTED_COMMISSION_STATUSES] as const;
export const CommissionStatusFilter = /* @__PURE__ */ pure(() =>
  z.enum(COMMISSION_STATUS_FILTERS, { error: `Choose one of the statuses: ${COMMISSION_STATUS_FILTERS.join(', ')}.` }),
);
export type CommissionStatusFilter = z.infer<typeof CommissionStatusFilter>;

/** getCommisions: a page of every commission, optionally only a member's (their e-mail) and/or of one state. */
export const CommissionsRequest = /* @__PURE__ */ pure(() =>
  z.extend(ListRequest, { member: z.optional(Email), status: z.optional(CommissionStatusFilter) }),
);
export type CommissionsRequest = z.infer<typeof CommissionsRequest>;

/** A member's own commissions; an admin may name anyone. */
export const CommissionsByUserRequest = /* @__PURE__ */ pure(() => z.extend(ListRequest, { id: Id }));

export const CommissionResult = /* @__PURE__ */ pure(() => z.object({ commission: Commission }));

export const TopEarner = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    /** Number of commissions. */
    count: z.number().check(z.int()),
    totalCommisions: Dollars,
  }),
);
export const TopEarnerPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(TopEarner), nextCursor: z.nullable(z.string()) }),
);

/** An order and the commission it created (the admin's manual order). */
export const AddOrderResponse = /* @__PURE__ */ pure(() =>
  z.object({ order: Order, commission: z.nullable(Commission) }),
);

// ---------------------------------------------------------------------------------------------
// Refunds

export { REFUND_REASONS };
export const RefundReason = /* @__PURE__ */ pure(() =>
  z.enum(REFUND_REASONS, { error: 'Choose why the order is refunded' }),
);

/** An admin refunds a card order, all that is left (no amount) or part of it, with a reason. */
export const RefundOrderRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    id: Id,
    /** In integer cents; absent: everything not refunded yet. */
    amountCents: z.optional(
      z
        .number({ error: 'Enter the amount to refund' })
        .check(
          z.int('Enter the amount in whole cents'),
          z.gte(1, 'Enter an amount of at least $0.01'),
          z.lte(100_000_000, 'Enter an amount of at most $1,000,000.00'),
        ),
    ),
    reason: RefundReason,
    /** The admin's own words, kept with the refund. */
    note: z.optional(z.string().check(z.trim(), z.maxLength(500, 'Keep the note under 500 characters'))),
  }),
);
/** The order after the refund, and its commission as it follows (null: a sale without a commission). */
export const RefundOrderResponse = /* @__PURE__ */ pure(() =>
  z.object({ order: Order, commission: z.nullable(Commission) }),
);

/** Admin: the card an order was paid with, named by the refund's confirmation. */
export const OrderPaymentCardRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id }));
export const OrderPaymentCard = /* @__PURE__ */ pure(() =>
  z.object({
    orderId: z.string(),
    /** null: an admin's phone order, or a payment Stripe no longer shows. */
    card: z.nullable(z.object({ last4: z.string(), brand: z.string() })),
    /**
     * Where the order's commission's money is, so the confirmation names the one effect a refund
     * has on it: not sent yet (reduced), in the member's Stripe balance (reversed), paid out
     * (clawed back), or nothing left (`none`: cancelled, reversed or clawed back already). Its
     * amount now and before any refund (dollars). Null: no commission.
     */
    commission: z.optional(
      z.nullable(
        z.object({
          where: z.enum(['not_sent', 'in_stripe', 'paid', 'none']),
          amount: z.number(),
          originalAmount: z.number(),
        }),
      ),
    ),
  }),
);
export type OrderPaymentCard = z.infer<typeof OrderPaymentCard>;

// ---------------------------------------------------------------------------------------------
// Exports (formula-escaped CSV, as the rejected-rows download)

export const ExportRequest = /* @__PURE__ */ pure(() => z.strictObject({ kind: z.enum(['orders', 'commissions']) }));
export const ExportCsv = /* @__PURE__ */ pure(() =>
  z.object({
    fileName: z.string(),
    csv: z.string(),
    rows: z.number().check(z.int()),
    /**
     * Present and true when the export stopped at its cap (EXPORT_MAX_ROWS, newest first) and the
     * list holds more; optional, so earlier readers of this schema are unaffected.
     */
    truncated: z.optional(z.boolean()),
  }),
);
/** The most rows one export holds (newest first); beyond it the answer says `truncated`. */
export const EXPORT_MAX_ROWS = 5000;
