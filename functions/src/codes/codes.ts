import { createHash } from 'node:crypto';
import type { AdminDiscountCode, CreateDiscountCodeRequest, DiscountCode } from '@portal/shared/api/discount-codes';
import {
  DISCOUNT_CODE_PATTERN,
  MIN_CARD_CHARGE_CENTS,
  codeRefusalWords,
  describeDiscount,
  discountCents,
  normalizeDiscountCode,
  type CodeRefusal,
} from '@portal/shared/domain/discount';
import { formatMoney } from '@portal/shared/domain/format';
import { DomainError, badRequest, conflict } from '../errors';
import type { UserRepository } from '../auth/user-store';
import type { CodeStore, StoredCode } from './code-store';
import type { CouponTerms, PromotionGateway } from './promotion-gateway';

/**
 * Members' discount codes (issue 39, docs/programme.md "Discount codes", decision 0430). The admin
 * makes a code for a member under a Stripe coupon; the customer types it on the share page or the
 * checkout; the checkout counts a redemption first (a conditional write), then makes the payment
 * at the discounted price with the code in its metadata; the sale is the code's member's.
 */

export interface CodeDeps {
  codes: CodeStore;
  gateway: PromotionGateway;
  users: Pick<UserRepository, 'findByEmail'>;
  /** Epoch ms. */
  now: () => number;
}

/** The most codes the admin's list shows (the newest), and the most orders it shows per code. */
export const CODE_LIST_LIMIT = 200;
export const ORDERS_PER_CODE = 50;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Why a stored code cannot be used now, if it cannot. */
export function refusalOf(code: StoredCode, nowSeconds: number): CodeRefusal | undefined {
  if (code.status === 'disabled') return 'disabled';
  if (code.expiresAt !== null && code.expiresAt <= nowSeconds) return 'expired';
  if (code.maxRedemptions !== null && code.redeemed >= code.maxRedemptions) return 'used_up';
  return undefined;
}

const STATUS_WORDS: Record<DiscountCode['status'], string> = {
  active: 'Active: customers can use it.',
  disabled: 'Turned off: customers who type it are told it was turned off, and pay the full price.',
  expired: 'Expired: customers are told so, and pay the full price.',
  used_up: 'Used as many times as it may be: customers are told so, and pay the full price.',
};

export function present(
  code: StoredCode,
  nowSeconds: number,
  sales?: { uses: number; revenueCents: number },
): DiscountCode {
  const refusal = refusalOf(code, nowSeconds);
  const status = refusal === 'disabled' || refusal === 'expired' || refusal === 'used_up' ? refusal : 'active';
  return {
    code: code.code,
    memberId: code.memberId,
    memberEmail: code.memberEmail,
    discount: describeDiscount(code),
    percentOff: code.percentOff,
    amountOffCents: code.amountOffCents,
    status,
    statusWords: STATUS_WORDS[status],
    expiresAt: code.expiresAt,
    maxRedemptions: code.maxRedemptions,
    redeemed: code.redeemed,
    uses: sales?.uses ?? 0,
    revenueCents: sales?.revenueCents ?? 0,
    couponId: code.couponId,
    promotionCodeId: code.promotionCodeId,
    createdAt: code.createdAt,
  };
}

/** A code made from the member's display name (or e-mail) and the discount: "DANA10", "DANA5OFF". */
function madeCode(name: string, percentOff: number | null, amountOffCents: number | null): string {
  const letters =
    name
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase()
      .slice(0, 12) || 'MEMBER';
  const figure =
    percentOff !== null ? String(Math.round(percentOff)) : `${String(Math.round((amountOffCents ?? 0) / 100))}OFF`;
  const code = `${letters}${figure}`;
  return code.length >= 3 ? code : `${code}-CODE`;
}

const fieldError = (field: string, message: string) => badRequest(message, { [field]: message });

