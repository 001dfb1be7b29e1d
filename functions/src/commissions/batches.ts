import type {
  BatchOutcome,
  MemberDebtPage,
  MemberPayoutCard,
  WithdrawalQuote,
} from '@portal/shared/api/payout-batches';
import { formatMoney } from '@portal/shared/domain/format';
import type { MoneySettings } from '../config/money-settings';
import { DomainError, conflict } from '../errors';
import {
  InstantRefused,
  MoneyRefusal,
  type ConnectedBalance,
  type FundsState,
  type PaymentGateway,
} from '../payments/payment-gateway';
import { NO_DEBIT_CARD, NO_PAYOUT_ACCOUNT } from './present';
import { payoutFailureWords } from '../payments/payout-failures';
import type {
  BatchCommission,
  BatchKind,
  BatchTransfer,
  CandidateCommission,
  MemberBatch,
  PayoutBatchStore,
} from './batch-store';
import type { CommissionMoneyStore, PayoutProfile } from './money-store';
import { CANNOT_TAKE_TRANSFERS_YET, VERIFYING } from './money-movement';

/**
 * Fewer, larger money movements (issue 27; docs/decisions/0130-payout-batches.md). A member's
 * part of a batch moves their available commissions in one transfer PER CHARGE (to their Stripe
 * balance, under one `transfer_group`; docs/decisions/0280-one-transfer-per-charge.md) and ONE
 * payout (to their debit card), whoever starts it: an admin's "Send all available" / "Pay all",
 * the daily job, or the member's withdrawal. Each run goes:
 *
 * 1. **lock**: the member's payout lock names the open batch; another batch waits (a busy one
 *    answers in words; an open one nobody works on is resumed first), the same batch may enter
 *    again (a retry heals a crash);
 * 2. **claim**, one transaction BEFORE Stripe: the batch item listing its commissions, each
 *    commission marked with the batch (conditional on its status and on no batch or per-commission
 *    call holding it), the member's clawback debt lowered by what the batch nets of it
 *    (conditional on the value read);
 * 3. **transfers**, each with `portal:batch:<batchId>:<memberId>:transfer:<chargeId>` and its charge
 *    as `source_transaction` (the platform's available balance, which Stripe pays out daily, is
 *    never needed for a card sale); the commissions of orders entered by hand in one transfer
 *    (`…:transfer:balance`) drawn on the balance the platform keeps; a refusal of one reverses
 *    those made before it (`…:undo:<transferId>`) and releases the batch; then their record
 *    (each commission to in Stripe naming its own transfer) conditional on the claimed state;
 * 4. **payout** with `portal:batch:<batchId>:<memberId>:payout:<attempt>`, then its record
 *    (commissions to paid) conditional on the transferred state; the lock is freed.
 *
 * A crash anywhere leaves the batch's state: the next run of the same batch (or of any batch for
 * that member) continues from it with the same keys, so Stripe answers the same objects.
 */

export interface BatchDeps {
  batches: PayoutBatchStore;
  money: Pick<CommissionMoneyStore, 'payoutProfile'>;
  gateway: PaymentGateway;
  now: () => number;
  settings: () => MoneySettings;
  /** Called once a batch's payout is recorded (and on each later run of a paid batch); must not throw. */
  paidOut?: (batch: MemberBatch) => Promise<void>;
}

/** At most this many commissions per member and batch: the claim and each record are one transaction (100 items). */
export const MAX_BATCH_COMMISSIONS = 90;
/** A run holds the member's lock this long; past it another run may resume the batch (the functions stop at 29 s). */
export const BUSY_MS = 60_000;

/**
 * Stripe's Instant Payouts fee for Connect: 1 % of the payout, billed to the PLATFORM (its
 * balance), not taken from the member's (docs.stripe.com/connect/instant-payouts, "Pricing";
 * decision 0270). 0.50 USD and 9,999 USD bound the payout itself, not the fee.
 */
export const instantFeeCents = (amountCents: number): number => Math.round(amountCents / 100);
export const INSTANT_MINIMUM_CENTS = 50;
export const INSTANT_MAXIMUM_CENTS = 999_900;

/**
 * An instant withdrawal of `payableCents`. Paid by the platform: the member receives it all and
 * Stripe bills the platform 1 %. Paid by the member: the platform sends the commissions less the
 * fee (a smaller transfer) and the member receives what was sent: the largest payout whose 1 %
 * fits beside it in the payable amount; the member's fee is the rest (to the cent:
 * payout + fee = payable). Stripe bills the platform 1 % of the payout, which the member's fee covers.
 */
export function instantSplit(
  payableCents: number,
  paidBy: MoneySettings['INSTANT_FEE_PAID_BY'],
): { payoutCents: number; feeCents: number } {
  if (paidBy === 'platform') return { payoutCents: payableCents, feeCents: instantFeeCents(payableCents) };
  let payout = payableCents - instantFeeCents(payableCents);
  while (payout + 1 + instantFeeCents(payout + 1) <= payableCents) payout++;
  return { payoutCents: payout, feeCents: payableCents - payout };
}

/** A batch's transfer of one charge (`part` = its id), of the orders entered by hand (`balance`), or `0` (a batch claimed before 0280). */
export const transferKey = (batchId: string, memberId: string, part: string): string =>
  `portal:batch:${batchId}:${memberId}:transfer:${part}`;
/** The reversal of a batch's transfer made before another of its transfers was refused. */
export const undoKey = (batchId: string, memberId: string, transferId: string): string =>
  `portal:batch:${batchId}:${memberId}:undo:${transferId}`;
/** Stripe's `transfer_group` of a member's part of a batch: its transfers are found together. */
export const transferGroup = (batchId: string, memberId: string): string => `batch:${batchId}:${memberId}`;

