import type { PayoutCard as PayoutCardView } from '@portal/shared/api/payments';
import { withAccountLock, type AccountLocks } from '../auth/account-lock';
import type { UserRecord, UserRepository } from '../auth/user-store';
import { DomainError, conflict } from '../errors';
import {
  MALFORMED_EVENT,
  endpointOfEvent,
  typeOfEvent,
  type GatewayEvent,
  type PaymentGateway,
  type PaymentState,
  type PayoutAccountStatus,
  type PayoutCard,
  type WebhookEndpoint,
} from './payment-gateway';
import type { AccountRequest, PayoutAccountState, PayoutAccountStore } from './payout-store';
import type { ProcessedEvents } from './processed-events';

/** The payout account form's body as validated (`CreatePayoutAccountRequest`'s output). */
export interface PayoutAccountForm {
  social_profile: string;
  first_name: string;
  last_name: string;
  /** Ten digits. */
  phone: string;
  street_address_1: string;
  address_unit?: string;
  city: string;
  state: string;
  zipcode: string;
  dob_day: number;
  dob_month: number;
  dob_year: number;
  /** Nine digits: sent to Stripe, never stored or logged. */
  tax_id: string;
}

export interface PayoutDeps {
  users: Pick<UserRepository, 'get'>;
  accounts: PayoutAccountStore;
  gateway: PaymentGateway;
  now: () => number;
  /** The account's lock, taken before a card change's Stripe calls (auth/account-lock.ts). */
  locks: AccountLocks;
}

const stateOf = (status: PayoutAccountStatus, now: number): PayoutAccountState => ({
  requirementsDue: status.requirementsDue,
  transfers: status.transfers,
  payoutsEnabled: status.payoutsEnabled,
  pendingVerification: status.pendingVerification,
  errors: status.errors,
  updatedAt: new Date(now).toISOString(),
  asOf: status.asOf,
});

/** The member the stack authenticated (every payout call is a member call). */
export function member(user: UserRecord | undefined): UserRecord {
  if (!user) throw new DomainError('unauthorized', 'Log in to continue.');
  return user;
}

/** Reads the user again: the answer after a write, or after losing the race to another tab. */
async function reread(deps: PayoutDeps, userId: string): Promise<UserRecord> {
  const user = await deps.users.get(userId);
  if (!user) throw new DomainError('unauthorized', 'Your account no longer exists. Log in again.');
  return user;
}

/**
 * Creates the member's connected account, once: a member who has one gets it back; the gateway's
 * idempotency key makes a double submit create one account at Stripe; the conditional write makes
 * the first stored account the only one.
 */
export async function createPayoutAccount(
  deps: PayoutDeps,
  user: UserRecord,
  form: PayoutAccountForm,
  request: { ip: string; userAgent?: string },
): Promise<UserRecord> {
  if (user.stripeID) return user;
  // The first attempt's terms acceptance, kept: a retry sends the same parameters, so Stripe
  // replays the account a lost answer made rather than refusing the key.
  const kept = await deps.accounts.keepAccountRequest(user.id, {
    acceptedAt: new Date(deps.now()).toISOString(),
    ip: request.ip,
    ...(request.userAgent ? { userAgent: request.userAgent } : {}),
  });
  if (!kept) return reread(deps, user.id);
  let status: PayoutAccountStatus;
  try {
    status = await createAtGateway(user, form, kept, deps);
  } catch (error) {
    // Another request of this member (a double submit, a second tab) holds the idempotency key:
    // the account it creates is the answer, once it is stored.
    if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
    for (const delayMs of CONFLICT_WAITS_MS) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const current = await reread(deps, user.id);
      if (current.stripeID) return current;
    }
    throw error;
  }
  await deps.accounts.savePayoutAccount(
    user.id,
    status.id,
    {
      first_name: form.first_name,
      last_name: form.last_name,
      phone: form.phone,
      street_address_1: form.street_address_1,
      address_unit: form.address_unit ?? '',
      city: form.city,
      state: form.state,
      zipcode: form.zipcode,
    },
    stateOf(status, deps.now()),
  );
  // Whether this write or an earlier one stored the account, the stored one is the answer.
  return reread(deps, user.id);
}

/** How long a request that lost the idempotency race waits for the winner's account (about 5 s in all). */
const CONFLICT_WAITS_MS = [100, 200, 400, 800, 1_500, 2_000];