/** The admin makes a member's code: the coupon (made or chosen), the promotion code, then our item. */
export async function createCode(deps: CodeDeps, body: CreateDiscountCodeRequest): Promise<DiscountCode> {
  const nowSeconds = seconds(deps.now());
  const given = [body.couponId, body.percentOff, body.amountOffCents].filter((value) => value !== undefined);
  if (given.length !== 1) {
    throw fieldError('percentOff', 'Choose one discount: a percentage off, an amount off, or an existing coupon.');
  }
  if (body.percentOff !== undefined && Math.round(body.percentOff * 100) !== body.percentOff * 100) {
    throw fieldError('percentOff', 'The percentage off has at most two decimals (12.5 or 12.25).');
  }
  if (body.expiresAt !== undefined && body.expiresAt <= nowSeconds) {
    throw fieldError('expiresAt', 'The expiry must be in the future.');
  }
  const member = await deps.users.findByEmail(body.memberEmail);
  if (!member?.shareCode) {
    throw fieldError('memberEmail', 'No member has this e-mail address. Check it on the member list.');
  }
  let coupon: CouponTerms | undefined;
  if (body.couponId !== undefined) {
    coupon = await deps.gateway.retrieveCoupon(body.couponId);
    if (!coupon)
      throw fieldError('couponId', `Stripe has no coupon ${body.couponId}. Check its id in Stripe's Dashboard.`);
    if (!coupon.valid) {
      throw fieldError('couponId', `The coupon ${body.couponId} can no longer be redeemed at Stripe. Choose another.`);
    }
    if (body.expiresAt !== undefined && coupon.redeemBy !== null && body.expiresAt > coupon.redeemBy) {
      throw fieldError('expiresAt', 'The code cannot end after its coupon does. Choose an earlier expiry.');
    }
    if (
      body.maxRedemptions !== undefined &&
      coupon.maxRedemptions !== null &&
      body.maxRedemptions > coupon.maxRedemptions
    ) {
      throw fieldError('maxRedemptions', `Its coupon can be used ${String(coupon.maxRedemptions)} times at most.`);
    }
  }
  const percentOff = coupon ? coupon.percentOff : (body.percentOff ?? null);
  const amountOffCents = coupon ? coupon.amountOffCents : (body.amountOffCents ?? null);
  const code = normalizeDiscountCode(
    body.code ?? madeCode(member.display_name || member.first_name || member.email, percentOff, amountOffCents),
  );
  if (!DISCOUNT_CODE_PATTERN.test(code))
    throw fieldError('code', 'A discount code has 3 to 30 letters, digits or dashes.');
  if (await deps.codes.get(code)) {
    throw fieldError('code', `The code ${code} is taken (codes turned off keep theirs). Choose another.`);
  }
  const terms = { percentOff, amountOffCents };
  if (!coupon) {
    coupon = await deps.gateway.createCoupon({
      ...terms,
      name: `${describeDiscount(terms)} (${code})`.slice(0, 40),
      idempotencyKey: `portal:coupon:${code}:${String(percentOff ?? '')}:${String(amountOffCents ?? '')}`,
    });
  }
  const expiresAt = body.expiresAt ?? coupon.redeemBy ?? null;
  const maxRedemptions = body.maxRedemptions ?? null;
  const promotion = await deps.gateway.createPromotionCode({
    couponId: coupon.id,
    code,
    expiresAt: body.expiresAt ?? null,
    maxRedemptions,
    metadata: { member_id: member.id },
    idempotencyKey: `portal:promotion-code:${code}:${coupon.id}:${String(body.expiresAt ?? '')}:${String(maxRedemptions ?? '')}`,
  });
  const stored: StoredCode = {
    code,
    memberId: member.id,
    memberEmail: member.email,
    memberShareCode: member.shareCode,
    couponId: coupon.id,
    promotionCodeId: promotion.id,
    percentOff,
    amountOffCents,
    expiresAt,
    maxRedemptions,
    redeemed: 0,
    status: 'active',
    createdAt: new Date(deps.now()).toISOString(),
  };
  if (!(await deps.codes.create(stored))) {
    throw conflict(`The code ${code} was just made by someone else. Reload the list to see it.`);
  }
  return present(stored, nowSeconds);
}

/** Turns a code off: at Stripe first (its promotion code inactive), then ours. */
export async function disableCode(deps: CodeDeps, text: string): Promise<DiscountCode> {
  const code = normalizeDiscountCode(text);
  const found = await deps.codes.get(code);
  if (!found)
    throw new DomainError('not-found', `There is no code ${code}.`, { fields: { code: `There is no code ${code}.` } });
  if (found.status === 'disabled') return present(found, seconds(deps.now()));
  await deps.gateway.deactivatePromotionCode(
    found.promotionCodeId,
    `portal:promotion-code:${found.promotionCodeId}:disable`,
  );
  const after = await deps.codes.disable(code, new Date(deps.now()).toISOString());
  return present(after ?? found, seconds(deps.now()));
}

/**
 * The admin's list: every code with its paid orders, what they brought after discount and refunds
 * (uses and revenue over all of them; the newest ORDERS_PER_CODE shown), newest code first. One
 * Query of the codes with their sales (decision 0461), however many codes.
 */
