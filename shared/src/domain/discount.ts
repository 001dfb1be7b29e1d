import { formatMoney } from './format';

/**
 * Members' discount codes (issue 39): what a code takes off a checkout's price, and the words a
 * customer reads when a code cannot be used. Pure: the checkout, the price preview and the pages
 * all compute the same cents.
 */

export { DISCOUNT_CODE_PATTERN } from '../api/discount-codes';

/** Codes are compared in upper case, as Stripe keeps one active code per text whatever its case. */
export const normalizeDiscountCode = (code: string): string => code.trim().toUpperCase();

/**
 * Stripe's smallest USD card charge ($0.50, docs.stripe.com/currencies#minimum-and-maximum-charge-amounts):
 * a code may not take a price below it.
 */
export const MIN_CARD_CHARGE_CENTS = 50;

/** A coupon's discount: a percentage (up to two decimals) or an amount in cents, never both. */
export interface DiscountTerms {
  percentOff: number | null;
  amountOffCents: number | null;
}

/**
 * The cents a coupon takes off a price: a percentage of the whole price rounded half up to the
 * cent (computed in hundredths of a percent, so 12.5 % is exact), or the amount off, never more
 * than the price. Once per checkout, as a coupon of `duration: once` applies once.
 */
export function discountCents(totalCents: number, terms: DiscountTerms): number {
  if (terms.percentOff !== null) {
    const basisPoints = Math.round(terms.percentOff * 100);
    return Math.min(totalCents, Math.floor((totalCents * basisPoints + 5_000) / 10_000));
  }
  return Math.min(totalCents, Math.max(0, terms.amountOffCents ?? 0));
}

/** "10 % off", "12.5 % off", "$5.00 off". */
export function describeDiscount(terms: DiscountTerms): string {
  if (terms.percentOff !== null) return `${String(terms.percentOff)} % off`;
  return `${formatMoney(terms.amountOffCents ?? 0)} off`;
}

/** Why a code cannot be used now; each with its words for the customer. */
export type CodeRefusal = 'unknown' | 'disabled' | 'expired' | 'used_up' | 'below_minimum';

export function codeRefusalWords(
  code: string,
  refusal: CodeRefusal,
  details: { expiresAt?: number | null } = {},
): string {
  switch (refusal) {
    case 'unknown':
      return `There is no discount code ${code}. Check its spelling with the member who gave it to you, or pay the full price.`;
    case 'disabled':
      return `The discount code ${code} has been turned off by the shop. Pay the full price, or ask the member who gave it to you for another code.`;
    case 'expired': {
      const day = details.expiresAt ? new Date(details.expiresAt * 1000).toISOString().slice(0, 10) : undefined;
      return `The discount code ${code} expired${day ? ` on ${day}` : ''}. Pay the full price, or ask the member who gave it to you for another code.`;
    }
    case 'used_up':
      return `The discount code ${code} has been used as many times as it may be. Pay the full price, or ask the member who gave it to you for another code.`;
    case 'below_minimum':
      return `The discount code ${code} would take the price below ${formatMoney(MIN_CARD_CHARGE_CENTS)}, the least one card payment can be. Choose a larger quantity, or pay without the code.`;
  }
}
