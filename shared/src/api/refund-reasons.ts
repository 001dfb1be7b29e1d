/**
 * Stripe's refund reasons, as the admin picks one. Apart from the schemas (sales.ts), so the
 * admin app's order card carries no zod for its choices.
 */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
