import type { UserRepository } from '../auth/user-store';
import { mailPreferencesOf } from '../auth/user-store';
import type { Mailer } from '../email/mailer';
import type { MailClaimStore } from '../email/mail-claim-store';
import { sendOnce, type SendOutcome } from '../email/send-once';
import {
  disputeOpenedMail,
  refundFailedMail,
  type RefundFailedFacts,
  memberPayoutFailedMail,
  payoutFailedMail,
  payoutSentMail,
  receiptMail,
  commissionRefundedMail,
  verificationFailedMail,
  refundMail,
  saleMail,
  shippedMail,
  type DisputeFacts,
} from '../email/templates';
import { carrierName, trackingUrl } from '@portal/shared/api/carriers';
import { sha256Hex } from '@portal/shared/domain/sha256';
import { errorSentence } from '@portal/shared/domain/verification-words';
import { DomainError } from '../errors';
import { payoutFailureWords } from '../payments/payout-failures';
import { newOrderLink, type OrderLinkStore } from '../orders/order-links';
import type { CommissionRecord, OrderRecord, SalesStore } from '../orders/sales-store';

/**
 * The mails that go with orders and money (issue 27): what triggers each, whom it goes to, and the
 * event it is sent once for (email/send-once.ts keys the claim `MAIL#<kind>#<eventId>`):
 *
 * | mail                      | to          | sent once per        | from                                               |
 * | ------------------------- | ----------- | -------------------- | -------------------------------------------------- |
 * | receipt                   | customer    | order                | a checkout recorded (webhook or confirmCheckout)   |
 * | shipped                   | customer    | order                | markAsShipped (and its retry)                      |
 * | sale ("you made a sale")  | member      | commission           | a sale with a commission recorded (any source)     |
 * | payout ("on its way")     | member      | payout               | payCommisionToMember / a batch once the payout is  |
 * |                           |             |                      | recorded, and `payout.paid`                        |
 * | payout-failed             | each admin  | payout.failed event  | the Connect webhook                                |
 * | member-payout-failed      | member      | failed payout        | the Connect webhook (whatever the mail settings)   |
 * | dispute                   | each admin  | dispute event        | `charge.dispute.created` (wired by the ledger)     |
 * | refund-failed             | each admin  | refund               | `refund.failed` / `charge.refund.updated` failed   |
 * | refund ("your refund")    | customer    | refund (or dispute   | a refund applied to the order (refundOrder,        |
 * |                           |             | lost), by its id     | `charge.refunded`, `charge.dispute.closed` lost)   |
 * | verification-failed       | member      | account and errors   | `account.updated` with `requirements.errors`       |
 * | member-refund             | member      | refund (or dispute   | the same, when the sale earned a commission        |
 * |                           |             | lost), by its id     | (whatever the mail settings: it changes the money) |
 *
 * The member's two mails are optional (mailPreferences on the profile); an opted-out mail is
 * marked skipped for that event, not sent later.
 */
export interface MailDeps {
  claims: MailClaimStore;
  mailer: Mailer;
  links: OrderLinkStore;
  users: Pick<UserRepository, 'get'>;
  sales: Pick<SalesStore, 'getOrder' | 'getCommission'>;
  now: () => number;
  siteUrl: () => string;
  /** COMMISSION_HOLD_DAYS (config/money-settings.ts). */
  holdDays: () => number;
  /** ADMIN_MAIL_TO (config/mail-settings.ts). */
  adminsTo: () => string[];
  log: (message: string, details: Record<string, unknown>) => Promise<void>;
}

const MY_ACCOUNT_PATH = '/my_account';
const ADMIN_COMMISSIONS_PATH = '/admin/payouts/to_be_payed';
const ADMIN_ORDERS_PATH = '/admin/orders';

const at = (deps: MailDeps, path: string) => new URL(path, deps.siteUrl()).href;

/** The customer's receipt for a checkout's order (not an admin's phone order), once per order. */
export function sendReceipt(deps: MailDeps, order: OrderRecord): Promise<SendOutcome> {
  return sendOnce(deps, 'receipt', order.id, async () => {
    if (order.source !== 'checkout') return { skip: 'not a checkout' };
    if (!order.customer.email) return { skip: 'no customer e-mail' };
    return receiptMail({
      to: order.customer.email,
      customerName: order.customer.name,
      orderID: order.orderID,
      productName: order.product_name,
      qty: order.qty,
      totalCents: order.totalCents,
      placedAt: order.createdAt,
      orderUrl: await newOrderLink(deps, order.id),
    });
  });
}

