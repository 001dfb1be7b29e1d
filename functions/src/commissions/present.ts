import type { Commission } from '@portal/shared/api/sales';
import { commissionFlags, commissionState, presentedStatus } from '@portal/shared/domain/sales-status';
import { formatDate } from '@portal/shared/domain/format';
import { dollars } from '@portal/shared/domain/money';
import { clock } from '../config/clock';
import type { CommissionRecord } from '../orders/sales-store';
import type { MemberFacts } from './commission-store';

/** A commission as the API answers it, and why it cannot move on yet, in the admin's words. */

export const NOT_FULFILLED = 'The order is not fulfilled yet.';
export const NO_PAYOUT_ACCOUNT = 'The member has no payout account yet.';
export const NO_DEBIT_CARD = 'The member has no debit card yet.';

export const stateOf = (commission: CommissionRecord): Commission['state'] => commissionState(commission.status);

/**
 * Why a commission cannot move on yet, for the admin: sent to Stripe needs a fulfilled order and a
 * member with a payout account; paid out needs their debit card. Null when the next step can run
 * (or when the member's facts were not read).
 */
/** The date a person reads for a commission's `availableAt` (UTC, as the apps' dates). */
export const availableDate = (availableAt: number): string => formatDate(new Date(availableAt), 'UTC');
export const onHoldUntil = (availableAt: number): string =>
  `On hold until ${availableDate(availableAt)} UTC (the refund window): it can be sent to Stripe from then.`;
export const HELD_FOR_REVIEW = 'Held for review';

export function blockedReason(
  commission: CommissionRecord,
  member: MemberFacts | undefined,
  now: number = clock.now(),
): string | null {
  const status = presentedStatus(commission.status, commission.availableAt, now);
  if (status === 'paid' || status === 'cancelled' || status === 'reversed' || status === 'clawed_back') return null;
  if (status === 'review') return `${HELD_FOR_REVIEW}: ${commission.statusReason ?? 'an admin must look at it'}.`;
  if (status === 'waiting_for_fulfilment') return NOT_FULFILLED;
  if (status === 'on_hold') return onHoldUntil(commission.availableAt!);
  if (status === 'available' && member && !member.hasPayoutAccount) return NO_PAYOUT_ACCOUNT;
  if (member && !member.hasDebitCard) return NO_DEBIT_CARD;
  return null;
}

export function toCommission(
  commission: CommissionRecord,
  member?: MemberFacts,
  now: number = clock.now(),
): Commission {
  return {
    id: commission.id,
    amount: dollars(commission.amountCents),
    product_id: commission.product_id,
    product_name: commission.product_name,
    order_id: commission.orderId,
    orderID: commission.orderID,
    member: { id: commission.memberId, email: commission.memberEmail },
    isPayed: commissionFlags(commission.status).isPayed,
    isInCustomersAccount: commissionFlags(commission.status).isInCustomersAccount,
    state: stateOf(commission),
    blockedReason: blockedReason(commission, member, now),
    payoutFailure: commission.payoutFailure,
    payoutExpected:
      commission.status === 'paid' && commission.payoutArrivalDate && commission.payoutArrivalDate * 1000 > now
        ? new Date(commission.payoutArrivalDate * 1000).toISOString()
        : null,
    created_at: commission.createdAt,
    status: presentedStatus(commission.status, commission.availableAt, now),
    availableAt: commission.availableAt === undefined ? null : new Date(commission.availableAt).toISOString(),
    statusReason: commission.statusReason ?? null,
    originalAmount: dollars(commission.originalCents ?? commission.amountCents),
    ...(commission.status === 'review' && commission.heldFor ? { reviewable: true } : {}),
    ...(commission.rule ? { rule: commission.rule.text } : {}),
  };
}
