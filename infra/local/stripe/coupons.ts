import type Stripe from 'stripe';
import { StripeApiError, invalid, missing, noSuch } from './errors';
import { stripeId } from './ids';
import { createdFilter, mergeMetadata, optionalInteger, optionalString, page, type Params } from './params';

/**
 * Coupons (`/v1/coupons`) and promotion codes (`/v1/promotion_codes`) as Stripe keeps them
 * (docs.stripe.com/api/coupons, docs.stripe.com/api/promotion_codes), in the shape of the SDK's
 * types (API version 2026-10-28.endive: a promotion code names its coupon under
 * `promotion: { type: 'coupon', coupon }`). Stripe counts a redemption only when a Checkout
 * Session, an invoice or a subscription uses a code; a PaymentIntent takes none, so
 * `times_redeemed` stays as it is here (the portal counts its own redemptions, decision 0430).
 * A coupon is `valid` while it is not deleted, before its `redeem_by` and below its
 * `max_redemptions`; a promotion code is `active` only while its coupon is valid (the object's
 * documented `active`), before its `expires_at` and below its own `max_redemptions`.
 */

const COUPON_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** "Valid characters are lower case letters (a-z), upper case letters (A-Z), digits (0-9), and dashes (-)" (PromotionCodeCreateParams.code). */
const PROMOTION_CODE = /^[A-Za-z0-9-]{1,200}$/;
const DURATIONS = ['forever', 'once', 'repeating'] as const;

interface StoredCoupon {
  coupon: Stripe.Coupon;
  deleted?: boolean;
}

/** What the state keeps of coupons and promotion codes (older state files have neither). */
export interface CouponState {
  coupons?: Record<string, StoredCoupon>;
  promotionCodes?: Record<string, { code: Stripe.PromotionCode; activeSet: boolean }>;
}

const boolean = (params: Params, name: string): boolean | undefined => {
  const value = params[name];
  if (value === undefined) return undefined;
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw invalid(name, `Invalid boolean: ${String(value)}`);
};

const stored = (state: CouponState, id: string): StoredCoupon => {
  const found = state.coupons?.[id];
  if (!found || found.deleted) throw noSuch('coupon', id, 'coupon');
  return found;
};

/** A coupon as Stripe answers it now: `valid` follows its deletion, `redeem_by` and `max_redemptions`. */
function couponNow(entry: StoredCoupon, now: number): Stripe.Coupon {
  const { coupon } = entry;
  const valid =
    !entry.deleted &&
    (coupon.redeem_by === null || coupon.redeem_by > now) &&
    (coupon.max_redemptions === null || coupon.times_redeemed < coupon.max_redemptions);
  return { ...coupon, valid };
}

/** `POST /v1/coupons` (docs.stripe.com/api/coupons/create). */
export function createCoupon(state: CouponState, params: Params, now: number): Stripe.Coupon {
  const percentText = optionalString(params, 'percent_off');
  const amountOff = optionalInteger(params, 'amount_off');
  const currency = optionalString(params, 'currency')?.toLowerCase();
  if (percentText === undefined && amountOff === undefined) {
    throw new StripeApiError(400, 'invalid_request_error', 'You must pass either percent_off or amount_off.', {}, true);
  }
  if (percentText !== undefined && amountOff !== undefined) {
    throw invalid('amount_off', 'You may only pass one of percent_off or amount_off.');
  }
  let percentOff: number | null = null;
  if (percentText !== undefined) {
    percentOff = Number(percentText);
    if (!/^\d+(\.\d{1,2})?$/.test(percentText) || !(percentOff > 0) || percentOff > 100) {
      throw invalid(
        'percent_off',
        'Invalid percent_off: must be greater than 0 and at most 100.',
        'parameter_invalid_integer',
      );
    }
  }
  if (amountOff !== undefined) {
    if (amountOff < 1) throw invalid('amount_off', 'Invalid amount_off: must be at least 1.');
    if (!currency) throw missing('currency');
  }
  const duration = optionalString(params, 'duration') ?? 'once';
  if (!(DURATIONS as readonly string[]).includes(duration)) {
    throw invalid('duration', `Invalid duration: must be one of ${DURATIONS.join(', ')}`);
  }
  const months = optionalInteger(params, 'duration_in_months');
  if (duration === 'repeating' && months === undefined) throw missing('duration_in_months');
  if (duration !== 'repeating' && months !== undefined) {
    throw invalid('duration_in_months', 'duration_in_months may only be passed with duration=repeating.');
  }
  const maxRedemptions = optionalInteger(params, 'max_redemptions');
  if (maxRedemptions !== undefined && maxRedemptions < 1) {
    throw invalid(
      'max_redemptions',
      'Invalid max_redemptions: must be a positive integer.',
      'parameter_invalid_integer',
    );
  }
  const redeemBy = optionalInteger(params, 'redeem_by');
  if (redeemBy !== undefined && redeemBy <= now) {
    throw invalid('redeem_by', 'Invalid redeem_by: must be in the future.');
  }
  const id = optionalString(params, 'id');
  if (id !== undefined && !COUPON_ID.test(id)) throw invalid('id', `Invalid id: ${id}`);
  const coupons = (state.coupons ??= {});
  if (id !== undefined && coupons[id] && !coupons[id].deleted) {
    throw new StripeApiError(400, 'invalid_request_error', 'Coupon already exists.', {
      code: 'resource_already_exists',
      param: 'id',
    });
  }
  const name = optionalString(params, 'name');
  if (name !== undefined && name.length > 40) throw invalid('name', 'Invalid name: must be at most 40 characters.');
  const coupon: Stripe.Coupon = {
    id: id ?? stripeId('', 8).slice(1),
    object: 'coupon',
    amount_off: amountOff ?? null,
    created: now,
    currency: amountOff !== undefined ? (currency ?? null) : null,
    duration: duration as Stripe.Coupon.Duration,
    duration_in_months: months ?? null,
    livemode: false,
    max_redemptions: maxRedemptions ?? null,
    metadata: mergeMetadata({}, params),
    name: name ?? null,
    percent_off: percentOff,
    redeem_by: redeemBy ?? null,
    times_redeemed: 0,
    valid: true,
  };
  coupons[coupon.id] = { coupon };
  return couponNow(coupons[coupon.id]!, now);
}