/** The customer's shipping mail, with the carrier and tracking number when given, once per order. */
export function sendShipped(deps: MailDeps, order: OrderRecord): Promise<SendOutcome> {
  return sendOnce(deps, 'shipped', order.id, async () => {
    if (!order.customer.email) return { skip: 'no customer e-mail' };
    const shipment = order.shipment;
    return shippedMail({
      to: order.customer.email,
      customerName: order.customer.name,
      orderID: order.orderID,
      productName: order.product_name,
      carrier: shipment ? carrierName(shipment.carrier, shipment.carrierName) : null,
      trackingNumber: shipment?.trackingNumber ?? null,
      trackingUrl: shipment ? trackingUrl(shipment.carrier, shipment.trackingNumber) : null,
      orderUrl: await newOrderLink(deps, order.id),
    });
  });
}

/**
 * The customer's "your refund", once per refund (its Stripe id, or a lost dispute's): the amount,
 * the day, and what it means for the order, with the order page's link.
 */
export async function sendRefunded(deps: MailDeps, orderId: string, refundId: string): Promise<SendOutcome> {
  return sendOnce(deps, 'refund', refundId, async () => {
    const order = await deps.sales.getOrder(orderId);
    const refund = order?.refunds?.find((entry) => entry.id === refundId);
    if (!order || !refund) return { skip: 'refund not on the order' };
    if (!order.customer.email) return { skip: 'no customer e-mail' };
    const before = order.refunds!.slice(0, order.refunds!.indexOf(refund) + 1);
    return refundMail({
      to: order.customer.email,
      customerName: order.customer.name,
      orderID: order.orderID,
      productName: order.product_name,
      amountCents: refund.amountCents,
      at: refund.at,
      kind: refund.kind,
      refundedCents: before.reduce((sum, entry) => sum + entry.amountCents, 0),
      totalCents: order.totalCents,
      orderUrl: await newOrderLink(deps, order.id),
    });
  });
}

/**
 * The member's "a sale you made was refunded", once per refund (`MAIL#member-refund#<refundId>`),
 * whatever their mail settings: it changes what they are paid. Nothing when the sale earned nothing.
 */
export async function sendCommissionRefunded(deps: MailDeps, orderId: string, refundId: string): Promise<SendOutcome> {
  return sendOnce(deps, 'member-refund', refundId, async () => {
    const order = await deps.sales.getOrder(orderId);
    const refund = order?.refunds?.find((entry) => entry.id === refundId);
    if (!order || !refund) return { skip: 'refund not on the order' };
    const commission = order.commissionId ? await deps.sales.getCommission(order.commissionId) : undefined;
    if (!commission) return { skip: 'no commission' };
    const originalCents = commission.originalCents ?? commission.amountCents;
    if (originalCents === 0) return { skip: 'the sale earned nothing' };
    const member = await deps.users.get(commission.memberId);
    if (!member?.email) return { skip: 'member unknown' };
    const refundedCents = order.refunds!.reduce((sum, entry) => sum + entry.amountCents, 0);
    return commissionRefundedMail({
      to: member.email,
      orderID: order.orderID,
      productName: order.product_name,
      refundCents: refund.amountCents,
      kind: refund.kind,
      inFull: refundedCents >= order.totalCents,
      status: commission.status,
      originalCents,
      nowCents: commission.amountCents,
      commissionsUrl: at(deps, `${MY_ACCOUNT_PATH}/payout_account`),
    });
  });
}

/**
 * The member's "Stripe could not verify your payout details", once per account and set of errors
 * (`MAIL#verification-failed#<account>:<hash of the errors>`): Stripe says the same errors in every
 * `account.updated` until they are corrected, and a new error after a correction is a new mail.
 * Sent whatever the mail settings: it asks them to act.
 */
