import type { Commission } from '@portal/shared/api/sales';
import { commissionFlags, presentedStatus } from '@portal/shared/domain/sales-status';
import { DomainError, conflict } from '../errors';
import { MoneyRefusal, type GatewayEvent, type PaymentGateway } from '../payments/payment-gateway';
import { NO_DEBIT_CARD, NO_PAYOUT_ACCOUNT, onHoldUntil, toCommission } from './present';
import type { CommissionMoneyStore, CommissionRecord, PayoutProfile } from './money-store';

/**
 * Moving a commission's money: to the member's Stripe balance (a transfer), then to their debit
 * card (a payout). Each Stripe call carries a key derived from the commission and the step, and
 * our write is conditional on the state the call started from, so a retry after a crash between
 * Stripe and the table replays the same transfer or payout and completes the write, and any number
 * of concurrent calls make one transfer and one state change. docs/architecture.md#payments-stripe-connect.
 */

export interface MoneyDeps {
  store: CommissionMoneyStore;
  gateway: PaymentGateway;
  now: () => number;
}

/** Stripe keeps an idempotency key for 24 h; past this age a pending transfer is looked up at Stripe first. */
export const KEY_SAFE_AGE_MS = 23 * 3600 * 1000;

export const transferKey = (commissionId: string, attempt: number): string =>
  `portal:transfer:${commissionId}:${attempt}`;
export const payoutKey = (commissionId: string, attempt: number): string => `portal:payout:${commissionId}:${attempt}`;

export const VERIFYING =
  "Stripe is still verifying the member's payout account: it cannot receive transfers until that is done. Try again later.";
/** A per-commission button on a commission a payout batch holds (commissions/batches.ts). */
export const IN_BATCH =
  'This commission is being moved in a payout batch right now ("Send all available", "Pay all", the daily payouts or a withdrawal): the batch sends and pays it. Reload the list in a moment.';
export const CANNOT_TAKE_TRANSFERS_YET =
  "The member's payout account cannot receive transfers yet: Stripe needs some of their details corrected. Ask the member to check their payout account page.";

/** Why the member cannot be paid yet, in words for the admin; null when they can. */
function memberBlock(profile: PayoutProfile | undefined): string | null {
  if (!profile) return 'The member no longer exists.';
  if (profile.isAccountCreated !== 1 || !profile.stripeID) return NO_PAYOUT_ACCOUNT;
  if (profile.isPayoutMethodAdded !== 1) return NO_DEBIT_CARD;
  return null;
}

/** The commission as the lists present it (orders/present.ts), with what its member's profile says. */
export function present(commission: CommissionRecord, profile?: PayoutProfile): Commission {
  const member = profile && {
    id: commission.memberId,
    email: commission.memberEmail,
    hasPayoutAccount: profile.isAccountCreated === 1 && Boolean(profile.stripeID),
    hasDebitCard: profile.isPayoutMethodAdded === 1,
  };
  return toCommission(commission, member);
}

async function load(deps: MoneyDeps, id: string): Promise<CommissionRecord> {
  const commission = await deps.store.get(id);
  if (!commission) throw new DomainError('not-found', 'No such commission.');
  return commission;
}

/** The member's connected account, or a 409 saying what is missing. */
async function payableAccount(deps: MoneyDeps, commission: CommissionRecord): Promise<[string, PayoutProfile]> {
  const profile = await deps.store.payoutProfile(commission.memberId);
  const block = memberBlock(profile);
  if (block || !profile?.stripeID) throw conflict(block ?? 'The member has no payout account yet.');
  return [profile.stripeID, profile];
}

/** The commission after another request's write: the same answer when it made the same move. */
function sameMove(commission: CommissionRecord, check: (c: CommissionRecord) => boolean, what: string) {
  if (check(commission)) return commission;
  throw new Error(`Commission ${commission.id}: ${what}`);
}

/**
 * `/api/addCommisionToStripe`: in processing → in the member's Stripe balance. Allowed only for a
 * commission in processing whose order is fulfilled and whose member has a payout account with a
 * card. A commission already in Stripe (another call, or a retry after our answer was lost)
 * answers as it is: every concurrent call gets the same answer.
 */