/** Why Stripe would refuse an instant payout of this amount, in words; null when it may go instant. */
export function instantAmountBlock(payoutCents: number): string | null {
  if (payoutCents < INSTANT_MINIMUM_CENTS) return `an instant payout is at least ${formatMoney(INSTANT_MINIMUM_CENTS)}`;
  if (payoutCents > INSTANT_MAXIMUM_CENTS) return `an instant payout is at most ${formatMoney(INSTANT_MAXIMUM_CENTS)}`;
  return null;
}

/** The words of a withdrawal paid by standard payout because instant is not available (Stripe's reason, or the amount). */
export const instantUnavailable = (why: string, arrival: string | null): string =>
  `Instant payouts are not available (${why}); paid by standard payout${arrival ? `, arriving on ${arrival}` : ''}, no fee.`;

export const payoutKey = (batchId: string, memberId: string, attempt: number): string =>
  `portal:batch:${batchId}:${memberId}:payout:${attempt}`;

/** The daily job's batch id: one batch per member and UTC day. */
export const dailyBatchId = (nowMs: number): string => `daily-${new Date(nowMs).toISOString().slice(0, 10)}`;

const dollars = (cents: number) => cents / 100;
const sum = (items: readonly BatchCommission[], of: (c: BatchCommission) => number) =>
  items.reduce((total, item) => total + of(item), 0);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What a member's batch would carry now, computed from the candidates and the debt. */
export interface BatchPlan {
  commissions: BatchCommission[];
  owedSeenCents: number;
  nettedCents: number;
  /** Transfer without any fee. */
  netTransferCents: number;
  /** What is payable to the card before any fee: the net transfer plus what is already in Stripe. */
  payableCents: number;
}

/**
 * The netting rule: the debt is taken from the processing commissions, oldest first, never more
 * than they carry (never a transfer below zero); each commission keeps what was netted of it, so
 * its payout later pays the rest. In-Stripe commissions carry what their own transfer carried.
 */
export function plan(candidates: readonly BatchCommission[], owedCents: number, kind: BatchKind): BatchPlan {
  const taken = candidates.filter((c) => kind !== 'send' || c.from === 'processing').slice(0, MAX_BATCH_COMMISSIONS);
  let left = Math.max(0, owedCents);
  const commissions = taken.map((commission) => {
    if (commission.from !== 'processing') return commission;
    const netted = Math.min(left, commission.amountCents);
    left -= netted;
    return { ...commission, nettedCents: netted };
  });
  const processing = commissions.filter((c) => c.from === 'processing');
  const nettedCents = sum(processing, (c) => c.nettedCents);
  const netTransferCents = sum(processing, (c) => c.amountCents) - nettedCents;
  const inStripe = sum(
    commissions.filter((c) => c.from === 'in_stripe'),
    (c) => c.amountCents - c.nettedCents,
  );
  return {
    commissions,
    owedSeenCents: Math.max(0, owedCents),
    nettedCents,
    netTransferCents,
    payableCents: netTransferCents + inStripe,
  };
}

/**
 * The batch's transfers: the processing commissions it carries (less what was netted), one
 * transfer per charge in their order, those of orders entered by hand (no charge) in one transfer
 * first (the one Stripe may refuse for the platform's balance, before anything else moved). An
 * instant fee the member pays comes off the largest transfer of a sale (else the balance's), which
 * `instantTerms` checked can carry it (decision 0270); a fee the platform pays Stripe bills it.
 */
export function transferParts(commissions: readonly BatchCommission[], memberFeeCents = 0): BatchTransfer[] {
  const parts = new Map<string | null, BatchTransfer>();
  for (const commission of commissions) {
    if (commission.from !== 'processing' || commission.nettedCents >= commission.amountCents) continue;
    const chargeId = commission.chargeId ?? null;
    const part = parts.get(chargeId) ?? { chargeId, amountCents: 0, commissionIds: [], id: null };
    part.amountCents += commission.amountCents - commission.nettedCents;
    part.commissionIds.push(commission.id);
    parts.set(chargeId, part);
  }
  const ordered = [...parts.values()].sort((a, b) => Number(a.chargeId !== null) - Number(b.chargeId !== null));
  if (memberFeeCents > 0) {
    const carrier = feeCarrier(ordered);
    if (carrier) {
      carrier.amountCents -= memberFeeCents;
      carrier.feeCents = memberFeeCents;
    }
  }
  return ordered;
}

/** The transfer a member's instant fee comes off: the largest of a sale, else the largest. */
function feeCarrier(parts: readonly BatchTransfer[]): BatchTransfer | undefined {
  const bySize = [...parts].sort((a, b) => b.amountCents - a.amountCents);
  return bySize.find((part) => part.chargeId !== null) ?? bySize[0];
}

/** The transfers a stored batch makes (one batch claimed before 0280 made one transfer, key `…:transfer:0`). */
const transfersOf = (batch: MemberBatch): BatchTransfer[] =>
  batch.transfers ??
  (batch.transferCents > 0
    ? [
        {
          chargeId: null,
          amountCents: batch.transferCents,
          commissionIds: batch.commissions.filter((c) => c.from === 'processing').map((c) => c.id),
          id: null,
        },
      ]
    : []);

/** The charge of the transfer a member's instant fee came off, if it was a sale's. */
const feeChargeOf = (batch: MemberBatch): string | null =>
  batch.transfers?.find((part) => (part.feeCents ?? 0) > 0)?.chargeId ?? null;

/** The member's set-up steps, naming where they are in the member app (My Account's cards). */
export const SET_UP_ACCOUNT_FIRST = 'Set up your payout account first: My Account, Payout Account.';
export const ADD_CARD_FIRST = 'Add a debit card first: My Account, Payout Methods.';

/** Funds Stripe still holds as pending: how much, and the day they become available (epoch seconds; null: unknown). */
export interface PendingFunds {
  amountCents: number;
  availableOn: number | null;
}

