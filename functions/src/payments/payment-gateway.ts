import { DomainError } from '../errors';

/**
 * The payment provider as the payments capability needs it (Stripe Connect in production and
 * against the local emulator). The adapter maps the provider's refusals to DomainErrors whose
 * message is written for the member and whose `fields` name the form field concerned.
 */

/** What a US individual gives to open a payout account; `taxId` goes to the provider only. */
export interface NewPayoutAccount {
  /** Our user id: the account's metadata and the base of the idempotency key. */
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** E.164, `+1` and ten digits. */
  phone: string;
  address: { line1: string; line2?: string; city: string; state: string; postalCode: string };
  dob: { day: number; month: number; year: number };
  /** Nine digits, no dashes. Never stored or logged by us. */
  taxId: string;
  /** The member's social profile, as `business_profile.url`. */
  profileUrl: string;
  /** When and from where the member accepted the Connected Account Agreement. */
  tosAcceptance: { date: Date; ip: string; userAgent?: string };
}

/** The state of a connected account that decides whether it can be paid. */
export interface PayoutAccountStatus {
  id: string;
  /**
   * When the provider said this, in epoch seconds: the account's creation, an event's `created`,
   * or the time of a retrieve. A late, older event must not overwrite newer state.
   */
  asOf: number;
  /** What the provider still needs (`requirements.currently_due`). */
  requirementsDue: string[];
  /** `transfers` capability: `active`, `inactive`, `pending`, or `unrequested`. */
  transfers: string;
  payoutsEnabled: boolean;
  /** What Stripe is checking (`requirements.pending_verification`): the account is being verified. */
  pendingVerification: string[];
  /** Why a verification failed (`requirements.errors`): the requirement, Stripe's code and its reason. */
  errors: RequirementError[];
  /** `settings.payouts.schedule.interval`: `manual` for the portal's accounts (it pays each commission out itself). */
  payoutInterval: string | null;
}

/** A requirement Stripe could not verify (`requirements.errors[]`). */
export interface RequirementError {
  requirement: string;
  code: string;
  reason: string;
}

/** A debit card a connected account is paid out to, as the apps show it. */
export interface PayoutCard {
  id: string;
  brand: string;
  exp_month: number;
  exp_year: number;
  last4: string;
}

/** A card payment to create, in integer cents of USD. */
export interface NewPaymentIntent {
  amountCents: number;
  /** Shown on the provider's dashboard and in its events (string values, as Stripe's metadata). */
  metadata: Record<string, string>;
  description?: string;
  /** Where the order ships (Stripe's `shipping`), when the checkout form gave it. */
  shipping?: PaymentShipping;
  /** The buyer's e-mail (Stripe's `receipt_email`). */
  receiptEmail?: string;
  /** Our own idempotency key: the same key answers the same intent. */
  idempotencyKey: string;
}

export interface CreatedPaymentIntent {
  id: string;
  clientSecret: string;
  amountCents: number;
  currency: 'usd';
}

/** A payment's shipping details, as Stripe keeps them. */
export interface PaymentShipping {
  name: string;
  address: { line1: string; line2?: string; city: string; state: string; postalCode: string };
}

/** A card payment as the sales capability records it (Stripe's PaymentIntent, mapped). */
export interface PaymentState {
  id: string;
  /** `succeeded` is the only state an order is recorded for. */
  status: string;
  amountCents: number;
  currency: string;
  /** product_id, qty, unit_amount, ref, checkout_id, customer_name, customer_email (string values). */
  metadata: Record<string, string>;
  shipping: PaymentShipping | null;
  receiptEmail: string | null;
  /** The payment's charge (`latest_charge`, `ch_…`): a commission's transfer is funded from it. */
  chargeId: string | null;
}

/** A USD transfer from the platform's balance to a connected account, in integer cents. */
export interface NewTransfer {
  amountCents: number;
  destinationAccountId: string;
  /** Our own key: the same key answers the same transfer (Stripe keeps it 24 h). */
  idempotencyKey: string;
  metadata: Record<string, string>;
  /**
   * The sale's charge (`ch_…`) the transfer is funded from (`source_transaction`): it may go while
   * the charge's funds are still pending. Absent: drawn on the platform's available balance.
   */
  sourceTransaction?: string;
  /** Stripe's `transfer_group`: the transfers of one payout batch, found together. */
  transferGroup?: string;
}

