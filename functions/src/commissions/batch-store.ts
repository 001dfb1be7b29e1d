/**
 * The payout batches' items (commissions/batches.ts): a member's payout lock, their part of a
 * batch, their clawback debt, and the commissions a batch claims and moves. Every write is
 * conditional on the state the batch read, so two runs of one batch (a retry, a second tab) move
 * each commission once.
 */

/** What a batch does with a member's commissions. */
export type BatchKind = 'send' | 'pay' | 'daily' | 'withdraw';

/**
 * `claimed`: the commissions are held by the batch, nothing at Stripe yet; `transferred`: the
 * transfer is recorded (or none was needed), the payout is still to make; `sent`, `paid`: done;
 * `released`: Stripe refused the transfer, the commissions and the debt are as before;
 * `payout_failed`: the card refused the payout after it was made (`payout.failed`): its commissions
 * are back in Stripe to be paid, free for any batch or button.
 */
export type StoredBatchState = 'claimed' | 'transferred' | 'sent' | 'paid' | 'released' | 'payout_failed';

/** A commission as a batch carries it. */
export interface BatchCommission {
  id: string;
  amountCents: number;
  /** The status it was claimed in. */
  from: 'processing' | 'in_stripe';
  /**
   * Netted against the member's debt by this batch (from processing), or by an earlier one (an
   * in-Stripe commission whose transfer carried less).
   */
  nettedCents: number;
  chargeId?: string;
  orderID: string;
  createdAt: string;
}

/**
 * One transfer of a batch (docs/decisions/0280-one-transfer-per-charge.md): the commissions of one
 * card sale, funded from its charge (`source_transaction`, so the platform's available balance is
 * never needed), or those of orders entered by hand (`chargeId` null), drawn on the balance the
 * platform keeps for them.
 */
export interface BatchTransfer {
  chargeId: string | null;
  amountCents: number;
  commissionIds: string[];
  /** Stripe's transfer, once recorded. */
  id: string | null;
  /** The member's instant fee taken off this transfer (decision 0270); given back by the top-up if Stripe refuses instant. */
  feeCents?: number;
}

/** A commission a batch could take (read from the member's list; the claim's conditions decide). */
export type CandidateCommission = BatchCommission & {
  /** Why its last payout failed (`payout.failed`, or a refused payout), while it waits to be paid again. */
  payoutFailure?: string;
  /** The payout that failed, when Stripe made one, and its amount (a batch's payout carries several commissions). */
  failedPayoutId?: string;
  failedPayoutCents?: number;
  /** When its commission record last changed (ISO): the failure's time for the member's banner. */
  updatedAt?: string;
};