/**
 * Which of the candidates Stripe can pay out to the card now (issue 34): a commission still in
 * processing whose sale's charge is pending at Stripe would reach the member's balance pending
 * (its transfer names the charge), so its payout would be refused; one already in the member's
 * Stripe balance is payable while the balance's available funds cover it (oldest first). The rest
 * is pending, with the day Stripe gives. Asked before anything is claimed, so a payout is never
 * made of funds that are not there, and nothing is left open waiting for them.
 */
export async function fundsReady(
  gateway: Pick<PaymentGateway, 'chargeFunds' | 'connectedBalance'>,
  accountId: string,
  candidates: readonly CandidateCommission[],
): Promise<{ ready: CandidateCommission[]; pending: PendingFunds[] }> {
  const ready: CandidateCommission[] = [];
  const pending: PendingFunds[] = [];
  const inStripe = candidates.some((c) => c.from === 'in_stripe');
  const balance: ConnectedBalance | undefined = inStripe ? await gateway.connectedBalance(accountId) : undefined;
  const charges = [...new Set(candidates.flatMap((c) => (c.from === 'processing' && c.chargeId ? [c.chargeId] : [])))];
  const funds = new Map<string, FundsState | undefined>(
    await Promise.all(charges.map(async (id) => [id, await gateway.chargeFunds(id)] as const)),
  );
  let left = balance?.availableCents ?? 0;
  for (const candidate of candidates) {
    if (candidate.from === 'in_stripe') {
      const carried = candidate.amountCents - candidate.nettedCents;
      if (carried <= left) {
        left -= carried;
        ready.push(candidate);
      } else {
        const day = balance?.pending.find((entry) => entry.amountCents > 0)?.availableOn ?? null;
        pending.push({ amountCents: carried, availableOn: day });
      }
      continue;
    }
    const state = candidate.chargeId ? funds.get(candidate.chargeId) : undefined;
    if (state && !state.available) pending.push({ amountCents: candidate.amountCents, availableOn: state.availableOn });
    else ready.push(candidate);
  }
  return { ready, pending };
}

/** Pending funds summed by the day they become available, earliest first (unknown days last). */
export function pendingByDay(pending: readonly PendingFunds[]): PendingFunds[] {
  const days = new Map<number | null, number>();
  for (const entry of pending) {
    const day = entry.availableOn === null ? null : Math.floor(entry.availableOn / 86_400) * 86_400;
    days.set(day, (days.get(day) ?? 0) + entry.amountCents);
  }
  return [...days.entries()]
    .map(([availableOn, amountCents]) => ({ amountCents, availableOn }))
    .sort((a, b) => (a.availableOn ?? Infinity) - (b.availableOn ?? Infinity));
}

/** "$12.40 becomes available on 30 Nov" (UTC), one clause per day, joined. */
export function pendingWords(pending: readonly PendingFunds[]): string {
  return pendingByDay(pending)
    .map((entry) =>
      entry.availableOn === null
        ? `${formatMoney(entry.amountCents)} is still pending at Stripe`
        : `${formatMoney(entry.amountCents)} becomes available on ${shortDay(entry.availableOn)}`,
    )
    .join('; ');
}

const shortDay = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A candidate as a batch stores it: without what only the member's view reads. */
const asBatchCommission = ({
  payoutFailure: _failure,
  failedPayoutId: _payout,
  failedPayoutCents: _cents,
  updatedAt: _updated,
  ...commission
}: CandidateCommission): BatchCommission => commission;

/** Why the member cannot be paid, in words for the person asking; null when they can. */
function accountBlock(profile: PayoutProfile | undefined, forMember: boolean): string | null {
  if (!profile) return 'The member no longer exists.';
  if (profile.isAccountCreated !== 1 || !profile.stripeID) return forMember ? SET_UP_ACCOUNT_FIRST : NO_PAYOUT_ACCOUNT;
  if (profile.isPayoutMethodAdded !== 1) return forMember ? ADD_CARD_FIRST : NO_DEBIT_CARD;
  if (profile.transfers === 'pending')
    return forMember ? 'Stripe is still verifying your payout account: try again later.' : VERIFYING;
  if (profile.transfers === 'inactive')
    return forMember
      ? 'Stripe needs some of your details corrected before you can be paid: correct them on My Account, Payout Account.'
      : CANNOT_TAKE_TRANSFERS_YET;
  return null;
}

interface Who {
  memberId: string;
  memberEmail: string;
}

function outcome(
  who: Who,
  batchId: string,
  state: BatchOutcome['state'],
  message: string,
  batch?: MemberBatch,
): BatchOutcome {
  return {
    memberId: who.memberId,
    memberEmail: who.memberEmail,
    batchId,
    state,
    commissionCount: batch?.commissions.length ?? 0,
    amount: dollars(batch ? sum(batch.commissions, (c) => c.amountCents) : 0),
    netted: dollars(batch?.nettedCents ?? 0),
    transfer: dollars(batch?.transfers?.some((t) => t.id) ? batch.transferCents : 0),
    payout: dollars(batch?.payoutId ? batch.payoutCents : 0),
    fee: dollars(batch?.feeCents ?? 0),
    method: batch?.payoutId ? batch.method : null,
    transferIds: (batch?.transfers ?? []).flatMap((t) => (t.id ? [t.id] : [])),
    payoutId: batch?.payoutId ?? null,
    message,
  };
}

/** A stored reason as a clause: without its final period (the sentence that quotes it ends it). */
const reasonOf = (failure: string | null) => (failure ?? 'Stripe gave no reason').trim().replace(/\.+$/, '');