export async function sendVerificationFailed(
  deps: MailDeps,
  userId: string,
  account: { id: string; errors: { requirement: string; code: string }[] },
): Promise<SendOutcome> {
  if (account.errors.length === 0) return 'skipped';
  const errors = account.errors.map((error) => `${error.requirement}=${error.code}`).sort();
  const eventId = `${account.id}:${sha256Hex(errors.join('|')).slice(0, 16)}`;
  return sendOnce(deps, 'verification-failed', eventId, async () => {
    const member = await deps.users.get(userId);
    if (!member?.email) return { skip: 'member unknown' };
    const sentences = account.errors.map(errorSentence);
    return verificationFailedMail({
      to: member.email,
      sentences: sentences.filter((sentence, index) => sentences.indexOf(sentence) === index),
      accountUrl: at(deps, `${MY_ACCOUNT_PATH}/payout_account`),
    });
  });
}

/** When a commission becomes available: its order's fulfilment plus the hold (null before fulfilment). */
export function availableAt(order: Pick<OrderRecord, 'fulfilledAt'>, holdDays: number): string | null {
  if (!order.fulfilledAt) return null;
  return new Date(Date.parse(order.fulfilledAt) + holdDays * 24 * 3600 * 1000).toISOString();
}

/** The member's "you made a sale", once per commission, unless they turned it off. */
export function sendSale(deps: MailDeps, order: OrderRecord, commission: CommissionRecord): Promise<SendOutcome> {
  return sendOnce(deps, 'sale', commission.id, async () => {
    const member = await deps.users.get(commission.memberId);
    if (!member?.email) return { skip: 'member unknown' };
    if (!mailPreferencesOf(member).saleMails) return { skip: 'turned off by the member' };
    // A sale that broke an abuse rule (orders/abuse.ts: a self-purchase, a product banned before
    // payment) earns nothing yet, or nothing at all: no "you made a sale" with a date it would not keep.
    if (commission.heldFor) return { skip: `commission held at its sale (${commission.heldFor})` };
    if (commission.status === 'cancelled') return { skip: 'no commission' };
    return saleMail({
      to: member.email,
      orderID: order.orderID,
      productName: order.product_name,
      qty: order.qty,
      commissionCents: commission.amountCents,
      availableAt: availableAt(order, deps.holdDays()),
      holdDays: deps.holdDays(),
      settingsUrl: at(deps, MY_ACCOUNT_PATH),
    });
  });
}

/**
 * A sale was recorded (or found recorded: a second report of one payment): the customer's receipt
 * and the member's mail. Each is sent once whoever reports the sale and however often.
 */
export async function saleRecorded(deps: MailDeps, order: OrderRecord): Promise<SendOutcome[]> {
  const commission = order.commissionId ? await deps.sales.getCommission(order.commissionId) : undefined;
  return Promise.all([sendReceipt(deps, order), ...(commission ? [sendSale(deps, order, commission)] : [])]);
}

/**
 * The member's "your payout is on its way", once per payout, for a commission whose payout is
 * recorded (status paid with its payout id); unless they turned it off. For the payouts of
 * batches: call it with each commission the batch paid (or extend it to the batch's total).
 */
export async function sendPayoutOnItsWay(deps: MailDeps, commissionId: string): Promise<SendOutcome | 'not-paid'> {
  const commission = await deps.sales.getCommission(commissionId);
  if (!commission || commission.status !== 'paid' || !commission.payoutId) return 'not-paid';
  return sendOnce(deps, 'payout', commission.payoutId, async () => {
    const member = await deps.users.get(commission.memberId);
    if (!member?.email) return { skip: 'member unknown' };
    if (!mailPreferencesOf(member).payoutMails) return { skip: 'turned off by the member' };
    // What the payout carried (a batch may have netted part against a clawback) and when it arrives, as stored with it.
    const paid = commission as typeof commission & { nettedCents?: number; payoutArrivalDate?: number | null };
    return payoutSentMail({
      to: member.email,
      amountCents: commission.amountCents - (paid.nettedCents ?? 0),
      orderID: commission.orderID,
      arrivalDate: typeof paid.payoutArrivalDate === 'number' ? paid.payoutArrivalDate * 1000 : null,
      settingsUrl: at(deps, MY_ACCOUNT_PATH),
    });
  });
}

/** A payout batch's part for one member as its mails read it (commissions/batch-store.ts `MemberBatch`). */
export interface BatchPayout {
  memberId: string;
  memberEmail: string;
  state: string;
  payoutId: string | null;
  payoutCents: number;
  commissions: readonly unknown[];
  /** Stripe's `arrival_date`, epoch seconds. */
  arrivalDate?: number | null;
  method: string | null;
}