function createAtGateway(
  user: UserRecord,
  form: PayoutAccountForm,
  request: AccountRequest,
  deps: PayoutDeps,
): Promise<PayoutAccountStatus> {
  return deps.gateway.createConnectedAccount({
    userId: user.id,
    email: user.email,
    firstName: form.first_name,
    lastName: form.last_name,
    phone: `+1${form.phone}`,
    address: {
      line1: form.street_address_1,
      ...(form.address_unit ? { line2: form.address_unit } : {}),
      city: form.city,
      state: form.state,
      postalCode: form.zipcode,
    },
    dob: { day: form.dob_day, month: form.dob_month, year: form.dob_year },
    taxId: form.tax_id,
    profileUrl: form.social_profile,
    tosAcceptance: { date: new Date(request.acceptedAt), ip: request.ip, userAgent: request.userAgent },
  });
}

/** The caller's own account, or a 404 that says nothing of whether `id` exists for someone else. */
function ownAccount(user: UserRecord, id: string): string {
  if (!user.stripeID || user.stripeID !== id) throw new DomainError('not-found', 'No such payout account.');
  return user.stripeID;
}

const view = (card: PayoutCard): PayoutCardView => ({
  brand: card.brand,
  exp_month: card.exp_month,
  exp_year: card.exp_year,
  last4: card.last4,
});

/** A second card change of one account while one is at Stripe (decision 0243). */
export const CARD_CHANGE_UNDER_WAY =
  'Your debit card is already being changed (in another tab, or by a second click). Wait a few seconds, then reload the page to see which card is kept.';

/** Runs a card change holding the account's card lock: one change at Stripe at a time. */
const oneCardChange = <T>(deps: PayoutDeps, user: UserRecord, work: () => Promise<T>): Promise<T> =>
  withAccountLock(deps, user.id, 'payout-card', () => conflict(CARD_CHANGE_UNDER_WAY), work);

export async function addPayoutMethod(
  deps: PayoutDeps,
  user: UserRecord,
  body: { id: string; token: string },
): Promise<{ user: UserRecord; card: PayoutCardView }> {
  const accountId = ownAccount(user, body.id);
  const card = await oneCardChange(deps, user, () => deps.gateway.addDebitCard(accountId, body.token, user.id));
  await deps.accounts.setPayoutMethodAdded(user.id, accountId);
  return { user: await reread(deps, user.id), card: view(card) };
}

/**
 * A new debit card in place of the old one (issue 28): the new card becomes the default, then the
 * old ones are deleted at Stripe. Retried with the same token, it makes the same card once and
 * deletes what is left. A refused card (a credit card, a declined one) leaves the old card. One
 * change of the account's cards at a time: another at the same moment is a 409 in words.
 */
export async function replacePayoutMethod(
  deps: PayoutDeps,
  user: UserRecord,
  body: { id: string; token: string },
): Promise<{ user: UserRecord; card: PayoutCardView }> {
  const accountId = ownAccount(user, body.id);
  const card = await oneCardChange(deps, user, () => deps.gateway.replaceDebitCard(accountId, body.token, user.id));
  await deps.accounts.setPayoutMethodAdded(user.id, accountId);
  return { user: await reread(deps, user.id), card: view(card) };
}

/** The corrections of the payout account screen (`UpdatePayoutAccountRequest`'s output): whole groups. */
export interface PayoutAccountCorrection {
  first_name?: string;
  last_name?: string;
  street_address_1?: string;
  address_unit?: string;
  city?: string;
  state?: string;
  zipcode?: string;
  dob_day?: number;
  dob_month?: number;
  dob_year?: number;
  tax_id?: string;
}

/**
 * Sends the member's corrected details to their connected account (issue 34): Stripe checks them
 * again, so the stored state becomes what Stripe answers (usually "Verifying"), and the
 * `account.updated` events that follow keep it current. The tax ID goes to Stripe only.
 */
export async function updatePayoutAccount(
  deps: PayoutDeps,
  user: UserRecord,
  form: PayoutAccountCorrection,
): Promise<UserRecord> {
  if (!user.stripeID)
    throw new DomainError('conflict', 'Set up your payout account first: My Account, Payout Account.');
  const name = form.first_name && form.last_name ? { firstName: form.first_name, lastName: form.last_name } : {};
  const address =
    form.street_address_1 && form.city && form.state && form.zipcode
      ? {
          address: {
            line1: form.street_address_1,
            ...(form.address_unit ? { line2: form.address_unit } : {}),
            city: form.city,
            state: form.state,
            postalCode: form.zipcode,
          },
        }
      : {};
  const dob =
    form.dob_day && form.dob_month && form.dob_year
      ? { dob: { day: form.dob_day, month: form.dob_month, year: form.dob_year } }
      : {};
  const status = await deps.gateway.updateIndividual(user.stripeID, {
    ...name,
    ...address,
    ...dob,
    ...(form.tax_id ? { taxId: form.tax_id } : {}),
  });
  // Stripe's answer is at least as new as anything stored before it, whatever the two clocks say.
  const stored = await reread(deps, user.id);
  const asOf = Math.max(status.asOf, stored.payoutAccount?.asOf ?? 0);
  await deps.accounts.setPayoutAccountState(user.id, user.stripeID, stateOf({ ...status, asOf }, deps.now()), true);
  return reread(deps, user.id);
}