/** The outcome of a batch in its stored state, in words. */
function describe(batch: MemberBatch): BatchOutcome {
  const who = { memberId: batch.memberId, memberEmail: batch.memberEmail };
  const count = plural(batch.commissions.length, 'commission');
  const sent = (batch.transfers ?? []).filter((t) => t.id);
  const netted = batch.nettedCents
    ? ` (${formatMoney(batch.nettedCents)} netted against the clawback debt of ${formatMoney(batch.owedSeenCents)})`
    : '';
  switch (batch.state) {
    case 'released':
      return outcome(who, batch.batchId, 'refused', batch.failure ?? 'Stripe refused the transfer.', batch);
    case 'payout_failed':
      return outcome(
        who,
        batch.batchId,
        'refused',
        batch.kind === 'withdraw'
          ? `Stripe did not pay ${formatMoney(batch.payoutCents)} to your card. The money stays in your balance, nothing is lost: withdraw again later, or it goes with the next daily payout.`
          : [
              batch.payoutId
                ? `The payout of ${formatMoney(batch.payoutCents)} to ${batch.memberEmail}'s card failed`
                : `Stripe refused the payout of ${formatMoney(batch.payoutCents)} to ${batch.memberEmail}'s card`,
              `: ${reasonOf(batch.failure)}. Its ${count} are back to be paid, free for the next payout.`,
            ].join(''),
        batch,
      );
    case 'claimed':
    case 'transferred':
      return outcome(
        who,
        batch.batchId,
        'waiting',
        `${formatMoney(batch.payoutCents)} for ${batch.memberEmail} is in their Stripe balance; the payout waits: ${batch.failure ?? 'it is retried by the next run.'}`,
        batch,
      );
    case 'sent':
      return outcome(
        who,
        batch.batchId,
        sent.length ? 'sent' : 'settled',
        sent.length
          ? `Sent ${formatMoney(batch.transferCents)} to ${batch.memberEmail}'s Stripe balance in ${sent.length === 1 ? 'one transfer' : `${sent.length} transfers, one per sale`}: ${count}${netted}.`
          : `${count} of ${batch.memberEmail} settled against their clawback debt${netted}; no money moved.`,
        batch,
      );
    case 'paid': {
      const arrival = arrivalWords(batch.arrivalDate);
      const fee = batch.feeCents
        ? batch.feePaidBy === 'member'
          ? `, instant fee ${formatMoney(batch.feeCents)} paid by the member`
          : `, Stripe's instant fee ${formatMoney(batch.feeCents)} paid by the platform`
        : '';
      return outcome(
        who,
        batch.batchId,
        batch.payoutId ? 'paid' : 'settled',
        batch.payoutId
          ? batch.instantRefused
            ? `${instantUnavailable(batch.instantRefused, arrival)} Paid ${formatMoney(batch.payoutCents)} to ${batch.memberEmail}'s debit card: ${count}${netted}.`
            : `Paid ${formatMoney(batch.payoutCents)} to ${batch.memberEmail}'s debit card (${batch.method === 'instant' ? 'instant' : `standard${arrival ? `, on its way, expected ${arrival}` : ', 1–2 business days'}`}${fee}): ${count}${netted}.`
          : `${count} of ${batch.memberEmail} settled against their clawback debt${netted}; no money moved.`,
        batch,
      );
    }
  }
}

/** A payout's `arrival_date` (epoch seconds) as a date in words ("December 1, 2026", as the mails write it), or null. */
const arrivalWords = (arrivalDate: number | null | undefined): string | null =>
  arrivalDate
    ? new Date(arrivalDate * 1000).toLocaleDateString('en-US', {
        timeZone: 'UTC',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      })
    : null;

/**
 * The instant terms of a withdrawal of `planned`: the payout, the fee and the transfer, or why
 * instant cannot go (words; the withdrawal is then standard, no fee).
 */
function instantTerms(
  planned: BatchPlan,
  paidBy: MoneySettings['INSTANT_FEE_PAID_BY'],
): { payoutCents: number; feeCents: number; transferCents: number } | { block: string } {
  const { payoutCents, feeCents } = instantSplit(planned.payableCents, paidBy);
  const block = instantAmountBlock(payoutCents);
  if (block) return { block };
  if (paidBy === 'platform') return { payoutCents, feeCents, transferCents: planned.netTransferCents };
  // The member's fee comes off one transfer (a sale's, decision 0280): it must carry more than the fee.
  const carrier = feeCarrier(transferParts(planned.commissions));
  if (!carrier || feeCents >= carrier.amountCents) {
    return { block: 'its fee cannot come off commissions already sent to your Stripe balance' };
  }
  return { payoutCents, feeCents, transferCents: planned.netTransferCents - feeCents };
}

/** For a withdrawal: what the confirmation showed, checked against the batch about to be claimed. */
export interface WithdrawalTerms {
  receiveCents: number;
  feeCents: number;
}

export interface RunOptions {
  batchId: string;
  memberId: string;
  memberEmail: string;
  kind: BatchKind;
  /** A withdrawal's confirmed terms: a batch that would differ is refused in words before anything is claimed. */
  terms?: WithdrawalTerms;
}

/**
 * One member's part of a batch, from wherever it stands to done (or to a refusal, or to a payout
 * waiting for funds). Answers what happened in words; throws only on a fault (a 503 or 500; the
 * batch then stays open for the next run).
 */
export async function runMemberBatch(deps: BatchDeps, options: RunOptions): Promise<BatchOutcome> {
  const held = await takeLock(deps, options);
  if (held) return held;
  let claimed = false;
  try {
    let batch = await deps.batches.get(options.batchId, options.memberId);
    if (!batch) {
      const made = await claim(deps, options);
      if ('message' in made) {
        await deps.batches.unlock(options.memberId, options.batchId);
        return made;
      }
      batch = made;
    }
    claimed = true;
    return await advance(deps, batch);
  } catch (error) {
    // A claimed batch stays open: the next run (this one retried, or any other for the member)
    // resumes it. Nothing claimed: the lock is free again.
    // A claim whose answer was lost may have been written: the item says.
    const open = claimed || (await deps.batches.get(options.batchId, options.memberId).catch(() => true)) !== undefined;
    if (open) await deps.batches.pause(options.memberId, options.batchId).catch(() => undefined);
    else await deps.batches.unlock(options.memberId, options.batchId).catch(() => undefined);
    throw error;
  }
}