export async function addCommissionToStripe(deps: MoneyDeps, id: string): Promise<Commission> {
  const found = await load(deps, id);
  if (commissionFlags(found.status).isInCustomersAccount === 1) {
    return present(found, await deps.store.payoutProfile(found.memberId));
  }
  refuseUnsendable(found, deps.now());
  if (found.batchId) throw conflict(IN_BATCH);
  const [accountId, profile] = await payableAccount(deps, found);
  // What the stored state already says, before asking Stripe (account.updated keeps it current).
  if (profile.transfers === 'pending') throw conflict(VERIFYING);
  if (profile.transfers === 'inactive') throw conflict(CANNOT_TAKE_TRANSFERS_YET);

  // (a) The pending marker, first: its time says whether Stripe still holds the key.
  const reserved = await deps.store.reserveTransfer(id, new Date(deps.now()).toISOString());
  if (!reserved) return addCommissionToStripeAfterRace(deps, id);
  const pendingSince = Date.parse(reserved.transferPendingAt ?? '') || deps.now();
  const attempt = reserved.transferAttempt ?? 0;

  // (b) The transfer: the same key replays the same transfer for 24 h; an older attempt is looked up.
  let transferId: string | undefined;
  if (deps.now() - pendingSince > KEY_SAFE_AGE_MS) {
    transferId = (await deps.gateway.findTransfer(accountId, 'commissionId', id))?.id;
  }
  try {
    transferId ??= (
      await deps.gateway.createTransfer({
        amountCents: reserved.amountCents,
        destinationAccountId: accountId,
        idempotencyKey: transferKey(id, attempt),
        metadata: {
          commissionId: id,
          orderID: reserved.orderID,
          memberId: reserved.memberId,
          attempt: String(attempt),
        },
        // A card sale's charge funds it (pending funds may go); an order entered by hand draws on the available balance.
        ...(reserved.chargeId ? { sourceTransaction: reserved.chargeId } : {}),
      })
    ).id;
  } catch (error) {
    // A definite refusal moves the attempt on, so the try after its cause is fixed is a new
    // request; a conflict of keys or a fault of the network keeps it (the same key replays).
    if (error instanceof MoneyRefusal) {
      await deps.store.refuseTransfer(id, attempt, error.message, new Date(deps.now()).toISOString());
    }
    throw error;
  }

  // (c) Our write, conditional on still being in processing: one state change whoever gets here.
  const now = new Date(deps.now()).toISOString();
  if (await deps.store.completeTransfer(reserved, transferId, now)) {
    return present({ ...reserved, status: 'in_stripe', transferId, updatedAt: now }, profile);
  }
  const after = sameMove(
    await load(deps, id),
    (c) => commissionFlags(c.status).isInCustomersAccount === 1 && c.transferId === transferId,
    `stored transfer differs from ${transferId}`,
  );
  return present(after, profile);
}

async function addCommissionToStripeAfterRace(deps: MoneyDeps, id: string): Promise<Commission> {
  const current = await load(deps, id);
  if (commissionFlags(current.status).isInCustomersAccount === 1) {
    return present(current, await deps.store.payoutProfile(current.memberId));
  }
  if (current.batchId) throw conflict(IN_BATCH);
  refuseUnsendable(current, deps.now());
  throw conflict('This commission changed at the same time; the list is reloaded.');
}

/** The 409 in words for a commission that cannot be sent to Stripe now (on hold, not fulfilled, a side exit). */
function refuseUnsendable(commission: CommissionRecord, now: number): void {
  const status = presentedStatus(commission.status, commission.availableAt, now);
  if (status === 'available') return;
  if (status === 'waiting_for_fulfilment') throw conflict('The order of this commission is not fulfilled yet.');
  if (status === 'on_hold')
    throw conflict(`This commission is ${onHoldUntil(commission.availableAt!).replace(/^On/, 'on')}`);
  if (status === 'review') {
    throw conflict(
      `This commission is held for review (${commission.statusReason ?? 'an admin must look at it'}): it cannot be sent until the review ends.`,
    );
  }
  throw conflict(
    `This commission was ${SIDE_EXIT_WORDS[status as keyof typeof SIDE_EXIT_WORDS] ?? status}: there is nothing to send.`,
  );
}

const SIDE_EXIT_WORDS = {
  cancelled: 'cancelled (its order was refunded)',
  reversed: 'reversed (its order was refunded after it was sent)',
  clawed_back: 'clawed back (its order was refunded after it was paid)',
  in_stripe: "sent to the member's Stripe balance already",
  paid: 'paid already',
} as const;

/**
 * `/api/payCommisionToMember`: in Stripe → paid to the member's debit card. Only from in Stripe and
 * not paid; the payout's key carries the attempt, which moves on after a `payout.failed` or a
 * definite refusal of the create (never after a fault).
 * A paid commission answers as it is.
 */
