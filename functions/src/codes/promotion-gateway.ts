import type { DiscountTerms } from '@portal/shared/domain/discount';

/**
 * Stripe's coupons and promotion codes as the codes capability needs them
 * (docs.stripe.com/api/coupons, docs.stripe.com/api/promotion_codes). Each create carries our own
 * idempotency key: a retry answers the same object.
 */

export interface CouponTerms extends DiscountTerms {
  id: string;
  /** Unix seconds, or null. */
  redeemBy: number | null;
  maxRedemptions: number | null;
  /** Stripe's `valid`: not deleted, before `redeem_by`, below `max_redemptions`. */
  valid: boolean;
}

export interface PromotionGateway {
  createCoupon(terms: DiscountTerms & { name: string; idempotencyKey: string }): Promise<CouponTerms>;
  /** The coupon, or undefined when Stripe has none with this id. */
  retrieveCoupon(id: string): Promise<CouponTerms | undefined>;
  createPromotionCode(code: {
    couponId: string;
    code: string;
    expiresAt: number | null;
    maxRedemptions: number | null;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ id: string }>;
  deactivatePromotionCode(id: string, idempotencyKey: string): Promise<void>;
}