/** Takes the member's lock for this batch, resuming an open batch nobody works on first; an outcome when it cannot. */
async function takeLock(deps: BatchDeps, options: RunOptions): Promise<BatchOutcome | undefined> {
  const who = { memberId: options.memberId, memberEmail: options.memberEmail };
  for (let round = 0; round < 3; round++) {
    const now = deps.now();
    const lock = await deps.batches.lock(options.memberId, options.batchId, now, now + BUSY_MS);
    if (lock.acquired) return undefined;
    if (lock.busy) {
      return outcome(
        who,
        options.batchId,
        'busy',
        options.kind === 'withdraw'
          ? 'A withdrawal or payout of yours is already under way. Wait for it to finish, then try again.'
          : `A payout for ${options.memberEmail} is already under way (another batch or their withdrawal): try again in a minute.`,
      );
    }
    // An earlier batch is open (its payout waits, or its run stopped): finish it first.
    const earlier = await deps.batches.get(lock.openBatchId, options.memberId);
    if (!earlier) {
      await deps.batches.unlock(options.memberId, lock.openBatchId);
      continue;
    }
    const resumed = await runMemberBatch(deps, {
      ...options,
      batchId: earlier.batchId,
      kind: earlier.kind,
      terms: undefined,
    });
    if (resumed.state === 'waiting' || resumed.state === 'busy') {
      return {
        ...resumed,
        message: `An earlier payout is not finished: ${resumed.message}`,
      };
    }
  }
  return outcome(who, options.batchId, 'busy', 'Another payout for this member keeps starting: try again in a minute.');
}

/** Plans and claims the batch: the batch item, or an outcome saying why nothing was claimed. */
async function claim(deps: BatchDeps, options: RunOptions): Promise<MemberBatch | BatchOutcome> {
  const who = { memberId: options.memberId, memberEmail: options.memberEmail };
  const forMember = options.kind === 'withdraw';
  const profile = await deps.money.payoutProfile(options.memberId);
  const block = options.kind === 'send' ? sendBlock(profile) : accountBlock(profile, forMember);
  if (block) return outcome(who, options.batchId, 'refused', block);
  const settings = deps.settings();
  for (let round = 0; round < 4; round++) {
    const now = deps.now();
    const [candidates, owed] = await Promise.all([
      deps.batches.candidates(options.memberId, now),
      deps.batches.owed(options.memberId),
    ]);
    // A payout takes only what Stripe can pay now; a `send` only transfers (pending funds may go).
    const funds =
      options.kind === 'send'
        ? { ready: candidates, pending: [] }
        : await fundsReady(deps.gateway, profile!.stripeID!, candidates);
    const planned = plan(funds.ready.map(asBatchCommission), owed, options.kind);
    if (planned.commissions.length === 0) {
      const pending = funds.pending.length ? pendingWords(funds.pending) : '';
      return outcome(
        who,
        options.batchId,
        'empty',
        forMember
          ? pending
            ? `Nothing is available to withdraw yet: ${pending}.`
            : 'You have no available commissions to withdraw right now.'
          : pending
            ? `Nothing to pay for ${options.memberEmail} yet: ${pending} at Stripe.`
            : `Nothing to ${options.kind === 'send' ? 'send' : 'pay'} for ${options.memberEmail}: no available commission that no other payout holds.`,
      );
    }
    const minimum = settings.PAYOUT_MINIMUM_CENTS;
    if ((options.kind === 'daily' || options.kind === 'withdraw') && planned.payableCents < minimum) {
      const pending = funds.pending.length ? ` (${pendingWords(funds.pending)})` : '';
      return outcome(
        who,
        options.batchId,
        'below_minimum',
        `${forMember ? 'Your' : `${options.memberEmail}'s`} available balance after clawbacks is ${formatMoney(planned.payableCents)}, below the payout minimum of ${formatMoney(minimum)}${pending}.`,
      );
    }
    let method: MemberBatch['method'] = null;
    let feeCents = 0;
    let payoutCents = options.kind === 'send' ? 0 : planned.payableCents;
    let feePaidBy: MemberBatch['feePaidBy'];
    let instantRefused: string | null = null;
    if (options.kind === 'withdraw') {
      const card = await deps.gateway.payoutDestination(profile!.stripeID!);
      if (!card) return outcome(who, options.batchId, 'refused', ADD_CARD_FIRST);
      method = card.instant ? 'instant' : 'standard';
      if (method === 'instant') {
        // Stripe bills the platform 1 %; a member who pays it gets the commissions less the fee,
        // taken off one sale's transfer and paid out whole (decision 0270).
        const terms = instantTerms(planned, settings.INSTANT_FEE_PAID_BY);
        if ('block' in terms) {
          method = 'standard';
          instantRefused = terms.block;
        } else {
          ({ payoutCents, feeCents } = terms);
          feePaidBy = settings.INSTANT_FEE_PAID_BY;
        }
      }
      const terms = options.terms;
      // What the confirmation takes from the balance: what reaches the card, and the fee when the member pays it.
      const asked = terms ? terms.receiveCents + (settings.INSTANT_FEE_PAID_BY === 'member' ? terms.feeCents : 0) : 0;
      if (terms && asked > planned.payableCents) {
        // More than Stripe can pay now (funds still pending, or taken meanwhile): why, before anything moves.
        const pending = funds.pending.length
          ? `; the rest is still pending at Stripe: ${pendingWords(funds.pending)}`
          : '';
        throw conflict(
          `You can withdraw ${formatMoney(planned.payableCents)} now, less than the ${formatMoney(asked)} you confirmed${pending}. Nothing was moved: review the new amount and confirm again.`,
        );
      }
      if (terms && (terms.receiveCents !== payoutCents || terms.feeCents !== feeCents)) {
        throw conflict(
          `Your available balance changed: you would now receive ${formatMoney(payoutCents)}${feeCents ? ` (instant fee ${formatMoney(feeCents)})` : ''}. Review the new amount and confirm again.`,
        );
      }
    } else if (options.kind !== 'send') {
      method = null; // instant where the card and the balance allow it (the gateway decides, decision 0050)
    }
    const at = new Date(now).toISOString();
    const batch: MemberBatch = {
      batchId: options.batchId,
      memberId: options.memberId,
      memberEmail: options.memberEmail,
      kind: options.kind,
      state: 'claimed',
      commissions: planned.commissions,
      owedSeenCents: planned.owedSeenCents,
      nettedCents: planned.nettedCents,
      transferCents: planned.netTransferCents - (feePaidBy === 'member' ? feeCents : 0),
      transfers: transferParts(planned.commissions, feePaidBy === 'member' ? feeCents : 0),
      payoutCents,
      feeCents,
      ...(feePaidBy ? { feePaidBy } : {}),
      ...(instantRefused ? { instantRefused } : {}),
      method,
      payoutId: null,
      payoutAttempt: 0,
      failure: null,
      createdAt: at,
      updatedAt: at,
    };
    const result = await deps.batches.claim(batch);
    if (result === 'claimed') return batch;
    if (result === 'exists') {
      const existing = await deps.batches.get(options.batchId, options.memberId);
      if (existing) return existing;
    }
    // A commission or the debt changed between the read and the claim: read and plan again.
  }
  throw conflict('The commissions of this member kept changing while the batch was being made: try again.');
}

