import type { CommissionRecord as SaleCommission } from '../orders/sales-store';
/**
 * The commission item (`COMMISSION#<id>` / `COMMISSION`) as the money movement reads and moves it,
 * with the counters and the member's earnings that move with it in the same transactions.
 */
/** The commission as the sales store keeps it, with what moving its money adds. */
export interface CommissionRecord extends SaleCommission {
  /** When the first attempt to send it to Stripe began (ISO); the transfer's key is reused while it stands. */
  transferPendingAt?: string;
  /**
   * How many transfers Stripe refused definitely (balance too low, account not ready): the
   * transfer's key is `portal:transfer:<id>:<attempt>`, so the try after the cause is fixed is a
   * new request rather than the refusal replayed for 24 h.
   */
  transferAttempt?: number;
  /** Why the last transfer was refused, in words. */
  transferFailure?: string | null;

  /** How many payouts failed (`payout.failed`): the payout's key is `portal:payout:<id>:<attempt>`. */
  payoutAttempt?: number;
  /** Acknowledgements of Stripe's events, ISO times. */
  transferCreatedAt?: string;
  payoutPaidAt?: string;
  /** Stripe's `arrival_date` of its recorded payout (epoch seconds), when known. */
  payoutArrivalDate?: number | null;
  /** The payout batch that holds it (commissions/batches.ts): no other batch or per-commission call moves it meanwhile. */
  batchId?: string;
  /**
   * What a batch netted of it against the member's clawback debt: its transfer carried
   * `amountCents - nettedCents`, so its payout pays that much.
   */
  nettedCents?: number;
}

/** What a member's profile says of their payout account. */
export interface PayoutProfile {
  stripeID: string | null;
  isAccountCreated: 0 | 1;
  isPayoutMethodAdded: 0 | 1;
  /** The `transfers` capability as the last account.updated said it (`active`, `pending`, `inactive`), if known. */
  transfers?: string;
}

export interface CommissionMoneyStore {
  get(id: string): Promise<CommissionRecord | undefined>;
  payoutProfile(memberId: string): Promise<PayoutProfile | undefined>;
  /** The member's commissions not paid yet, in cents (their earnings' `processingCents`). */
  unpaidCents(memberId: string): Promise<number>;
  /**
   * Marks the first attempt to send it (`transferPendingAt`, kept on later attempts) while it is in
   * processing with its order fulfilled; answers the commission after, or undefined when the
   * condition failed (then read it again to say why).
   */
  reserveTransfer(id: string, now: string): Promise<CommissionRecord | undefined>;
  /**
   * Stripe refused the transfer of `attempt` definitely: the attempt + 1, the reason, and the
   * pending marker cleared (the next try's key is new), while still in processing at `attempt`.
   */
  refuseTransfer(id: string, attempt: number, failure: string, now: string): Promise<boolean>;
  /**
   * In processing → in Stripe, with the transfer: the commission, its list (gsi2 to_stripe →
   * to_be_paid) and the counters in one transaction. False when it was no longer in processing.
   */
  completeTransfer(commission: CommissionRecord, transferId: string, now: string): Promise<boolean>;
  /**
   * Sets `payoutAttempt` (0 the first time) while in Stripe and not paid; the commission after, or
   * undefined when the condition failed.
   */
  reservePayout(id: string, now: string): Promise<CommissionRecord | undefined>;
  /**
   * In Stripe → paid, with the payout of `attempt`: the commission (out of gsi2), the counters and
   * the member's earnings in one transaction. False when it was paid already or the attempt moved on.
   */
  completePayout(
    commission: CommissionRecord,
    attempt: number,
    payoutId: string,
    now: string,
    /** Stripe's `arrival_date` of the payout (epoch seconds), kept for the member's mail. */
    arrivalDate?: number | null,
  ): Promise<boolean>;
  /**
   * `payout.failed` after the payout was recorded: paid → back to be paid (gsi2 to_be_paid), the
   * attempt + 1, the reason, counters and earnings reversed; only while `payoutId` is the stored one.
   */
  reversePayout(commission: CommissionRecord, payoutId: string, failure: string, now: string): Promise<boolean>;
  /**
   * `payout.failed` before the payout was recorded (the event outran our write): the attempt + 1 and
   * the reason, while still not paid at `attempt`; the pending write then fails its condition.
   */
  failPendingPayout(id: string, attempt: number, failure: string, now: string): Promise<boolean>;
  /** Records an acknowledged event's time once (`transferCreatedAt`, `payoutPaidAt`). */
  acknowledge(
    id: string,
    field: 'transferCreatedAt' | 'payoutPaidAt',
    when: string,
    condition: { transferId?: string; payoutAttempt?: number },
  ): Promise<boolean>;
}
