/**
 * The discount codes' store (issue 39), as the codes capability needs it: the code item (its
 * Stripe ids, terms, limits, redemptions and state), one item per checkout that counted a
 * redemption, and the code's sales (written in each sale's transaction, orders/record-sale.ts).
 */

export interface StoredCode {
  /** Upper case: the item's key. */
  code: string;
  memberId: string;
  memberEmail: string;
  /** The member's share code: a sale with the code is theirs as a sale through their link is. */
  memberShareCode: string;
  couponId: string;
  promotionCodeId: string;
  percentOff: number | null;
  amountOffCents: number | null;
  /** Unix seconds (the promotion code's `expires_at`, bounded by the coupon's `redeem_by`), or null. */
  expiresAt: number | null;
  maxRedemptions: number | null;
  /** Checkouts that counted a redemption. */
  redeemed: number;
  status: 'active' | 'disabled';
  createdAt: string;
  disabledAt?: string;
}

/** One paid sale with a code. */
export interface CodeSale {
  orderId: string;
  orderID: string;
  createdAt: string;
  paidCents: number;
  discountCents: number;
}

export type RedeemOutcome = 'counted' | 'again' | 'refused';

export interface CodeStore {
  get(code: string): Promise<StoredCode | undefined>;
  /** Puts a new code unless its text is taken (by any code, a disabled one too): false then. */
  create(code: StoredCode): Promise<boolean>;
  /** Turns an active code off; the code as it is after (undefined when there is none). */
  disable(code: string, at: string): Promise<StoredCode | undefined>;
  /** Every code, newest first (at most `limit`). */
  list(limit: number): Promise<StoredCode[]>;
  ofMember(memberId: string): Promise<StoredCode[]>;
  /** A code's paid sales, newest first (at most `limit`). */
  sales(code: string, limit: number): Promise<CodeSale[]>;
  /** Cents refunded so far, by order id. */
  refundedCents(orderIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Counts one redemption for a checkout, first, with a conditional write: the code active,
   * before its expiry and below its limit (`counted`); the same checkout again counts nothing
   * (`again`); a code turned off, expired or used up meanwhile: `refused`, nothing written.
   */
  redeem(code: string, checkoutHash: string, nowSeconds: number): Promise<RedeemOutcome>;
  /** Gives back a redemption whose checkout could not be made (Stripe refused or did not answer). */
  release(code: string, checkoutHash: string): Promise<void>;
}