/**
 * The member's "your payout is on its way" for a payout batch's payout (commissions/batches.ts):
 * once per payout, not per commission, naming what reaches the card and when; unless they turned
 * it off. The batch's run sends it once the payout is recorded, and `payout.paid` again (the
 * claim `MAIL#payout#<payoutId>` makes it one mail).
 */
export function sendBatchPayoutOnItsWay(deps: MailDeps, batch: BatchPayout): Promise<SendOutcome | 'not-paid'> {
  const payoutId = batch.payoutId;
  if (batch.state !== 'paid' || !payoutId || batch.payoutCents <= 0) return Promise.resolve('not-paid');
  return sendOnce(deps, 'payout', payoutId, async () => {
    const member = await deps.users.get(batch.memberId);
    if (!member?.email) return { skip: 'member unknown' };
    if (!mailPreferencesOf(member).payoutMails) return { skip: 'turned off by the member' };
    return payoutSentMail({
      to: member.email,
      amountCents: batch.payoutCents,
      orderID: null,
      commissionCount: batch.commissions.length,
      arrivalDate: batch.arrivalDate ? batch.arrivalDate * 1000 : null,
      method: batch.method,
      settingsUrl: at(deps, MY_ACCOUNT_PATH),
    });
  });
}

/** What the admins' mails need to go out; false (and a log line) when no address is set. */
async function admins(deps: MailDeps, kind: string, eventId: string): Promise<string[]> {
  const to = deps.adminsTo();
  if (to.length === 0) {
    await deps.log('No administrator address (ADMIN_MAIL_TO): this mail was not sent', { kind, eventId });
  }
  return to;
}

/** Each admin's copy is a mail of its own, claimed apart: a crash after the first sends the others on retry. */
async function toEachAdmin(
  deps: MailDeps,
  kind: string,
  eventId: string,
  build: (to: string) => Promise<ReturnType<typeof payoutFailedMail> | { skip: string }>,
): Promise<SendOutcome[]> {
  const outcomes: SendOutcome[] = [];
  for (const to of await admins(deps, kind, eventId)) {
    outcomes.push(await sendOnce(deps, kind, `${eventId}#${to}`, () => build(to)));
  }
  return outcomes;
}

export interface PayoutFailure {
  eventId: string;
  payoutId: string;
  failure: string | null;
  /** The commission the payout carried (its metadata), if any. */
  commissionId: string | undefined;
  /** A batch's payout: the member and the amount, from the batch (its commissions are many). */
  batch?: Pick<BatchPayout, 'memberEmail' | 'payoutCents'>;
}

/** The admins' "a payout failed", once per `payout.failed` event and admin. */
export async function sendPayoutFailed(deps: MailDeps, failed: PayoutFailure): Promise<SendOutcome[]> {
  const commission = failed.commissionId ? await deps.sales.getCommission(failed.commissionId) : undefined;
  return toEachAdmin(deps, 'payout-failed', failed.eventId, async (to) =>
    payoutFailedMail({
      to,
      memberEmail: failed.batch?.memberEmail ?? commission?.memberEmail ?? 'a member',
      amountCents: failed.batch?.payoutCents ?? commission?.amountCents ?? null,
      failure: failed.failure ?? 'Stripe gave no reason.',
      payoutId: failed.payoutId,
      orderID: commission?.orderID ?? null,
      adminUrl: at(deps, ADMIN_COMMISSIONS_PATH),
    }),
  );
}

/** The admins' "a refund failed", once per refund and admin (Stripe says it in up to three events). */
export async function sendRefundFailed(deps: MailDeps, facts: RefundFailedFacts): Promise<SendOutcome[]> {
  return toEachAdmin(deps, 'refund-failed', facts.refundId, async (to) =>
    refundFailedMail(to, facts, at(deps, ADMIN_ORDERS_PATH)),
  );
}

