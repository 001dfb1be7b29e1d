// Zod-free, so a screen's first chunk can list the statuses without the contract's schemas (build.test.ts).
/**
 * One status per commission, as people read it: waiting for fulfilment, on hold until `availableAt`,
 * available, in Stripe, paid; the side exits cancelled, reversed, clawed back and held for review
 * (with `statusReason`). shared/src/domain/sales-status.ts `presentedStatus`.
 */
export const PRESENTED_COMMISSION_STATUSES = [
  'waiting_for_fulfilment',
  'on_hold',
  'available',
  'in_stripe',
  'paid',
  'cancelled',
  'reversed',
  'clawed_back',
  'review',
] as const;