/** A payout from a connected account's balance to its default debit card, in integer cents of USD. */
export interface NewPayout {
  accountId: string;
  amountCents: number;
  /**
   * The method asked for (a member's withdrawal, after showing its fee); absent: standard (free).
   * Stripe bills the platform 1 % of an instant payout (decision 0270).
   */
  method?: 'instant' | 'standard';
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** The card a connected account's payouts go to, and whether it takes Instant Payouts. */
export interface PayoutDestination {
  last4: string;
  brand: string;
  /** The card lists `instant` in `available_payout_methods`. */
  instant: boolean;
}

/** A payout as Stripe answered its create. */
export interface CreatedPayout {
  id: string;
  status: string;
  method: string;
  /** Stripe's `arrival_date`: when the payout is expected at the bank, epoch seconds. */
  arrivalDate: number | null;
}

/** Funds at Stripe: available already, or pending until `availableOn` (epoch seconds). */
export interface FundsState {
  available: boolean;
  availableOn: number;
}

/** A connected account's USD balance in cents. */
export interface ConnectedBalance {
  availableCents: number;
  /** The pending funds by the day they become available (epoch seconds), earliest first. */
  pending: { amountCents: number; availableOn: number }[];
}

/** The identity details a member corrects after Stripe could not verify them; each optional. */
export interface IndividualDetails {
  firstName?: string;
  lastName?: string;
  dob?: { day: number; month: number; year: number };
  address?: { line1: string; line2?: string; city: string; state: string; postalCode: string };
  /** Nine digits: sent to Stripe only. */
  taxId?: string;
}

/** A payout event of a connected account (`payout.failed`, `payout.paid`). */
export interface PayoutEventData {
  payoutId: string;
  /** The connected account (`event.account`). */
  accountId: string | undefined;
  metadata: Record<string, string>;
  /** Stripe's `failure_message`, else its `failure_code` (failed payouts only). */
  failure: string | null;
  /** Stripe's `failure_code` (`account_closed`, `could_not_process`, …), for the member's words. */
  failureCode?: string | null;
  /** The event's `created`, epoch seconds. */
  created: number;
  /** The payout's `amount` in cents, `arrival_date` (epoch seconds) and `method`, when the event carries them. */
  amountCents?: number | null;
  arrivalDate?: number | null;
  method?: string | null;
}

/** A payout as Stripe has it now (read with the connected account's `Stripe-Account` header). */
export interface PayoutState {
  payoutId: string;
  /** `paid`, `pending`, `in_transit`, `canceled` or `failed`. */
  status: string;
  metadata: Record<string, string>;
  /** Stripe's `failure_message`, else its `failure_code`. */
  failure: string | null;
  amountCents: number;
  /** Stripe's `arrival_date`, epoch seconds. */
  arrivalDate: number | null;
  method: string | null;
}

/** A charge as the refund events need it: its payment. */
export interface ChargeState {
  chargeId: string;
  paymentIntentId: string | null;
}

/** A refund of a card payment, all or part, in integer cents of USD. */
export interface NewRefund {
  paymentIntentId: string;
  amountCents: number;
  /** Stripe's reason (`requested_by_customer`, `duplicate`, `fraudulent`). */
  reason: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  /** Our own key: the same key answers the same refund (Stripe keeps it 24 h). */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A refund as Stripe holds it. */
export interface RefundState {
  id: string;
  amountCents: number;
  /** `pending`, `requires_action`, `succeeded`, `failed` or `canceled`. */
  status: string;
  reason: string | null;
  metadata: Record<string, string>;
  /** Why a `pending` refund waits: `insufficient_funds` (the platform's balance does not cover it yet), `processing`, `charge_pending`. */
  pendingReason?: string | null;
}

/** A refund's later state (`refund.updated`, `charge.refund.updated`, `refund.failed`). */
export interface RefundUpdate {
  refundId: string;
  paymentIntentId: string | null;
  amountCents: number;
  /** `succeeded`, `pending`, `failed`, `canceled`, … */
  status: string;
  pendingReason: string | null;
  /** Stripe's `failure_reason` (failed refunds only). */
  failureReason: string | null;
}

/** A reversal of (part of) a transfer to a connected account: the amount comes back to the platform. */
export interface NewTransferReversal {
  transferId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A dispute of a card payment (`charge.dispute.*`). */
export interface DisputeData {
  disputeId: string;
  chargeId: string;
  paymentIntentId: string | null;
  amountCents: number;
  /** Stripe's reason (`fraudulent`, `product_not_received`, …). */
  reason: string;
  /** `needs_response`, `under_review`, `won`, `lost`, `warning_closed`, … */
  status: string;
  /** When the evidence is due (Stripe's `evidence_details.due_by`, seconds), when Stripe says. */
  evidenceDueBy?: number | null;
}

/** A dispute's statuses once it is decided (Stripe's Dispute `status`); any other is open. */
const CLOSED_DISPUTE = new Set(['won', 'lost', 'warning_closed', 'prevented', 'charge_refunded']);
export const isDisputeOpen = (status: string): boolean => !CLOSED_DISPUTE.has(status);

/**
 * The two webhook endpoints of a Connect platform: `platform` (`/api/stripeWebhook`) receives the
 * platform account's own events, `connect` (`/api/stripeConnectWebhook`) the connected accounts'.
 * Each has its own signing secret.
 */
export type WebhookEndpoint = 'platform' | 'connect';

/** The event types each endpoint subscribes to (docs/deploy.md, "Stripe: setting up a new account"); an event of another endpoint's kind is ignored. */
const CONNECT_EVENT = /^(account\.updated|account\.external_account\.[a-z_]+|payout\.[a-z_]+)$/;
export const endpointOfEvent = (type: string): WebhookEndpoint => (CONNECT_EVENT.test(type) ? 'connect' : 'platform');

/** The message of a validly signed event whose data does not have its type's shape. */
export const MALFORMED_EVENT = 'The event is malformed';

/** A verified provider event the portal acts on; others are `{ kind: 'other' }`. */
export type GatewayEvent =
  | { id: string; kind: 'account.updated'; account: PayoutAccountStatus; userId: string | undefined }
  | { id: string; kind: 'payment_intent.succeeded'; payment: PaymentState }
  | ({ id: string; kind: 'payout.failed' } & PayoutEventData)
  | ({ id: string; kind: 'payout.paid' } & PayoutEventData)
  | { id: string; kind: 'transfer.created'; transferId: string; metadata: Record<string, string>; created: number }
  | { id: string; kind: 'charge.refunded'; chargeId: string; paymentIntentId: string | null }
  | { id: string; kind: 'refund.updated'; refund: RefundUpdate }
  | { id: string; kind: 'charge.dispute.created' | 'charge.dispute.closed'; dispute: DisputeData }
  | { id: string; kind: 'other'; type: string };

/**
 * The events each endpoint is registered for at Stripe (docs/deploy.md; `npm run deploy:check`
 * compares the registered endpoints with these): every kind the portal acts on (a test holds the
 * list to `GatewayEvent`'s kinds), each on the endpoint `endpointOfEvent` gives it.
 */
export const WEBHOOK_EVENTS = {
  platform: [
    'payment_intent.succeeded',
    'charge.refunded',
    'refund.updated',
    'refund.failed',
    'charge.dispute.created',
    'charge.dispute.closed',
    'transfer.created',
  ],
  connect: ['account.updated', 'payout.paid', 'payout.failed'],
} as const satisfies Record<WebhookEndpoint, readonly string[]>;

/** Every event also says its type (`kind` is that type for the events the portal acts on). */
export const typeOfEvent = (event: GatewayEvent): string => (event.kind === 'other' ? event.type : event.kind);

export interface PaymentGateway {
  /**
   * Creates the member's connected account (US individual, transfers capability, ToS accepted).
   * One per user: the same user and purpose send the same idempotency key, so a double submit
   * answers the account the first created.
   */
  createConnectedAccount(account: NewPayoutAccount): Promise<PayoutAccountStatus>;
  /** Attaches a card token as the account's payout card; a credit card is refused (400, `token`). */
  addDebitCard(accountId: string, cardToken: string, userId: string): Promise<PayoutCard>;
  /**
   * Replaces the account's payout card: adds the token's card as the default for USD
   * (`default_for_currency`, the same idempotency key as adding it), then deletes every other card
   * (a DELETE is idempotent at Stripe; one already gone counts as deleted). A refused card leaves
   * the old one in place.
   */
  replaceDebitCard(accountId: string, cardToken: string, userId: string): Promise<PayoutCard>;
  listCards(accountId: string): Promise<PayoutCard[]>;
  /** The account's current state (asOf = now); an unknown account is a 404 DomainError. */
  retrieveAccount(accountId: string): Promise<PayoutAccountStatus>;
  /** A USD payment intent for the card payment of a checkout; nothing is charged until it is confirmed. */
  createPaymentIntent(intent: NewPaymentIntent): Promise<CreatedPaymentIntent>;
  /** A payment intent as it is now at the provider; an unknown id is a 404 DomainError. */
  retrievePaymentIntent(id: string): Promise<PaymentState>;
  /**
   * Cancels a payment intent nobody has paid (Stripe's `cancellation_reason: abandoned`), with our
   * key; one that can no longer be cancelled (succeeded, canceled already) answers its status
   * rather than an error, so a retry ends where the first call did.
   */
  cancelPaymentIntent(id: string, idempotencyKey: string): Promise<{ status: string }>;
  /**
   * A USD transfer to a connected account. A refusal the admin can act on (the account cannot take
   * transfers yet, the platform's balance is too low) is a 409 DomainError saying so.
   */
  createTransfer(transfer: NewTransfer): Promise<{ id: string; amountCents: number }>;
  /**
   * A transfer to `destinationAccountId` whose metadata has `key` = `value`, when the last transfers
   * to that account hold one: what heals an attempt whose idempotency key may have expired.
   */
  findTransfer(destinationAccountId: string, key: string, value: string): Promise<{ id: string } | undefined>;
  /**
   * A payout of the connected account's balance to its default debit card (`Stripe-Account`
   * header): instant where the card takes it, else standard.
   */
  createPayout(payout: NewPayout): Promise<CreatedPayout>;
  /** The account's default debit card for USD payouts, or undefined when it has none. */
  payoutDestination(accountId: string): Promise<PayoutDestination | undefined>;
  /**
   * When a charge's funds are (or become) available in the platform's balance: its balance
   * transaction's `status` and `available_on`; undefined when Stripe lists none for it yet. A
   * transfer funded from the charge (`source_transaction`) is pending in the member's balance until then.
   */
  chargeFunds(chargeId: string): Promise<FundsState | undefined>;
  /**
   * A connected account's USD balance: what is available to pay out now, and what is pending, by the
   * day it becomes available (its balance transactions' `available_on`, earliest first).
   */
  connectedBalance(accountId: string): Promise<ConnectedBalance>;
  /**
   * Sends the member's corrected details to their connected account (`individual[...]`): Stripe
   * checks them again (`account.updated` follows). A refused value is a 400 naming its field.
   */
  updateIndividual(accountId: string, details: IndividualDetails): Promise<PayoutAccountStatus>;
  /** The card a charge was paid with (its last four and brand), or undefined when it was not a card or is unknown. */
  chargeCard(chargeId: string): Promise<{ last4: string; brand: string } | undefined>;
  /**
   * Puts the account's payouts back to `manual` (one update, with an idempotency key per account
   * and the schedule it found), after an `account.updated` showed another schedule.
   */
  setManualPayouts(accountId: string, found: string): Promise<void>;
  /**
   * Verifies the signature over the raw body with the secret of the endpoint it arrived at (300 s
   * tolerance, in the past and in the future); a bad one is a 400. A validly signed event whose
   * data is not what its type says is a 400 too (`malformedEvent`), never a 500 Stripe would
   * retry for days.
   */
  verifyEvent(rawBody: string | Buffer, signature: string, endpoint: WebhookEndpoint): Promise<GatewayEvent>;
  /**
   * Refunds (part of) a card payment. More than is left to refund, or a payment refunded in full
   * already, is a 409 DomainError in words; the same key answers the same refund.
   */
  createRefund(refund: NewRefund): Promise<RefundState>;
  /** Every refund of a payment, newest first. */
  listRefunds(paymentIntentId: string): Promise<RefundState[]>;
  /**
   * The objects an event names, as Stripe has them now (undefined: Stripe has no such object, a
   * 404): an event is acted on only after its object is read from Stripe (payments/payouts.ts).
   */
  retrieveDispute(id: string): Promise<DisputeData | undefined>;
  retrieveCharge(id: string): Promise<ChargeState | undefined>;
  /** A connected account's payout, read with its `Stripe-Account` header. */
  retrievePayout(accountId: string, id: string): Promise<PayoutState | undefined>;
  /** Reverses (part of) a transfer: the connected account gives the amount back to the platform. */
  createTransferReversal(reversal: NewTransferReversal): Promise<{ id: string; amountCents: number }>;
}

/**
 * A definite refusal of a money movement (the platform's balance is too low, the account cannot
 * take transfers yet, the account is gone): a 409 the admin can act on, after which the next try
 * must carry a new idempotency key (Stripe would replay the refusal for 24 h under the same one).
 */
export class MoneyRefusal extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * Stripe refused an INSTANT payout where a standard one may go: the platform is not enabled for
 * Instant Payouts or reached its daily volume, the card does not take them, or the amount is
 * outside their bounds. `reason` is in words ("the card does not take instant payouts").
 */
export class InstantRefused extends MoneyRefusal {
  constructor(readonly reason: string) {
    super(`Instant payouts are not available (${reason}).`);
  }
}

/** The idempotency key of a create: one per user and purpose, so retries and second tabs create once. */
export const idempotencyKey = (purpose: 'payout-account' | 'payout-card', userId: string, detail?: string): string =>
  ['portal', purpose, userId, ...(detail ? [detail] : [])].join(':');