export function retrieveCoupon(state: CouponState, id: string, now: number): Stripe.Coupon {
  return couponNow(stored(state, id), now);
}

/** `POST /v1/coupons/:id`: only `name` and `metadata` change (the discount itself never does). */
export function updateCoupon(state: CouponState, id: string, params: Params, now: number): Stripe.Coupon {
  const entry = stored(state, id);
  const name = optionalString(params, 'name');
  if (name !== undefined) {
    if (name.length > 40) throw invalid('name', 'Invalid name: must be at most 40 characters.');
    entry.coupon.name = name || null;
  }
  entry.coupon.metadata = mergeMetadata(entry.coupon.metadata ?? {}, params);
  return couponNow(entry, now);
}

/** `DELETE /v1/coupons/:id`: no new redemptions; its promotion codes stop being active. */
export function deleteCoupon(state: CouponState, id: string): Stripe.DeletedCoupon {
  stored(state, id).deleted = true;
  return { id, object: 'coupon', deleted: true };
}

const newest = <T extends { created: number }>(items: T[]): T[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map(({ item }) => item);

export function listCoupons(state: CouponState, params: Params, now: number) {
  const created = createdFilter(params);
  const coupons = Object.values(state.coupons ?? {})
    .filter((entry) => !entry.deleted && created(entry.coupon.created))
    .map((entry) => couponNow(entry, now));
  return page(newest(coupons), params, '/v1/coupons');
}

/** A promotion code as Stripe answers it now: active only as set, while its coupon is valid, before expiry and below its limit. */
function promotionCodeNow(
  state: CouponState,
  entry: { code: Stripe.PromotionCode; activeSet: boolean },
  now: number,
): Stripe.PromotionCode {
  const { code } = entry;
  const couponId = code.promotion.coupon as string;
  const coupon = state.coupons?.[couponId];
  const couponValid = coupon ? couponNow(coupon, now).valid : false;
  const active =
    entry.activeSet &&
    couponValid &&
    (code.expires_at === null || code.expires_at > now) &&
    (code.max_redemptions === null || code.times_redeemed < code.max_redemptions);
  return { ...code, active };
}

const storedCode = (state: CouponState, id: string) => {
  const found = state.promotionCodes?.[id];
  if (!found) throw noSuch('promotion code', id, 'promotion_code');
  return found;
};

/** `POST /v1/promotion_codes` (docs.stripe.com/api/promotion_codes/create). */
export function createPromotionCode(state: CouponState, params: Params, now: number): Stripe.PromotionCode {
  // API 2025-09-30 and later (the SDK's): the coupon goes under `promotion`; the old top-level `coupon` is unknown.
  if (params.coupon !== undefined) {
    throw new StripeApiError(400, 'invalid_request_error', 'Received unknown parameter: coupon', {
      code: 'parameter_unknown',
      param: 'coupon',
    });
  }
  if (params.promotion === undefined) throw missing('promotion');
  const type = optionalString(params, 'promotion', 'type');
  if (type === undefined) throw missing('promotion[type]');
  if (type !== 'coupon') throw invalid('promotion[type]', 'Invalid promotion[type]: must be one of coupon');
  const couponId = optionalString(params, 'promotion', 'coupon');
  if (!couponId) throw missing('promotion[coupon]');
  const couponEntry = state.coupons?.[couponId];
  if (!couponEntry || couponEntry.deleted) throw noSuch('coupon', couponId, 'promotion[coupon]');
  const coupon = couponNow(couponEntry, now);
  if (!coupon.valid) {
    throw invalid(
      'promotion[coupon]',
      `Coupon ${couponId} is no longer valid and cannot be used to create a promotion code.`,
    );
  }
  const given = optionalString(params, 'code');
  if (given !== undefined && !PROMOTION_CODE.test(given)) {
    throw invalid('code', 'Invalid code: may only contain letters, digits and dashes (-).');
  }
  const expiresAt = optionalInteger(params, 'expires_at');
  if (expiresAt !== undefined) {
    if (expiresAt <= now) throw invalid('expires_at', 'Invalid expires_at: must be in the future.');
    if (coupon.redeem_by !== null && expiresAt > coupon.redeem_by) {
      throw invalid('expires_at', "The promotion code's expires_at cannot be after its coupon's redeem_by.");
    }
  }
  const maxRedemptions = optionalInteger(params, 'max_redemptions');
  if (maxRedemptions !== undefined) {
    if (maxRedemptions < 1) {
      throw invalid(
        'max_redemptions',
        'Invalid max_redemptions: must be a positive integer.',
        'parameter_invalid_integer',
      );
    }
    if (coupon.max_redemptions !== null && maxRedemptions > coupon.max_redemptions) {
      throw invalid(
        'max_redemptions',
        "The promotion code's max_redemptions cannot be greater than its coupon's max_redemptions.",
      );
    }
  }
  const active = boolean(params, 'active') ?? true;
  const code = given ?? stripeId('', 8).slice(1).toUpperCase();
  const codes = (state.promotionCodes ??= {});
  // "Regardless of case, this code must be unique across all active promotion codes."
  if (active) {
    const taken = Object.values(codes).some(
      (entry) => entry.code.code.toUpperCase() === code.toUpperCase() && promotionCodeNow(state, entry, now).active,
    );
    if (taken) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `An active promotion code with \`code: ${code}\` already exists.`,
        {
          code: 'resource_already_exists',
          param: 'code',
        },
      );
    }
  }
  const restrictions = params.restrictions;
  if (restrictions !== undefined && restrictions !== '') {
    throw invalid('restrictions', 'The emulator does not model promotion code restrictions.');
  }
  const promotionCode: Stripe.PromotionCode = {
    id: stripeId('promo'),
    object: 'promotion_code',
    active,
    code,
    created: now,
    customer: null,
    customer_account: null,
    expires_at: expiresAt ?? null,
    livemode: false,
    max_redemptions: maxRedemptions ?? null,
    metadata: mergeMetadata({}, params),
    promotion: { type: 'coupon', coupon: couponId },
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    times_redeemed: 0,
  };
  codes[promotionCode.id] = { code: promotionCode, activeSet: active };
  return promotionCodeNow(state, codes[promotionCode.id]!, now);
}

