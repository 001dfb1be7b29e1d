/**
 * The discount codes' store (issue 39), as the codes capability needs it: the code item (its
 * Stripe ids, terms, limits, redemptions and state), one item per checkout that counted a
 * redemption, and the code's sales (written in each sale's transaction, orders/record-sale.ts; a
 * refund keeps their refunded cents equal to the order's).
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

/** One paid sale with a code, with what was refunded of it so far. */
export interface CodeSale {
  orderId: string;
  orderID: string;
  createdAt: string;
  paidCents: number;
  discountCents: number;
  refundedCents: number;
}

/** A code with every paid sale of it, oldest first. */
export interface CodeWithSales {
  code: StoredCode;
  sales: CodeSale[];
}

export type RedeemOutcome = 'counted' | 'again' | 'refused';

export interface CodeStore {
  get(code: string): Promise<StoredCode | undefined>;
  /** Puts a new code unless its text is taken (by any code, a disabled one too): false then. */
  create(code: StoredCode): Promise<boolean>;
  /** Turns an active code off; the code as it is after (undefined when there is none). */
  disable(code: string, at: string): Promise<StoredCode | undefined>;
  /** Every code with its paid sales and their refunds: one Query (in pages of 1 MB) of the list by code (decision 0461). */
  listWithSales(): Promise<CodeWithSales[]>;
  ofMember(memberId: string): Promise<StoredCode[]>;
  /**
   * Counts one redemption for a checkout, first, with a conditional write: the code active,
   * before its expiry and below its limit (`counted`); the same checkout again counts nothing
   * (`again`); a code turned off, expired or used up meanwhile: `refused`, nothing written.
   */
  redeem(code: string, checkoutHash: string, nowSeconds: number): Promise<RedeemOutcome>;
  /** Gives back a redemption whose checkout could not be made (Stripe refused or did not answer). */
  release(code: string, checkoutHash: string): Promise<void>;
}
