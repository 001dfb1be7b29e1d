import type Stripe from 'stripe';
import { StripeApiError, invalid } from './errors';
import { stripeId, unixNow } from './ids';
import { requiredString, type Params } from './params';

/** The debit card that takes a payout and then fails it, as Stripe's test card of that name does. */
export const PAYOUT_FAILING_DEBIT_CARD = '4000056655665572';

/**
 * Stripe's test card numbers the emulator knows. Debit cards can take payouts; the declined
 * card is refused at token creation, as Stripe refuses it.
 */
const TEST_CARDS: Record<string, { brand: string; funding: 'credit' | 'debit'; declined?: true }> = {
  '4242424242424242': { brand: 'Visa', funding: 'credit' },
  '4000056655665556': { brand: 'Visa', funding: 'debit' },
  // Stripe's Connect testing page: a Visa debit card whose payouts fail (`could_not_process`).
  [PAYOUT_FAILING_DEBIT_CARD]: { brand: 'Visa', funding: 'debit' },
  '5555555555554444': { brand: 'MasterCard', funding: 'credit' },
  '5200828282828210': { brand: 'MasterCard', funding: 'debit' },
  '4000000000000002': { brand: 'Visa', funding: 'credit', declined: true },
};

const fingerprintOf = (number: string) => `fp${number.slice(-8)}`;

/** Why a payout to this card fails (Stripe's failure code and message), or undefined when it is paid. */
export function payoutFailureOf(card: Stripe.Card | undefined): { code: string; message: string } | undefined {
  if (card?.fingerprint !== fingerprintOf(PAYOUT_FAILING_DEBIT_CARD)) return undefined;
  return { code: 'could_not_process', message: 'The bank could not process this payout.' };
}

export function cardToken(params: Params): Stripe.Token {
  const number = requiredString(params, 'card', 'number').replace(/\s/g, '');
  const expMonth = Number(requiredString(params, 'card', 'exp_month'));
  const expYear = Number(requiredString(params, 'card', 'exp_year'));
  const known = TEST_CARDS[number];
  if (!known) {
    throw new StripeApiError(402, 'card_error', 'Your card number is incorrect.', {
      code: 'incorrect_number',
      param: 'number',
    });
  }
  if (known.declined) {
    throw new StripeApiError(402, 'card_error', 'Your card was declined.', {
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
  }
  if (!(expMonth >= 1 && expMonth <= 12)) {
    throw invalid('card[exp_month]', "Your card's expiration month is invalid.", 'invalid_expiry_month');
  }
  const currency =
    params.card && typeof params.card === 'object' ? (params.card as Record<string, unknown>).currency : undefined;
  const card: Stripe.Card = {
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
    currency: typeof currency === 'string' ? currency : null,
    cvc_check: 'unchecked',
    dynamic_last4: null,
    exp_month: expMonth,
    exp_year: expYear,
    fingerprint: fingerprintOf(number),
    funding: known.funding,
    last4: number.slice(-4),
    metadata: {},
    name: null,
    regulated_status: 'unregulated',
    tokenization_method: null,
    wallet: null,
  } as Stripe.Card;
  return {
    id: stripeId('tok'),
    object: 'token',
    card,
    client_ip: '127.0.0.1',
    created: unixNow(),
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
  if (token.card.funding !== 'debit') {
    throw new StripeApiError(400, 'invalid_request_error', "This card doesn't appear to be a debit card.", {
      code: 'invalid_card_type',
      param: 'external_account',
    });
  }
  token.used = true;
  return {
    ...token.card,
    account: accountId,
    available_payout_methods: ['standard', 'instant'],
    currency: token.card.currency ?? 'usd',
    default_for_currency: first,
  };
}