export async function listPayoutCards(deps: PayoutDeps, user: UserRecord, id: string): Promise<PayoutCardView[]> {
  return (await deps.gateway.listCards(ownAccount(user, id))).map(view);
}

/**
 * `account.updated`: keeps the owner's requirements and payout capability current. Stripe does not
 * deliver events in order, so the write is conditional on the stored state being older than the
 * event's `created`: a late, older event changes nothing. Two events of the same second cannot be
 * ordered by `created`; then the account is read from Stripe and its current state stored.
 */
export async function accountUpdated(
  deps: Omit<PayoutDeps, 'locks'>,
  userId: string | undefined,
  status: PayoutAccountStatus,
): Promise<boolean> {
  if (!userId) return false;
  if (await deps.accounts.setPayoutAccountState(userId, status.id, stateOf(status, deps.now()))) return true;
  const stored = await deps.users.get(userId);
  // Before the account's creation is stored (its answer still on the way, or lost and the member
  // yet to try again): not ours to drop. A non-2xx makes Stripe deliver it again (for 3 days).
  if (stored && !stored.stripeID) throw conflict('The payout account of this event is not stored yet.');
  if (stored?.stripeID !== status.id || stored.payoutAccount?.asOf !== status.asOf) return false;
  const current = await deps.gateway.retrieveAccount(status.id);
  // Read after the event arrived, so at least as new as it, whatever the two clocks say.
  const asOf = Math.max(current.asOf, status.asOf);
  return deps.accounts.setPayoutAccountState(userId, status.id, stateOf({ ...current, asOf }, deps.now()), true);
}

export interface WebhookDeps extends Pick<PayoutDeps, 'gateway' | 'now'> {
  processed: ProcessedEvents;
  /** `account.updated` (the Connect endpoint): the member and their payout account; absent, ignored. */
  accountUpdates?: Pick<PayoutDeps, 'users' | 'accounts'>;
  /** After an `account.updated` was stored: the member's mail when Stripe could not verify them. */
  accountNotice?: (userId: string, account: PayoutAccountStatus) => Promise<unknown>;
  /** `payment_intent.succeeded`: records the checkout's order (idempotent per payment); absent, ignored. */
  paymentSucceeded?: (payment: PaymentState) => Promise<unknown>;
  /** The transfers' and payouts' events (`payout.failed`, `payout.paid`, `transfer.created`). */
  moneyEvents?: (event: MoneyEvent) => Promise<unknown>;
  /** A sale's refunds and disputes (`charge.refunded`, `refund.updated` and its kin, `charge.dispute.created`, `charge.dispute.closed`). */
  saleEvents?: (event: SaleEvent) => Promise<unknown>;
  /** A line in the function's log (an event ignored, or refused as malformed). */
  log: (message: string, details: Record<string, unknown>) => Promise<void>;
}

/** The events of the commissions' money movement, handed to `WebhookDeps.moneyEvents`. */
export type MoneyEvent = Extract<GatewayEvent, { kind: 'payout.failed' | 'payout.paid' | 'transfer.created' }>;

/** The events of a sale's refunds and disputes, handed to `WebhookDeps.saleEvents`. */
export type SaleEvent = Extract<
  GatewayEvent,
  { kind: 'charge.refunded' | 'refund.updated' | 'charge.dispute.created' | 'charge.dispute.closed' }
>;

const isSaleEventOf = (event: GatewayEvent): event is SaleEvent =>
  event.kind === 'charge.refunded' ||
  event.kind === 'refund.updated' ||
  event.kind === 'charge.dispute.created' ||
  event.kind === 'charge.dispute.closed';

/**
 * The event with its object as Stripe has it now, read through the gateway (a Connect event's
 * payout with its account's header): Stripe does not order its events, and a signed event may
 * name an object Stripe never had. Undefined when Stripe has no such object (a 404), or when a
 * payout's event no longer says what the payout is (`payout.paid` of a payout that failed since:
 * its `payout.failed` follows). Account updates keep their own check (`accountUpdated`).
 */
