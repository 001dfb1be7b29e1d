import type Stripe from 'stripe';
import { StripeApiError, invalid } from './errors';
import { stripeId } from './ids';
import { requiredString, type Params } from './params';

/** The debit card that takes a payout and then fails it, as Stripe's test card of that name does. */
export const PAYOUT_FAILING_DEBIT_CARD = '4000056655665572';

/** Where a row of the table comes from. */
const PAYMENTS_TESTING = 'docs.stripe.com/testing';
const CONNECT_TESTING = 'docs.stripe.com/connect/testing';

/** How a card payment ends, by Stripe's test cards. */
export type CardOutcome =
  | { kind: 'succeeds' }
  /** Lands in the available balance at once ("Available balance" card). */
  | { kind: 'available' }
  /** Declined: the error's `code` (card_declined unless Stripe names another) and `decline_code`. */
  | { kind: 'declined'; code: string; declineCode: string; message: string }
  /** Succeeds, then opens a dispute with this reason (`charge.dispute.created`). */
  | { kind: 'dispute'; reason: string; status: Stripe.Dispute.Status }
  /** Succeeds; a refund of it fails later (`charge.refund.updated`, status failed). */
  | { kind: 'refund_fails' };

export interface TestCard {
  number: string;
  /** The `pm_card_…` test payment method and the `tok_…` test token standing for it, where Stripe lists them. */
  paymentMethod?: string;
  token?: string;
  brand: string;
  funding: 'credit' | 'debit' | 'prepaid';
  outcome: CardOutcome;
  /** For payouts to a debit card: the methods Stripe lists (`instant` where it supports Instant Payouts). */
  payoutMethods?: ('standard' | 'instant')[];
  /** A payout to this card fails with this code. */
  payoutFailure?: { code: string; message: string };
  /** Connect testing's payout tokens for this debit card (`tok_…_us_transferSuccess` and the rest), each a fresh card token. */
  payoutTokens?: string[];
  source: string;
}

const ok: CardOutcome = { kind: 'succeeds' };
const declined = (declineCode: string, message: string, code = 'card_declined'): CardOutcome => ({
  kind: 'declined',
  code,
  declineCode,
  message,
});

