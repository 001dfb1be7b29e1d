import type Stripe from 'stripe';
import { stripeId } from './ids';

/**
 * Money as Stripe keeps it: every movement is a balance transaction of one owner (the platform or
 * a connected account), `pending` until its `available_on`, then `available`. A balance is the
 * sum of its owner's transactions' `net`, by status and currency.
 */

/** Stripe's US price for a domestic card payment: 2.9 % + 30¢ (stripe.com/pricing; decision 0042). */
export const CARD_FEE = { percent: 2.9, fixedCents: 30 } as const;
/** Stripe's dispute fee in the US: $15 (stripe.com/pricing). */
export const DISPUTE_FEE_CENTS = 1500;

export const cardFee = (amount: number): number => Math.round((amount * CARD_FEE.percent) / 100) + CARD_FEE.fixedCents;

const DAY_SECONDS = 86_400;

/**
 * When a card payment's funds become available in test mode: at 00:00 UTC, `delayDays` days
 * after the payment (the account's payout delay, 2 days for a US account), as test mode's
 * `available_on` reads (decision 0042).
 */
export const availableOnAfter = (created: number, delayDays: number): number =>
  (Math.floor(created / DAY_SECONDS) + delayDays) * DAY_SECONDS;

/** The start of the next UTC day after `at` (seconds): when Stripe's daily payouts run. */
export const nextDayStart = (at: number): number => (Math.floor(at / DAY_SECONDS) + 1) * DAY_SECONDS;

export interface Ledger {
  /** Balance transactions by id, each with its owner (`platform` or a connected account id). */
  balanceTransactions: Record<string, { owner: string; transaction: Stripe.BalanceTransaction }>;
}

export interface Movement {
  owner: string;
  amount: number;
  currency: string;
  fee?: number;
  feeDescription?: string;
  type: Stripe.BalanceTransaction.Type;
  source: string | null;
  description?: string | null;
  created: number;
  /** Seconds; at or before `created` means available at once. */
  availableOn: number;
}

export function record(ledger: Ledger, movement: Movement): Stripe.BalanceTransaction {
  const fee = movement.fee ?? 0;
  const transaction = {
    id: stripeId('txn'),
    object: 'balance_transaction',
    amount: movement.amount,
    available_on: Math.max(movement.availableOn, movement.created),
    balance_type: 'payments',
    created: movement.created,
    currency: movement.currency,
    description: movement.description ?? null,
    exchange_rate: null,
    fee,
    fee_details: fee
      ? [
          {
            amount: fee,
            application: null,
            currency: movement.currency,
            description: movement.feeDescription ?? 'Stripe processing fees',
            type: 'stripe_fee',
          },
        ]
      : [],
    net: movement.amount - fee,
    reporting_category: reportingCategory(movement.type),
    source: movement.source,
    status: movement.availableOn <= movement.created ? 'available' : 'pending',
    type: movement.type,
  } as Stripe.BalanceTransaction;
  ledger.balanceTransactions[transaction.id] = { owner: movement.owner, transaction };
  return transaction;
}

function reportingCategory(type: Stripe.BalanceTransaction.Type): string {
  switch (type) {
    case 'charge':
    case 'payment':
      return 'charge';
    case 'payout':
      return 'payout';
    case 'payout_failure':
      return 'payout_reversal';
    case 'transfer':
      return 'transfer';
    case 'transfer_refund':
      return 'transfer_reversal';
    case 'refund':
    case 'payment_refund':
      return 'refund';
    case 'adjustment':
      return 'dispute';
    case 'stripe_fee':
      return 'fee';
    default:
      return 'other_adjustment';
  }
}

/** Available and pending sums of an owner, per currency. */
export function sums(
  ledger: Ledger,
  owner: string,
): { available: Record<string, number>; pending: Record<string, number> } {
  const available: Record<string, number> = {};
  const pending: Record<string, number> = {};
  for (const { owner: who, transaction } of Object.values(ledger.balanceTransactions)) {
    if (who !== owner) continue;
    const into = transaction.status === 'available' ? available : pending;
    into[transaction.currency] = (into[transaction.currency] ?? 0) + transaction.net;
  }
  return { available, pending };
}

/** Moves every pending transaction whose `available_on` has passed to available; answers the owners whose funds moved. */
export function release(ledger: Ledger, nowSeconds: number): Set<string> {
  const owners = new Set<string>();
  for (const { owner, transaction } of Object.values(ledger.balanceTransactions)) {
    if (transaction.status === 'pending' && transaction.available_on <= nowSeconds) {
      transaction.status = 'available';
      owners.add(owner);
    }
  }
  return owners;
}