/** A `send` needs an account that takes transfers; the card matters only for the payout. */
function sendBlock(profile: PayoutProfile | undefined): string | null {
  const block = accountBlock(profile, false);
  return block === NO_DEBIT_CARD ? null : block;
}

/** From the batch's stored state to its end (or to a refusal, or to a payout waiting for funds). */
async function advance(deps: BatchDeps, start: MemberBatch): Promise<BatchOutcome> {
  let batch = start;
  const done = async () => {
    await deps.batches.unlock(batch.memberId, batch.batchId);
    // The member's "your payout is on its way", once per payout (a retry of a paid batch sends it
    // if the first run died before it; so does the payout's `payout.paid`).
    if (batch.state === 'paid' && batch.payoutId) await deps.paidOut?.(batch);
    return describe(batch);
  };
  if (batch.state === 'released' || batch.state === 'sent' || batch.state === 'paid' || batch.state === 'payout_failed')
    return done();
  const profile = await deps.money.payoutProfile(batch.memberId);
  const accountId = profile?.stripeID;

  if (batch.state === 'claimed') {
    const planned = transfersOf(batch);
    const made: BatchTransfer[] = [];
    if (planned.length) {
      if (!accountId) return refuse(deps, batch, NO_PAYOUT_ACCOUNT);
      for (const part of planned) {
        try {
          const created = await deps.gateway.createTransfer({
            amountCents: part.amountCents,
            destinationAccountId: accountId,
            idempotencyKey: transferKey(
              batch.batchId,
              batch.memberId,
              batch.transfers ? (part.chargeId ?? 'balance') : '0',
            ),
            metadata: {
              batchId: batch.batchId,
              memberId: batch.memberId,
              commissionCount: String(part.commissionIds.length),
            },
            transferGroup: transferGroup(batch.batchId, batch.memberId),
            // The sale's charge funds it (its pending funds may go); orders entered by hand: the platform's kept balance.
            ...(part.chargeId ? { sourceTransaction: part.chargeId } : {}),
          });
          made.push({ ...part, id: created.id });
        } catch (error) {
          if (!(error instanceof MoneyRefusal)) throw error;
          // Nothing of the batch may stay moved: the transfers made before this one go back.
          for (const done of made) {
            await deps.gateway.createTransferReversal({
              transferId: done.id!,
              amountCents: done.amountCents,
              idempotencyKey: undoKey(batch.batchId, batch.memberId, done.id!),
              metadata: { batchId: batch.batchId, memberId: batch.memberId, undone: 'true' },
            });
          }
          return refuse(deps, batch, error.message);
        }
      }
    }
    const now = new Date(deps.now()).toISOString();
    const next = batch.kind === 'send' ? 'sent' : 'transferred';
    const recorded = { ...batch, transfers: made };
    if (!(await deps.batches.recordTransfer(recorded, now))) {
      const after = await deps.batches.get(batch.batchId, batch.memberId);
      if (!after || after.state === 'claimed') throw new Error(`Batch ${batch.batchId}: the transfer record failed`);
      batch = after;
    } else {
      batch = { ...recorded, state: next, updatedAt: now };
    }
    if (batch.state !== 'transferred') return done();
  }

  if (batch.state === 'transferred') {
    let payoutId: string | null = null;
    // Instant was refused after a transfer less the member's fee: that fee goes to them too.
    if (batch.topUpCents && !batch.topUpTransferId) {
      if (!accountId) return wait(deps, batch, NO_PAYOUT_ACCOUNT);
      let topUpId: string;
      try {
        topUpId = (
          await deps.gateway.createTransfer({
            amountCents: batch.topUpCents,
            destinationAccountId: accountId,
            idempotencyKey: transferKey(batch.batchId, batch.memberId, 'fee-return'),
            metadata: { batchId: batch.batchId, memberId: batch.memberId, topUp: 'instant-fee' },
            transferGroup: transferGroup(batch.batchId, batch.memberId),
            // The sale whose transfer the fee came off funds its return (its charge has room for it).
            ...(feeChargeOf(batch) ? { sourceTransaction: feeChargeOf(batch)! } : {}),
          })
        ).id;
      } catch (error) {
        if (error instanceof MoneyRefusal) return wait(deps, batch, error.message);
        throw error;
      }
      const now = new Date(deps.now()).toISOString();
      if (!(await deps.batches.recordTopUp(batch, topUpId, now))) {
        const after = await deps.batches.get(batch.batchId, batch.memberId);
        if (!after) throw new Error(`Batch ${batch.batchId}: the top-up record failed`);
        return advance(deps, after);
      }
      batch = { ...batch, topUpTransferId: topUpId, updatedAt: now };
    }
    if (batch.payoutCents > 0) {
      if (!accountId) return wait(deps, batch, NO_PAYOUT_ACCOUNT);
      try {
        const payout = await deps.gateway.createPayout({
          accountId,
          amountCents: batch.payoutCents,
          ...(batch.method ? { method: batch.method } : { keepCents: 0 }),
          idempotencyKey: payoutKey(batch.batchId, batch.memberId, batch.payoutAttempt),
          metadata: { batchId: batch.batchId, memberId: batch.memberId, attempt: String(batch.payoutAttempt) },
        });
        payoutId = payout.id;
        batch = {
          ...batch,
          method: batch.method ?? (payout.method === 'instant' ? 'instant' : 'standard'),
          arrivalDate: payout.arrivalDate,
        };
      } catch (error) {
        if (error instanceof InstantRefused && batch.method === 'instant') return fallBack(deps, batch, error.reason);
        if (error instanceof MoneyRefusal) return wait(deps, batch, error.message);
        throw error;
      }
    }
    const now = new Date(deps.now()).toISOString();
    if (!(await deps.batches.recordPayout(batch, payoutId, now))) {
      const after = await deps.batches.get(batch.batchId, batch.memberId);
      if (!after || after.state !== 'paid') throw new Error(`Batch ${batch.batchId}: the payout record failed`);
      batch = after;
    } else {
      batch = { ...batch, state: 'paid', payoutId, failure: null, updatedAt: now };
    }
  }
  return done();
}