export async function payCommissionToMember(deps: MoneyDeps, id: string): Promise<Commission> {
  const found = await load(deps, id);
  if (found.status === 'paid') return present(found, await deps.store.payoutProfile(found.memberId));
  if (
    found.status === 'review' ||
    found.status === 'reversed' ||
    found.status === 'clawed_back' ||
    found.status === 'cancelled'
  ) {
    refuseUnsendable(found, deps.now());
  }
  if (found.status !== 'in_stripe') {
    throw conflict("This commission is not in the member's Stripe balance yet: send it to Stripe first.");
  }
  if (found.batchId) throw conflict(IN_BATCH);
  const [accountId, profile] = await payableAccount(deps, found);
  const reserved = await deps.store.reservePayout(id, new Date(deps.now()).toISOString());
  if (!reserved) {
    const current = await load(deps, id);
    if (current.status === 'paid') return present(current, profile);
    if (current.batchId) throw conflict(IN_BATCH);
    if (current.status !== 'in_stripe') refuseUnsendable(current, deps.now());
    throw conflict("A refund of this commission's order is being applied to it; try again in a minute.");
  }
  const attempt = reserved.payoutAttempt ?? 0;
  let payout: Awaited<ReturnType<PaymentGateway['createPayout']>>;
  try {
    payout = await deps.gateway.createPayout({
      accountId,
      // What its transfer carried: a batch may have netted part of it against a clawback debt.
      amountCents: reserved.amountCents - (reserved.nettedCents ?? 0),
      idempotencyKey: payoutKey(id, attempt),
      metadata: { commissionId: id, attempt: String(attempt), orderID: reserved.orderID },
    });
  } catch (error) {
    // A definite refusal (the member's balance too low, the account gone): the reason kept for the
    // admin and the attempt moved on, so the try after its cause is fixed is a new request rather
    // than the refusal Stripe replays for 24 h under the same key. A fault keeps the key.
    if (error instanceof MoneyRefusal) {
      await deps.store.failPendingPayout(id, attempt, error.message, new Date(deps.now()).toISOString());
    }
    throw error;
  }
  const now = new Date(deps.now()).toISOString();
  if (await deps.store.completePayout(reserved, attempt, payout.id, now, payout.arrivalDate)) {
    return present({ ...reserved, status: 'paid', payoutId: payout.id, payoutFailure: null, updatedAt: now }, profile);
  }
  const current = await load(deps, id);
  if (current.status === 'paid' && current.payoutId === payout.id) return present(current, profile);
  if (current.status !== 'paid' && (current.payoutAttempt ?? 0) > attempt) {
    // The payout failed before our write landed (`payout.failed` outran it): say so.
    throw conflict(`The payout failed: ${current.payoutFailure ?? 'Stripe gave no reason'}. Try again.`);
  }
  return present(
    sameMove(current, (c) => c.status === 'paid', `stored payout differs from ${payout.id}`),
    profile,
  );
}

export type MoneyEvent = Extract<GatewayEvent, { kind: 'payout.failed' | 'payout.paid' | 'transfer.created' }>;

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Stripe's events about the money movement. Each change is conditional on the payout or the
 * attempt it concerns, so a replay or a late event changes nothing.
 */
export async function onMoneyEvent(deps: MoneyDeps, event: MoneyEvent): Promise<boolean> {
  const commissionId = event.metadata.commissionId;
  if (!commissionId) return false;
  if (event.kind === 'transfer.created') {
    return deps.store.acknowledge(commissionId, 'transferCreatedAt', isoOf(event.created), {});
  }
  const attempt = Number(event.metadata.attempt);
  if (!Number.isSafeInteger(attempt)) return false;
  if (event.kind === 'payout.paid') {
    return deps.store.acknowledge(commissionId, 'payoutPaidAt', isoOf(event.created), { payoutAttempt: attempt });
  }
  const failure = event.failure ?? 'The payout failed.';
  // Twice at most: the payout's own write may land between our read and our write.
  for (let round = 0; round < 3; round++) {
    const commission = await deps.store.get(commissionId);
    if (!commission) return false;
    const now = new Date(deps.now()).toISOString();
    if (commission.status === 'paid' && commission.payoutId === event.payoutId) {
      if (await deps.store.reversePayout(commission, event.payoutId, failure, now)) return true;
    } else if (
      commission.status !== 'paid' &&
      (commission.payoutAttempt ?? -1) === attempt &&
      commission.payoutId !== event.payoutId
    ) {
      if (await deps.store.failPendingPayout(commissionId, attempt, failure, now)) return true;
    } else {
      return false;
    }
  }
  return false;
}
