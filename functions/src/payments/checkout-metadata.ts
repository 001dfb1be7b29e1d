/**
 * The metadata key a checkout's payment intent carries when the member whose share link it came
 * through made it from their own session (payments/checkout.ts), and its value; the sale reads it
 * (orders/abuse.ts). Set by our server only: the browser confirms with the publishable key, which
 * cannot change metadata.
 */
export const SELF_PURCHASE_METADATA = 'self_purchase';
export const SELF_PURCHASE_SESSION = 'session';

/** The metadata key of the share page's counted visit that led to the checkout (issue 39, visits/funnel.ts). */
export const VISIT_METADATA = 'visit_id';