/** One member's part of a batch: `BATCH#<batchId>` / `MEMBER#<memberId>`. */
export interface MemberBatch {
  batchId: string;
  memberId: string;
  memberEmail: string;
  kind: BatchKind;
  state: StoredBatchState;
  commissions: BatchCommission[];
  /** The debt read when the batch was claimed, and what the batch netted of it (the debt is lowered by the claim). */
  owedSeenCents: number;
  nettedCents: number;
  /**
   * What the transfers carry in all (0: none): the processing commissions less what was netted,
   * less the instant fee when the member pays it (decision 0270).
   */
  transferCents: number;
  /**
   * The transfers, one per charge (and one for orders entered by hand), under the batch's
   * `transfer_group`; absent on a batch claimed before decision 0280, which made one transfer
   * (`transferId`, key `…:transfer:0`).
   */
  transfers?: BatchTransfer[];
  /** A batch claimed before decision 0280: its one transfer. */
  transferId?: string | null;
  /** The payout to make (0: none). */
  payoutCents: number;
  /** The instant fee: the member's (taken off the transfer), or what Stripe bills the platform. */
  feeCents: number;
  /** Who pays the instant fee (instant withdrawals only). */
  feePaidBy?: 'member' | 'platform';
  /**
   * Stripe refused instant, in words: the batch pays by standard payout, no fee; a member's fee
   * taken off the transfer is sent in a second transfer (`topUpCents`, `topUpTransferId`).
   */
  instantRefused?: string | null;
  topUpCents?: number;
  topUpTransferId?: string | null;
  /**
   * The instant payout the member paid a fee for failed after it was made (`payout.failed`): that
   * fee, given back by a transfer keyed by the payout (`feeBackTransferId` once made), so the
   * member's Stripe balance holds all the commissions that wait again (decision 0340).
   */
  feeBackCents?: number;
  feeBackTransferId?: string | null;
  method: 'instant' | 'standard' | null;
  payoutId: string | null;
  /** Moves on after Stripe refuses a payout definitely, so the next try is a new request. */
  payoutAttempt: number;
  /** Stripe's `arrival_date` of the recorded payout (epoch seconds), when known. */
  arrivalDate?: number | null;
  /** When Stripe said the payout was paid (`payout.paid`, the event's time, ISO). */
  payoutPaidAt?: string;
  failure: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The lock's answer: taken for this batch, or held for another (`busy` while a run works on it). */
export type LockResult = { acquired: true } | { acquired: false; openBatchId: string; busy: boolean };

/** The outcome of a claim: recorded, the batch existed already (another run of it), or a commission or the debt changed under it. */
export type ClaimResult = 'claimed' | 'exists' | 'changed';

export interface PayoutBatchStore {
  /**
   * Takes the member's lock for `batchId` while no other batch is open for them (the same batch
   * may always enter: it is a retry), marking it busy until `busyUntil` (epoch ms).
   */
  lock(memberId: string, batchId: string, now: number, busyUntil: number): Promise<LockResult>;
  /** The batch stays open but no run works on it (the next run of any batch for the member resumes it). */
  pause(memberId: string, batchId: string): Promise<void>;
  /** The batch is finished: the member's lock is free. */
  unlock(memberId: string, batchId: string): Promise<void>;
  get(batchId: string, memberId: string): Promise<MemberBatch | undefined>;
  /**
   * The member's commissions a batch could take, oldest first: available in processing (no
   * `availableAt` or one passed) or in Stripe and unpaid, held by no batch, no per-commission
   * call in flight and no refund's reversal.
   */
  candidates(memberId: string, now: number): Promise<CandidateCommission[]>;
  /** The member's clawback debt in cents (0 when none). */
  owed(memberId: string): Promise<number>;
  /** A page of the members who owe (debt above 0), by member id, with their e-mail as their profile has it now. */
  debts(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: { memberId: string; memberEmail: string; owedCents: number }[]; nextCursor: string | null }>;
  /**
   * One transaction: the batch item (if it does not exist), each commission marked with the batch
   * (conditional on its status and on no batch or call holding it), and the debt lowered by what
   * was netted (conditional on the value read).
   */
  claim(batch: MemberBatch): Promise<ClaimResult>;
  /** Stripe refused the transfer: the batch released, its commissions free again, the debt given back. */
  release(batch: MemberBatch, failure: string, now: string): Promise<boolean>;
  /**
   * The transfers recorded (`batch.transfers` with their ids; none needed: empty): the processing
   * commissions to in Stripe, each naming its own transfer (wholly netted ones to paid, settled
   * against the debt), counters and earnings; a `send` batch frees them and is done.
   */
  recordTransfer(batch: MemberBatch, now: string): Promise<boolean>;
  /**
   * Stripe refused the payout: the reason (on the batch and on each commission it would pay, for
   * the admin) and the attempt moved on; the batch stays transferred.
   */
  refusePayout(batch: MemberBatch, failure: string, now: string): Promise<boolean>;
  /**
   * Stripe refused the instant payout (`reason`, in words): the batch pays by standard payout, no
   * fee, its payout being what was transferred plus `topUpCents` (the member's fee given back by a
   * second transfer); the attempt moves on. Conditional on the state and attempt read.
   */
  fallBackToStandard(batch: MemberBatch, reason: string, topUpCents: number, now: string): Promise<boolean>;
  /** The second transfer of a fallback recorded (once). */
  recordTopUp(batch: MemberBatch, transferId: string, now: string): Promise<boolean>;
  /**
   * Stripe refused the batch's payout at its create: the batch to `payout_failed` with the reason and
   * the attempt moved on (while `transferred` at that attempt); every commission it would pay keeps
   * the reason, stays in Stripe and is freed for the next payout. No counter moves.
   */
  dropPayout(batch: MemberBatch, failure: string, now: string): Promise<boolean>;
  /** The payout recorded (or none needed): every carried commission in Stripe to paid, freed; counters and earnings. */
  recordPayout(batch: MemberBatch, payoutId: string | null, now: string): Promise<boolean>;
  /**
   * `payout.failed` for the batch's recorded payout: the batch to `payout_failed` with the reason,
   * every commission it paid back to in Stripe and free (counters and earnings back), only while
   * `payoutId` is the stored one. `feeBackCents` (> 0): the member's instant fee to give back, kept
   * on the batch with no transfer yet.
   */
  failPayout(
    batch: MemberBatch,
    payoutId: string,
    failure: string,
    now: string,
    feeBackCents?: number,
  ): Promise<boolean>;
  /** The transfer giving a failed payout's member fee back recorded (once, while none is). */
  recordFeeBack(batch: MemberBatch, transferId: string, now: string): Promise<boolean>;
  /** `payout.paid` for the batch's recorded payout: its time kept once; false when the batch is not paid by that payout. */
  acknowledgePayoutPaid(batch: MemberBatch, payoutId: string, paidAt: string): Promise<boolean>;
  /** Members with commissions in processing or in Stripe (the admin's "everyone", the daily job), with their e-mail. */
  membersWithOpenCommissions(): Promise<{ memberId: string; memberEmail: string }[]>;
}