/** Every card Stripe's testing pages list for card payments and for Connect payouts to debit cards. */
export const TEST_CARDS: readonly TestCard[] = [
  // Cards by brand
  {
    number: '4242424242424242',
    paymentMethod: 'pm_card_visa',
    token: 'tok_visa',
    brand: 'Visa',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '4000056655665556',
    paymentMethod: 'pm_card_visa_debit',
    token: 'tok_visa_debit',
    brand: 'Visa',
    funding: 'debit',
    outcome: ok,
    payoutMethods: ['standard', 'instant'],
    payoutTokens: ['tok_visa_debit_us_transferSuccess'],
    source: `${PAYMENTS_TESTING}; ${CONNECT_TESTING} (debit card, instant payouts)`,
  },
  {
    number: '5555555555554444',
    paymentMethod: 'pm_card_mastercard',
    token: 'tok_mastercard',
    brand: 'MasterCard',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '2223003122003222',
    brand: 'MasterCard',
    funding: 'credit',
    outcome: ok,
    source: `${PAYMENTS_TESTING} (2-series)`,
  },
  {
    number: '5200828282828210',
    paymentMethod: 'pm_card_mastercard_debit',
    token: 'tok_mastercard_debit',
    brand: 'MasterCard',
    funding: 'debit',
    outcome: ok,
    payoutMethods: ['standard', 'instant'],
    payoutTokens: ['tok_mastercard_debit_us_transferSuccess'],
    source: `${PAYMENTS_TESTING}; ${CONNECT_TESTING} (debit card, instant payouts)`,
  },
  {
    number: '5105105105105100',
    paymentMethod: 'pm_card_mastercard_prepaid',
    token: 'tok_mastercard_prepaid',
    brand: 'MasterCard',
    funding: 'prepaid',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '378282246310005',
    paymentMethod: 'pm_card_amex',
    token: 'tok_amex',
    brand: 'American Express',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  { number: '371449635398431', brand: 'American Express', funding: 'credit', outcome: ok, source: PAYMENTS_TESTING },
  {
    number: '6011111111111117',
    paymentMethod: 'pm_card_discover',
    token: 'tok_discover',
    brand: 'Discover',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  { number: '6011000990139424', brand: 'Discover', funding: 'credit', outcome: ok, source: PAYMENTS_TESTING },
  {
    number: '6011981111111113',
    brand: 'Discover',
    funding: 'debit',
    outcome: ok,
    payoutMethods: ['standard', 'instant'],
    payoutTokens: ['tok_discover_debit_us_transferSuccess'],
    source: `${PAYMENTS_TESTING} (Discover debit)`,
  },
  {
    number: '3056930009020004',
    paymentMethod: 'pm_card_diners',
    token: 'tok_diners',
    brand: 'Diners Club',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '36227206271667',
    brand: 'Diners Club',
    funding: 'credit',
    outcome: ok,
    source: `${PAYMENTS_TESTING} (14-digit)`,
  },
  {
    number: '3566002020360505',
    paymentMethod: 'pm_card_jcb',
    token: 'tok_jcb',
    brand: 'JCB',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '6200000000000005',
    paymentMethod: 'pm_card_unionpay',
    token: 'tok_unionpay',
    brand: 'UnionPay',
    funding: 'credit',
    outcome: ok,
    source: PAYMENTS_TESTING,
  },
  {
    number: '4000000000000010',
    paymentMethod: 'pm_card_us',
    token: 'tok_us',
    brand: 'Visa',
    funding: 'credit',
    outcome: ok,
    source: `${PAYMENTS_TESTING} (cards by country: United States)`,
  },
  // Connect: debit cards for payouts
  {
    number: '4000056755665555',
    brand: 'Visa',
    funding: 'debit',
    outcome: ok,
    payoutMethods: ['standard'],
    payoutTokens: ['tok_visa_debit_us_instantPayoutUnsupported'],
    source: `${CONNECT_TESTING} (debit card without instant payouts)`,
  },
  {
    number: PAYOUT_FAILING_DEBIT_CARD,
    brand: 'Visa',
    funding: 'debit',
    outcome: ok,
    payoutMethods: ['standard', 'instant'],
    payoutFailure: { code: 'could_not_process', message: 'The bank could not process this payout.' },
    payoutTokens: ['tok_visa_debit_us_transferFail'],
    source: `${CONNECT_TESTING} (payout fails)`,
  },
  // Available balance
  {
    number: '4000000000000077',
    paymentMethod: 'pm_card_bypassPending',
    token: 'tok_bypassPending',
    brand: 'Visa',
    funding: 'credit',
    outcome: { kind: 'available' },
    source: `${PAYMENTS_TESTING} (available balance)`,
  },
  // Declined payments
  {
    number: '4000000000000002',
    paymentMethod: 'pm_card_visa_chargeDeclined',
    token: 'tok_visa_chargeDeclined',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('generic_decline', 'Your card was declined.'),
    source: `${PAYMENTS_TESTING} (declined payments: generic decline)`,
  },
  {
    number: '4000000000009995',
    paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    token: 'tok_visa_chargeDeclinedInsufficientFunds',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('insufficient_funds', 'Your card has insufficient funds.'),
    source: `${PAYMENTS_TESTING} (insufficient funds)`,
  },
  {
    number: '4000000000009987',
    paymentMethod: 'pm_card_visa_chargeDeclinedLostCard',
    token: 'tok_visa_chargeDeclinedLostCard',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('lost_card', 'Your card was declined.'),
    source: `${PAYMENTS_TESTING} (lost card)`,
  },
  {
    number: '4000000000009979',
    paymentMethod: 'pm_card_visa_chargeDeclinedStolenCard',
    token: 'tok_visa_chargeDeclinedStolenCard',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('stolen_card', 'Your card was declined.'),
    source: `${PAYMENTS_TESTING} (stolen card)`,
  },
  {
    number: '4000000000000069',
    paymentMethod: 'pm_card_chargeDeclinedExpiredCard',
    token: 'tok_chargeDeclinedExpiredCard',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('expired_card', 'Your card has expired.', 'expired_card'),
    source: `${PAYMENTS_TESTING} (expired card)`,
  },
  {
    number: '4000000000000127',
    paymentMethod: 'pm_card_chargeDeclinedIncorrectCvc',
    token: 'tok_chargeDeclinedIncorrectCvc',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('incorrect_cvc', "Your card's security code is incorrect.", 'incorrect_cvc'),
    source: `${PAYMENTS_TESTING} (incorrect CVC)`,
  },
  {
    number: '4000000000000119',
    paymentMethod: 'pm_card_chargeDeclinedProcessingError',
    token: 'tok_chargeDeclinedProcessingError',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined(
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
      'processing_error',
    ),
    source: `${PAYMENTS_TESTING} (processing error)`,
  },
  {
    number: '4000000000006975',
    paymentMethod: 'pm_card_visa_chargeDeclinedVelocityLimitExceeded',
    token: 'tok_visa_chargeDeclinedVelocityLimitExceeded',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('card_velocity_exceeded', 'Your card was declined.'),
    source: `${PAYMENTS_TESTING} (exceeding velocity limit)`,
  },
  {
    number: '4100000000000019',
    paymentMethod: 'pm_card_radarBlock',
    token: 'tok_radarBlock',
    brand: 'Visa',
    funding: 'credit',
    outcome: declined('fraudulent', 'Your card was declined.'),
    source: `${PAYMENTS_TESTING} (fraud prevention: always blocked)`,
  },
  // Disputes
  {
    number: '4000000000000259',
    paymentMethod: 'pm_card_createDispute',
    token: 'tok_createDispute',
    brand: 'Visa',
    funding: 'credit',
    outcome: { kind: 'dispute', reason: 'fraudulent', status: 'needs_response' },
    source: `${PAYMENTS_TESTING} (disputes: fraudulent)`,
  },
  {
    number: '4000000000002685',
    paymentMethod: 'pm_card_createDisputeProductNotReceived',
    token: 'tok_createDisputeProductNotReceived',
    brand: 'Visa',
    funding: 'credit',
    outcome: { kind: 'dispute', reason: 'product_not_received', status: 'needs_response' },
    source: `${PAYMENTS_TESTING} (disputes: not received)`,
  },
  {
    number: '4000000000001976',
    paymentMethod: 'pm_card_createDisputeInquiry',
    token: 'tok_createDisputeInquiry',
    brand: 'Visa',
    funding: 'credit',
    outcome: { kind: 'dispute', reason: 'fraudulent', status: 'warning_needs_response' },
    source: `${PAYMENTS_TESTING} (disputes: inquiry)`,
  },
  // Refunds
  {
    number: '4000000000005126',
    paymentMethod: 'pm_card_refundFail',
    token: 'tok_refundFail',
    brand: 'Visa',
    funding: 'credit',
    outcome: { kind: 'refund_fails' },
    source: `${PAYMENTS_TESTING} (refunds: asynchronous failure)`,
  },
];

const byNumber = new Map(TEST_CARDS.map((card) => [card.number, card]));
const byPaymentMethod = new Map(
  TEST_CARDS.flatMap((card) => (card.paymentMethod ? [[card.paymentMethod, card] as const] : [])),
);
const byToken = new Map(
  TEST_CARDS.flatMap((card) =>
    [...(card.token ? [card.token] : []), ...(card.payoutTokens ?? [])].map((token) => [token, card] as const),
  ),
);
/** Stripe's older name of the generic decline test method. */
byPaymentMethod.set('pm_card_chargeDeclined', byNumber.get('4000000000000002')!);
byToken.set('tok_chargeDeclined', byNumber.get('4000000000000002')!);

export const testCardByNumber = (number: string): TestCard | undefined => byNumber.get(number);
export const testCardByPaymentMethod = (id: string): TestCard | undefined => byPaymentMethod.get(id);
export const testCardByToken = (id: string): TestCard | undefined => byToken.get(id);

export const fingerprintOf = (number: string) => `fp${number.slice(-8)}`;
const byFingerprint = new Map(TEST_CARDS.map((card) => [fingerprintOf(card.number), card]));
export const testCardByFingerprint = (fingerprint: string | null | undefined): TestCard | undefined =>
  fingerprint ? byFingerprint.get(fingerprint) : undefined;

/** Why a payout to this card fails (Stripe's failure code and message), or undefined when it is paid. */
export function payoutFailureOf(card: Stripe.Card | undefined): { code: string; message: string } | undefined {
  return testCardByFingerprint(card?.fingerprint)?.payoutFailure;
}

/** The card object of a test card, as a token or an external account carries it. */
export function cardObject(known: TestCard, expMonth: number, expYear: number, currency: string | null): Stripe.Card {
  return {
    id: stripeId('card'),
    object: 'card',
    address_city: null,
    address_country: null,
    address_line1: null,
    address_line1_check: null,
    address_line2: null,
    address_state: null,
    address_zip: null,
    address_zip_check: null,
    brand: known.brand,
    country: 'US',
    currency,
    cvc_check: 'unchecked',
    dynamic_last4: null,
    exp_month: expMonth,
    exp_year: expYear,
    fingerprint: fingerprintOf(known.number),
    funding: known.funding,
    last4: known.number.slice(-4),
    metadata: {},
    name: null,
    regulated_status: 'unregulated',
    tokenization_method: null,
    wallet: null,
  } as Stripe.Card;
}

/**
 * A card token from card details, as Stripe makes one: any card of the table (a declining card
 * too: Stripe declines it when it is charged); another number is refused as incorrect.
 */
export function cardToken(params: Params, now: number): Stripe.Token {
  const number = requiredString(params, 'card', 'number').replace(/\s/g, '');
  const expMonth = Number(requiredString(params, 'card', 'exp_month'));
  const expYear = Number(requiredString(params, 'card', 'exp_year'));
  const known = byNumber.get(number);
  if (!known) {
    throw new StripeApiError(402, 'card_error', 'Your card number is incorrect.', {
      code: 'incorrect_number',
      param: 'number',
    });
  }
  if (!(expMonth >= 1 && expMonth <= 12)) {
    throw invalid('card[exp_month]', "Your card's expiration month is invalid.", 'invalid_expiry_month');
  }
  const currency =
    params.card && typeof params.card === 'object' ? (params.card as Record<string, unknown>).currency : undefined;
  return {
    id: stripeId('tok'),
    object: 'token',
    card: cardObject(known, expMonth, expYear, typeof currency === 'string' ? currency : null),
    client_ip: '127.0.0.1',
    created: now,
    livemode: false,
    type: 'card',
    used: false,
  };
}

/** The card of an unused card token, as the external account of `accountId`; only debit cards take payouts. */
export function externalCard(
  token: Stripe.Token | undefined,
  tokenId: string,
  accountId: string,
  first: boolean,
): Stripe.Card {
  if (!token?.card) {
    throw new StripeApiError(400, 'invalid_request_error', `No such token: '${tokenId}'`, {
      code: 'resource_missing',
      param: 'external_account',
    });
  }
  if (token.used) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `You cannot use a Stripe token more than once: ${tokenId}.`,
      { code: 'token_already_used', param: 'external_account' },
    );
  }
  const known = testCardByFingerprint(token.card.fingerprint);
  if (token.card.funding !== 'debit' || !known?.payoutMethods) {
    throw new StripeApiError(400, 'invalid_request_error', "This card doesn't appear to be a debit card.", {
      code: 'invalid_card_type',
      param: 'external_account',
    });
  }
  token.used = true;
  return {
    ...token.card,
    account: accountId,
    available_payout_methods: known.payoutMethods,
    currency: token.card.currency ?? 'usd',
    default_for_currency: first,
  };
}