export async function listCodes(deps: Pick<CodeDeps, 'codes' | 'now'>): Promise<AdminDiscountCode[]> {
  const nowSeconds = seconds(deps.now());
  const codes = await deps.codes.listWithSales();
  return codes
    .sort((a, b) => b.code.createdAt.localeCompare(a.code.createdAt) || a.code.code.localeCompare(b.code.code))
    .slice(0, CODE_LIST_LIMIT)
    .map(({ code, sales }) => {
      const revenueCents = sales.reduce((total, sale) => total + sale.paidCents - sale.refundedCents, 0);
      const orders = sales
        .slice(-ORDERS_PER_CODE)
        .reverse()
        .map((sale) => ({
          orderId: sale.orderId,
          orderID: sale.orderID,
          createdAt: sale.createdAt,
          paidCents: sale.paidCents,
          discountCents: sale.discountCents,
          refundedCents: sale.refundedCents,
        }));
      return { ...present(code, nowSeconds, { uses: sales.length, revenueCents }), orders };
    });
}

/** The member's own codes (no e-mail: they know it). */
export async function myCodes(deps: Pick<CodeDeps, 'codes' | 'now'>, memberId: string): Promise<DiscountCode[]> {
  const nowSeconds = seconds(deps.now());
  return (await deps.codes.ofMember(memberId)).map((code) => ({ ...present(code, nowSeconds), memberEmail: '' }));
}

/** A code's price for a checkout of `listCents`: what it takes off and what the customer pays. */
export interface CodePrice {
  code: string;
  discount: string;
  memberShareCode: string;
  promotionCodeId: string;
  listCents: number;
  discountCents: number;
  paidCents: number;
}

const refused = (code: string, refusal: CodeRefusal, expiresAt?: number | null) =>
  fieldError('code', codeRefusalWords(code, refusal, { expiresAt: expiresAt ?? null }));

/** The price with a code, or the reason it cannot be used, in words (400 naming `code`). Reads one item. */
export async function priceWithCode(
  deps: Pick<CodeDeps, 'codes' | 'now'>,
  text: string,
  listCents: number,
  options: { atCheckout?: boolean } = {},
): Promise<CodePrice> {
  const code = normalizeDiscountCode(text);
  const found = await deps.codes.get(code);
  if (!found) throw refused(code, 'unknown');
  const refusal = refusalOf(found, seconds(deps.now()));
  // At the checkout the redemption decides "used up" (redeemForCheckout): a checkout that counted
  // its use already (its ask repeated, or two asks at once) is not refused for its own use.
  if (refusal && !(options.atCheckout && refusal === 'used_up')) throw refused(code, refusal, found.expiresAt);
  const off = discountCents(listCents, found);
  const paidCents = listCents - off;
  if (paidCents < MIN_CARD_CHARGE_CENTS) throw refused(code, 'below_minimum');
  return {
    code,
    discount: describeDiscount(found),
    memberShareCode: found.memberShareCode,
    promotionCodeId: found.promotionCodeId,
    listCents,
    discountCents: off,
    paidCents,
  };
}

/** A checkout's key as the code's redemption item names it (a hash: the key holds the form's id). */
export const checkoutHash = (checkoutKey: string): string =>
  createHash('sha256').update(checkoutKey).digest('base64url').slice(0, 32);

/**
 * Counts the checkout's redemption before its payment is made: a code used up, turned off or
 * expired since its price was read is refused in words, and nothing is made at Stripe.
 */
export async function redeemForCheckout(
  deps: Pick<CodeDeps, 'codes' | 'now'>,
  price: Pick<CodePrice, 'code'>,
  checkoutKey: string,
): Promise<void> {
  const outcome = await deps.codes.redeem(price.code, checkoutHash(checkoutKey), seconds(deps.now()));
  if (outcome !== 'refused') return;
  const found = await deps.codes.get(price.code);
  const refusal = (found && refusalOf(found, seconds(deps.now()))) ?? 'used_up';
  throw refused(price.code, refusal, found?.expiresAt);
}

export const releaseForCheckout = (
  deps: Pick<CodeDeps, 'codes'>,
  price: Pick<CodePrice, 'code'>,
  checkoutKey: string,
) => deps.codes.release(price.code, checkoutHash(checkoutKey));

/** The amount a price with a code shows, for a sentence. */
export const paidWords = (price: CodePrice) =>
  `${formatMoney(price.paidCents)} with ${price.code} (${price.discount}, ${formatMoney(price.discountCents)} off ${formatMoney(price.listCents)})`;