/**
 * Stripe refused the instant payout (the platform not enabled or past its daily volume, the card,
 * the amount): the batch goes on by standard payout, no fee, the member's fee (taken off the
 * transfer) given back by a second transfer first.
 */
async function fallBack(deps: BatchDeps, batch: MemberBatch, reason: string): Promise<BatchOutcome> {
  const topUpCents = batch.feePaidBy === 'member' ? batch.feeCents : 0;
  const now = new Date(deps.now()).toISOString();
  await deps.batches.fallBackToStandard(batch, reason, topUpCents, now);
  const after = await deps.batches.get(batch.batchId, batch.memberId);
  if (!after || (after.state === 'transferred' && after.method === 'instant')) {
    throw new Error(`Batch ${batch.batchId}: the fallback to a standard payout was not recorded`);
  }
  return advance(deps, after);
}

/** Stripe refused the transfer: nothing moved; the commissions and the debt are as before the claim. */
async function refuse(deps: BatchDeps, batch: MemberBatch, failure: string): Promise<BatchOutcome> {
  const now = new Date(deps.now()).toISOString();
  if (!(await deps.batches.release(batch, failure, now))) {
    const after = await deps.batches.get(batch.batchId, batch.memberId);
    if (after && after.state !== 'claimed') return advance(deps, after);
    throw new Error(`Batch ${batch.batchId}: the release failed`);
  }
  await deps.batches.unlock(batch.memberId, batch.batchId);
  return describe({ ...batch, state: 'released', failure, updatedAt: now });
}

/**
 * Stripe refused the payout (issue 34: a refused payout never blocks later ones): the batch ends
 * as `payout_failed` with the reason, its commissions stay in the member's Stripe balance, free for
 * the next batch, button or withdrawal, and the member's lock is freed.
 */
async function wait(deps: BatchDeps, batch: MemberBatch, failure: string): Promise<BatchOutcome> {
  const now = new Date(deps.now()).toISOString();
  if (!(await deps.batches.dropPayout(batch, failure, now))) {
    const after = await deps.batches.get(batch.batchId, batch.memberId);
    if (after && after.state !== 'transferred') return advance(deps, after);
    throw new Error(`Batch ${batch.batchId}: the refused payout could not be recorded`);
  }
  await deps.batches.unlock(batch.memberId, batch.batchId);
  return describe({ ...batch, state: 'payout_failed', failure, payoutAttempt: batch.payoutAttempt + 1 });
}

/**
 * For the answer of a one-member call: what went wrong is a 409 in words, the rest is the outcome.
 * A member's withdrawal that finds nothing (or too little) to pay is a 409 too.
 */
export function orConflict(result: BatchOutcome, options: { nothingIsRefused?: boolean } = {}): BatchOutcome {
  const refused: BatchOutcome['state'][] = ['busy', 'refused', 'waiting'];
  if (options.nothingIsRefused) refused.push('empty', 'below_minimum');
  if (refused.includes(result.state)) throw conflict(result.message);
  return result;
}

/** Everyone's part of an admin's batch or of the daily job, member by member until `deadline` (epoch ms). */
export async function runForEveryone(
  deps: BatchDeps,
  options: { batchId: string; kind: BatchKind; deadline: number },
): Promise<{ outcomes: BatchOutcome[]; remaining: number }> {
  const members = await deps.batches.membersWithOpenCommissions();
  const outcomes: BatchOutcome[] = [];
  let index = 0;
  for (; index < members.length && deps.now() < options.deadline; index++) {
    const member = members[index]!;
    try {
      outcomes.push(await runMemberBatch(deps, { ...options, ...member }));
    } catch (error) {
      // One member's fault does not stop the others; their batch stays open for the next run.
      const message =
        error instanceof DomainError
          ? error.message
          : 'Stripe or the database did not answer; the next run continues this batch.';
      outcomes.push(outcome(member, options.batchId, 'waiting', message));
    }
  }
  return { outcomes, remaining: members.length - index };
}