export function retrievePromotionCode(state: CouponState, id: string, now: number): Stripe.PromotionCode {
  return promotionCodeNow(state, storedCode(state, id), now);
}

/** `POST /v1/promotion_codes/:id`: `active` and `metadata`; a code cannot be made active while another active one has its text. */
export function updatePromotionCode(state: CouponState, id: string, params: Params, now: number): Stripe.PromotionCode {
  const entry = storedCode(state, id);
  const active = boolean(params, 'active');
  if (active === true && !entry.activeSet) {
    const clash = Object.values(state.promotionCodes ?? {}).some(
      (other) =>
        other !== entry &&
        other.code.code.toUpperCase() === entry.code.code.toUpperCase() &&
        promotionCodeNow(state, other, now).active,
    );
    if (clash) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `An active promotion code with \`code: ${entry.code.code}\` already exists.`,
        { code: 'resource_already_exists', param: 'active' },
      );
    }
  }
  if (active !== undefined) entry.activeSet = active;
  entry.code.active = entry.activeSet;
  entry.code.metadata = mergeMetadata(entry.code.metadata ?? {}, params);
  return promotionCodeNow(state, entry, now);
}

/** `GET /v1/promotion_codes`: by `code` (exact, as stored: Stripe's list is case-sensitive), `coupon`, `active`, `created`. */
export function listPromotionCodes(state: CouponState, params: Params, now: number) {
  const code = optionalString(params, 'code');
  const coupon = optionalString(params, 'coupon');
  const active = boolean(params, 'active');
  const customer = optionalString(params, 'customer');
  const created = createdFilter(params);
  const codes = Object.values(state.promotionCodes ?? {})
    .map((entry) => promotionCodeNow(state, entry, now))
    .filter(
      (item) =>
        (code === undefined || item.code === code) &&
        (coupon === undefined || item.promotion.coupon === coupon) &&
        (active === undefined || item.active === active) &&
        (customer === undefined || item.customer === customer) &&
        created(item.created),
    );
  return page(newest(codes), params, '/v1/promotion_codes');
}
