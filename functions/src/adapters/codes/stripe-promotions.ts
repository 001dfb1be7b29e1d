import type Stripe from 'stripe';
import { badRequest } from '../../errors';
import type { CouponTerms, PromotionGateway } from '../../codes/promotion-gateway';
import { lazyStripeClient, toDomainError } from '../stripe-client';

/** Each attempt's timeout, as the payment gateway's (three attempts within the Stripe calls' 29 s). */
const TIMEOUT_MS = 4_000;

const toTerms = (coupon: Stripe.Coupon): CouponTerms => ({
  id: coupon.id,
  percentOff: coupon.percent_off,
  amountOffCents: coupon.amount_off,
  redeemBy: coupon.redeem_by,
  maxRedemptions: coupon.max_redemptions,
  valid: coupon.valid,
});

const stripeCode = (error: unknown): string | undefined =>
  error instanceof Error ? ((error as { code?: unknown }).code as string | undefined) : undefined;

/**
 * Stripe's coupons and promotion codes through the `stripe` SDK (the emulator when STRIPE_API_URL
 * names it). A promotion code whose text another active code has at Stripe (one made in the
 * Dashboard) is a 400 naming `code`; Stripe's other refusals are mapped as the payment gateway's.
 */
export function createStripePromotions(settings: {
  secretKey: () => Promise<string>;
  apiUrl: () => string | undefined;
}): PromotionGateway {
  const stripe = lazyStripeClient(settings, () => TIMEOUT_MS);
  const mapped = async <T>(work: (client: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await work(await stripe());
    } catch (error) {
      throw toDomainError(error);
    }
  };
  return {
    createCoupon: (terms) =>
      mapped(async (client) =>
        toTerms(
          await client.coupons.create(
            {
              ...(terms.percentOff !== null
                ? { percent_off: terms.percentOff }
                : { amount_off: terms.amountOffCents ?? 0, currency: 'usd' }),
              duration: 'once',
              name: terms.name,
            },
            { idempotencyKey: terms.idempotencyKey },
          ),
        ),
      ),

    retrieveCoupon: (id) =>
      mapped(async (client) => {
        try {
          return toTerms(await client.coupons.retrieve(id));
        } catch (error) {
          if (stripeCode(error) === 'resource_missing') return undefined;
          throw error;
        }
      }),

    createPromotionCode: (code) =>
      mapped(async (client) => {
        try {
          const created = await client.promotionCodes.create(
            {
              promotion: { type: 'coupon', coupon: code.couponId },
              code: code.code,
              ...(code.expiresAt !== null ? { expires_at: code.expiresAt } : {}),
              ...(code.maxRedemptions !== null ? { max_redemptions: code.maxRedemptions } : {}),
              metadata: code.metadata,
            },
            { idempotencyKey: code.idempotencyKey },
          );
          return { id: created.id };
        } catch (error) {
          if (stripeCode(error) === 'resource_already_exists') {
            const message = `Stripe already has an active promotion code ${code.code} (made in its Dashboard?). Choose another code.`;
            throw badRequest(message, { code: message });
          }
          throw error;
        }
      }),

    deactivatePromotionCode: (id, idempotencyKey) =>
      mapped(async (client) => {
        await client.promotionCodes.update(id, { active: false }, { idempotencyKey });
      }),
  };
}
