/**
 * The metadata key a checkout's payment intent carries when the member whose share link it came
 * through made it from their own session (payments/checkout.ts), and its value; the sale reads it
 * (orders/abuse.ts). Set by our server only: the browser confirms with the publishable key, which
 * cannot change metadata.
 */
export const SELF_PURCHASE_METADATA = 'self_purchase';
export const SELF_PURCHASE_SESSION = 'session';

/**
 * A checkout paid with a member's discount code (issue 39): the code (upper case), its Stripe
 * promotion code, what it took off and the price before it. PaymentIntents take no promotion code:
 * the portal priced the intent itself and records the code here (decision 0430).
 */
export const PROMOTION_CODE_METADATA = 'promotion_code';
export const PROMOTION_CODE_ID_METADATA = 'promotion_code_id';
export const DISCOUNT_CENTS_METADATA = 'discount_cents';
export const LIST_AMOUNT_METADATA = 'list_amount';
/** The share code of the link the customer came through, when a code's member took the sale from it. */
export const LINK_REF_METADATA = 'link_ref';
/** The metadata key of the share page's counted visit that led to the checkout (issue 39, visits/funnel.ts). */
export const VISIT_METADATA = 'visit_id';