/** A failed payout as the member's mail reads it. */
export interface MemberPayoutFailure {
  payoutId: string;
  /** Stripe's `failure_code` and `failure_message`. */
  failureCode: string | null | undefined;
  failure: string | null;
  /** The commission the payout carried (a per-commission payout), if any. */
  commissionId: string | undefined;
  /** A batch's payout: the member and the amount, from the batch. */
  batch?: Pick<BatchPayout, 'memberId' | 'payoutCents' | 'payoutId' | 'state'> & { feeBackCents?: number };
  /** The payout's own amount (the event's), when neither says it. */
  amountCents?: number | null;
  /** This delivery moved the ledger (the payout was ours and is now failed). */
  moved: boolean;
}

/**
 * The member's "your payout of $X failed", once per failed payout (`MAIL#member-payout-failed#<payoutId>`):
 * why in words, and what to do. Sent whatever the member's payout mail setting: it asks them to act.
 */
export async function sendMemberPayoutFailed(deps: MailDeps, failed: MemberPayoutFailure): Promise<SendOutcome> {
  return sendOnce(deps, 'member-payout-failed', failed.payoutId, async () => {
    const commission = failed.commissionId ? await deps.sales.getCommission(failed.commissionId) : undefined;
    // Ours only: this delivery failed it, or the ledger already says this payout failed (a replay).
    const recorded =
      (failed.batch?.state === 'payout_failed' && failed.batch.payoutId === failed.payoutId) ||
      (commission as { failedPayoutId?: string } | undefined)?.failedPayoutId === failed.payoutId;
    if (!failed.moved && !recorded) return { skip: 'not a payout the ledger knows as failed' };
    const memberId = failed.batch?.memberId ?? commission?.memberId;
    const member = memberId ? await deps.users.get(memberId) : undefined;
    if (!member?.email) return { skip: 'member unknown' };
    const amountCents =
      failed.batch?.payoutCents ??
      failed.amountCents ??
      (commission ? commission.amountCents - ((commission as { nettedCents?: number }).nettedCents ?? 0) : null);
    if (amountCents === null) return { skip: 'amount unknown' };
    return memberPayoutFailedMail({
      to: member.email,
      amountCents,
      reason: payoutFailureWords(failed.failureCode, failed.failure),
      accountUrl: at(deps, MY_ACCOUNT_PATH),
      ...(failed.batch?.feeBackCents ? { feeBackCents: failed.batch.feeBackCents } : {}),
    });
  });
}

/**
 * The admins' "a dispute was opened", once per dispute event and admin. The webhook's
 * `charge.dispute.created` path calls it with the dispute's facts.
 */
export async function sendDisputeOpened(deps: MailDeps, dispute: DisputeFacts): Promise<SendOutcome[]> {
  return toEachAdmin(deps, 'dispute', dispute.eventId, async (to) =>
    disputeOpenedMail(to, dispute, at(deps, adminOrderPath(dispute.orderID))),
  );
}

/** The admin's card of one order (the Orders screen opens it by its number), or the Orders screen. */
export const adminOrderPath = (orderNumber: string | null): string =>
  orderNumber ? `${ADMIN_ORDERS_PATH}?order=${encodeURIComponent(orderNumber)}` : ADMIN_ORDERS_PATH;

/**
 * For a webhook: sends, and while another attempt holds a mail's claim (the browser's report of the
 * same checkout, usually, finishing its send), looks again a few times before giving up, so the
 * common race ends in one 200 rather than a redelivery an hour later.
 */
export async function settled<T extends SendOutcome | 'not-paid'>(
  send: () => Promise<T[]>,
  tries = 10,
  pauseMs = 300,
): Promise<T[]> {
  let outcomes = await send();
  for (let attempt = 1; attempt < tries && outcomes.includes('busy' as T); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    outcomes = await send();
  }
  return outcomes;
}

/** A mail a person's call sends after its write: a failure is logged (the write stands) and a retry of the event sends it. */
export async function sendQuietly(
  deps: Pick<MailDeps, 'log'>,
  kind: string,
  about: string,
  sending: Promise<unknown>,
): Promise<void> {
  try {
    await sending;
  } catch (error) {
    await deps.log('A mail was not sent; the next report of its event sends it', { kind, about, error });
  }
}

/** Outcomes a webhook must not acknowledge: another delivery holds the mail's claim; Stripe delivers again. */
export function retryUnlessSent(outcomes: readonly (SendOutcome | 'not-paid')[]): void {
  if (outcomes.includes('busy')) {
    throw new DomainError('unavailable', 'A mail for this event is being sent by another delivery; deliver it again.');
  }
}