/** The members an admin's call reaches: one (its e-mail read from their profile) or everyone. */
export function summary(outcomes: readonly BatchOutcome[], remaining: number): string {
  const moved = outcomes.filter((o) => o.state === 'paid' || o.state === 'sent' || o.state === 'settled');
  const problems = outcomes.filter((o) => o.state === 'refused' || o.state === 'waiting' || o.state === 'busy');
  const parts = [
    moved.length ? `${plural(moved.length, 'member')} done` : 'Nothing moved',
    ...(problems.length
      ? [`${plural(problems.length, 'member')} ${problems.length === 1 ? 'needs' : 'need'} attention (see below)`]
      : []),
    ...(remaining ? [`${plural(remaining, 'member')} not reached in time: run it again`] : []),
  ];
  return `${parts.join('; ')}.`;
}

/**
 * The member's last failed payout, from the commissions waiting again with its reason: the amount
 * back in their balance, why (in words) and when. Null when none waits.
 */
export function failedPayoutOf(candidates: readonly CandidateCommission[]): WithdrawalQuote['failedPayout'] {
  // A payout Stripe made and the card's bank then failed (`failedPayoutId`); a refusal at the create
  // moved no money and is not the card's fault.
  const failed = candidates.filter((c) => c.from === 'in_stripe' && c.payoutFailure && c.failedPayoutId);
  if (!failed.length) return null;
  const latest = failed.reduce((a, b) => ((b.updatedAt ?? '') > (a.updatedAt ?? '') ? b : a));
  const same = failed.filter((c) => c.failedPayoutId === latest.failedPayoutId);
  return {
    // What the failed payout was (its own amount when stored), as the member's mail names it.
    amount: dollars(latest.failedPayoutCents ?? sum(same, (c) => c.amountCents - c.nettedCents)),
    reason: payoutFailureWords(null, latest.payoutFailure),
    at: latest.updatedAt ?? null,
  };
}

/** The withdrawal the member would make now (the confirmation's figures), without claiming anything. */
export async function withdrawalQuote(deps: BatchDeps, memberId: string): Promise<WithdrawalQuote> {
  const settings = deps.settings();
  const profile = await deps.money.payoutProfile(memberId);
  const [candidates, owed] = await Promise.all([
    deps.batches.candidates(memberId, deps.now()),
    deps.batches.owed(memberId),
  ]);
  const block = accountBlock(profile, true);
  // What Stripe can pay now, and what it still holds as pending (with its day).
  const funds =
    profile?.stripeID && profile.isAccountCreated === 1
      ? await fundsReady(deps.gateway, profile.stripeID, candidates)
      : { ready: [...candidates], pending: [] };
  const planned = plan(funds.ready.map(asBatchCommission), owed, 'withdraw');
  const base = {
    available: dollars(planned.payableCents),
    minimum: dollars(settings.PAYOUT_MINIMUM_CENTS),
    feePaidBy: settings.INSTANT_FEE_PAID_BY,
    pending: pendingByDay(funds.pending).map((entry) => ({
      amount: dollars(entry.amountCents),
      availableOn: entry.availableOn === null ? null : new Date(entry.availableOn * 1000).toISOString(),
    })),
    // The clawback debt the member owes, and what of it this withdrawal would net.
    owed: dollars(Math.max(0, owed)),
    owedNetted: dollars(planned.nettedCents),
    failedPayout: failedPayoutOf(candidates),
  };
  const card = !block && profile?.stripeID ? await deps.gateway.payoutDestination(profile.stripeID) : undefined;
  const reason =
    block ??
    (card ? null : ADD_CARD_FIRST) ??
    (planned.payableCents < settings.PAYOUT_MINIMUM_CENTS
      ? `You can withdraw once your available balance reaches ${formatMoney(settings.PAYOUT_MINIMUM_CENTS)}.`
      : null);
  if (reason || !card) {
    return { ...base, canWithdraw: false, reason, method: null, fee: 0, receive: 0, card: card ?? null };
  }
  const terms = card.instant ? instantTerms(planned, settings.INSTANT_FEE_PAID_BY) : undefined;
  const instant = terms && !('block' in terms) ? terms : undefined;
  return {
    ...base,
    canWithdraw: true,
    reason: null,
    method: instant ? 'instant' : 'standard',
    fee: dollars(instant?.feeCents ?? 0),
    receive: dollars(instant?.payoutCents ?? planned.payableCents),
    card: { last4: card.last4, brand: card.brand },
    note: terms && 'block' in terms ? instantUnavailable(terms.block, null) : null,
  };
}

/** The member's payout card as a payout's confirmation names it; a 404 in words for no such member. */
export async function memberPayoutCard(deps: BatchDeps, memberId: string): Promise<MemberPayoutCard> {
  const profile = await deps.money.payoutProfile(memberId);
  if (!profile) throw new DomainError('not-found', 'No such member.');
  const card =
    profile.stripeID && profile.isPayoutMethodAdded === 1
      ? await deps.gateway.payoutDestination(profile.stripeID)
      : undefined;
  return { memberId, card: card ? { last4: card.last4, brand: card.brand, instant: card.instant } : null };
}

/**
 * What members still owe after clawbacks (a refund of a sale already paid out), for the admin's
 * Payouts screen and the batches' confirmations: one page of the debts index, by member id. Each
 * debt comes off the member's next payouts (`plan`), before anything is paid.
 */
export async function memberDebts(
  deps: Pick<BatchDeps, 'batches'>,
  cursor: string | undefined,
  limit: number | undefined,
): Promise<MemberDebtPage> {
  const page = await deps.batches.debts(cursor, limit ?? 100);
  return {
    items: page.items.map((debt) => ({
      member: { id: debt.memberId, email: debt.memberEmail },
      owed: dollars(debt.owedCents),
    })),
    nextCursor: page.nextCursor,
  };
}