async function asAtStripe(gateway: PaymentGateway, event: GatewayEvent): Promise<GatewayEvent | undefined> {
  switch (event.kind) {
    case 'payment_intent.succeeded': {
      try {
        return { ...event, payment: await gateway.retrievePaymentIntent(event.payment.id) };
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not-found') return undefined;
        throw error;
      }
    }
    case 'payout.paid':
    case 'payout.failed': {
      if (!event.accountId) return undefined;
      const payout = await gateway.retrievePayout(event.accountId, event.payoutId);
      if (!payout || payout.status !== (event.kind === 'payout.paid' ? 'paid' : 'failed')) return undefined;
      const { metadata, failure, amountCents, arrivalDate, method } = payout;
      return { ...event, metadata, failure, amountCents, arrivalDate, method };
    }
    case 'charge.refunded': {
      const charge = await gateway.retrieveCharge(event.chargeId);
      return charge && { ...event, paymentIntentId: charge.paymentIntentId };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = await gateway.retrieveDispute(event.dispute.disputeId);
      return dispute && { ...event, dispute };
    }
    default:
      return event;
  }
}

/** What the invocation knows of itself: its deadline, for the event's claim. */
export interface Invocation {
  remainingMs: () => number;
}

/** Without a Lambda context (never in AWS): the claim lasts the Stripe functions' 29 s. */
const DEFAULT_INVOCATION: Invocation = { remainingMs: () => 29_000 };

/**
 * A signed provider event at one of the two endpoints: verified on the raw body with that
 * endpoint's secret, acknowledged and ignored (with a log line) when it is the other endpoint's
 * kind or one the portal does not act on, and applied once (ProcessedEvents): `account.updated`
 * keeps the owner's requirements and payout capability current, the others record the order or
 * move the commission they name. A failure releases the event, so the provider's retry applies it.
 */
export async function receiveWebhook(
  deps: WebhookDeps,
  rawBody: string | Buffer,
  signature: string | undefined,
  endpoint: WebhookEndpoint,
  invocation: Invocation = DEFAULT_INVOCATION,
): Promise<'processed' | 'duplicate' | 'ignored'> {
  if (!signature) throw new DomainError('bad-request', 'The Stripe-Signature header is missing.');
  let event: GatewayEvent;
  try {
    event = await deps.gateway.verifyEvent(rawBody, signature, endpoint);
  } catch (error) {
    if (error instanceof DomainError && error.message.startsWith(MALFORMED_EVENT)) {
      await deps.log('Stripe event refused as malformed', { endpoint, reason: error.message });
    }
    throw error;
  }
  const type = typeOfEvent(event);
  if (endpointOfEvent(type) !== endpoint) {
    await deps.log('Stripe event ignored: it belongs to the other webhook endpoint', {
      endpoint,
      eventId: event.id,
      type,
    });
    return 'ignored';
  }
  if (event.kind === 'other') return 'ignored';
  const accountUpdates = deps.accountUpdates;
  if (event.kind === 'account.updated' && !accountUpdates) return 'ignored';
  const paymentSucceeded = deps.paymentSucceeded;
  if (event.kind === 'payment_intent.succeeded' && !paymentSucceeded) return 'ignored';
  const moneyEvents = deps.moneyEvents;
  const isMoneyEvent =
    event.kind === 'payout.failed' || event.kind === 'payout.paid' || event.kind === 'transfer.created';
  if (isMoneyEvent && !moneyEvents) return 'ignored';
  const saleEvents = deps.saleEvents;
  if (isSaleEventOf(event) && !saleEvents) return 'ignored';
  const signed = event;
  return deps.processed.once(
    signed.id,
    async () => {
      // Acted on as Stripe has its object now: an event about an object Stripe never had is ignored.
      const known = await asAtStripe(deps.gateway, signed);
      if (!known) {
        await deps.log('Stripe event ignored: Stripe has no such object, or it is no longer what the event says', {
          endpoint,
          eventId: signed.id,
          type,
        });
        return;
      }
      if (known.kind === 'account.updated') {
        const stored = await accountUpdated(
          { ...accountUpdates!, gateway: deps.gateway, now: deps.now },
          known.userId,
          known.account,
        );
        // Told once per set of errors, from the state stored (a late, older event says nothing).
        if (stored && known.userId && known.account.errors.length)
          await deps.accountNotice?.(known.userId, known.account);
        // The portal pays each commission out itself: another schedule is put back to manual.
        const interval = known.account.payoutInterval;
        if (known.userId && interval && interval !== 'manual') {
          await deps.log('Stripe account payouts put back to manual', { accountId: known.account.id, found: interval });
          await deps.gateway.setManualPayouts(known.account.id, interval);
        }
      } else if (known.kind === 'payment_intent.succeeded') await paymentSucceeded?.(known.payment);
      // Refunds and disputes: the order and its commission follow (commissions/refunds.ts).
      else if (isSaleEventOf(known)) await saleEvents?.(known);
      // The transfers' and payouts' events move the commission they name (commissions/money-movement.ts).
      else if (known.kind !== 'other') await moneyEvents?.(known);
    },
    invocation.remainingMs,
  );
}
