import type Stripe from 'stripe';
import { StripeApiError, invalid, missing } from './errors';
import { testCardByFingerprint, testCardByPaymentMethod, testCardByToken, type TestCard } from './cards';
import { stripeId } from './ids';
import { amount, at, currency, mergeMetadata, optionalString, type Params } from './params';

/**
 * PaymentIntents paid with Stripe's test payment methods (`pm_card_visa` and every other one of
 * the card table, cards.ts) or a card PaymentMethod made from a card token.
 */

/** The test card behind a payment method id, or Stripe's 404 for an unknown one. */
export function cardOf(id: string, made: Record<string, Stripe.PaymentMethod> = {}): TestCard {
  const card = testCardByPaymentMethod(id) ?? testCardByFingerprint(made[id]?.card?.fingerprint);
  if (!card) {
    throw new StripeApiError(400, 'invalid_request_error', `No such PaymentMethod: '${id}'`, {
      code: 'resource_missing',
      param: 'payment_method',
    });
  }
  return card;
}

/** Stripe's charge limits in USD: at least $0.50, at most eight digits ($999,999.99). */
const MIN_USD_CENTS = 50;
const MAX_CENTS = 99_999_999;

function chargeAmount(params: Params, code: string): number {
  const value = amount(params);
  if (code === 'usd' && value < MIN_USD_CENTS) {
    throw invalid('amount', 'Amount must be at least $0.50 usd', 'amount_too_small');
  }
  if (value > MAX_CENTS) throw invalid('amount', 'Amount must be no more than $999,999.99', 'amount_too_large');
  return value;
}

/**
 * `automatic_payment_methods` as Stripe answers it: what was asked (`allow_redirects` defaults to
 * `always`); without it and without `payment_method_types`, enabled (the default since 2023-08-16).
 */
function automaticPaymentMethods(params: Params): Stripe.PaymentIntent.AutomaticPaymentMethods | null {
  const asked = at(params, 'automatic_payment_methods');
  if (asked === undefined) {
    return Array.isArray(params.payment_method_types) ? null : { allow_redirects: 'always', enabled: true };
  }
  const enabled = optionalString(params, 'automatic_payment_methods', 'enabled');
  if (enabled !== 'true' && enabled !== 'false') {
    throw invalid('automatic_payment_methods[enabled]', 'Invalid boolean: ' + String(enabled));
  }
  const redirects = optionalString(params, 'automatic_payment_methods', 'allow_redirects') ?? 'always';
  if (redirects !== 'always' && redirects !== 'never') {
    throw invalid(
      'automatic_payment_methods[allow_redirects]',
      `Invalid automatic_payment_methods[allow_redirects]: must be one of always or never`,
    );
  }
  return { allow_redirects: redirects, enabled: enabled === 'true' };
}

/** `shipping` as Stripe answers it: the name and address given (name and line1 are required). */
function shippingOf(params: Params): Stripe.PaymentIntent.Shipping | null {
  if (at(params, 'shipping') === undefined) return null;
  const part = (key: string) => optionalString(params, 'shipping', 'address', key) ?? null;
  const name = optionalString(params, 'shipping', 'name');
  if (!name) throw missing('shipping[name]');
  const line1 = part('line1');
  if (!line1) throw missing('shipping[address][line1]');
  return {
    name,
    address: {
      line1,
      line2: part('line2'),
      city: part('city'),
      state: part('state'),
      postal_code: part('postal_code'),
      country: part('country'),
    },
    carrier: null,
    phone: optionalString(params, 'shipping', 'phone') ?? null,
    tracking_number: null,
  };
}

export function newPaymentIntent(
  params: Params,
  now: number,
  made: Record<string, Stripe.PaymentMethod> = {},
): Stripe.PaymentIntent {
  const id = stripeId('pi');
  const paymentMethod = optionalString(params, 'payment_method') ?? null;
  if (paymentMethod) cardOf(paymentMethod, made);
  const types = params.payment_method_types;
  // The emulator's only payment method is the card.
  const paymentMethodTypes = Array.isArray(types) ? types.map(String) : ['card'];
  const code = currency(params);
  return {
    id,
    object: 'payment_intent',
    amount: chargeAmount(params, code),
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: automaticPaymentMethods(params),
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${stripeId('x').slice(2)}`,
    confirmation_method: 'automatic',
    created: now,
    currency: code,
    customer: null,
    description: optionalString(params, 'description') ?? null,
    invoice: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: mergeMetadata({}, params),
    next_action: null,
    on_behalf_of: null,
    payment_method: paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: paymentMethodTypes,
    processing: null,
    receipt_email: optionalString(params, 'receipt_email') ?? null,
    review: null,
    setup_future_usage: null,
    shipping: shippingOf(params),
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    transfer_data: null,
    transfer_group: optionalString(params, 'transfer_group') ?? null,
  } as unknown as Stripe.PaymentIntent;
}

/**
 * Checks a confirmation and names the card it charges: the intent must wait for confirmation
 * and have a payment method (the one given, or its own).
 */
export function cardToConfirm(
  intent: Stripe.PaymentIntent,
  params: Params,
  made: Record<string, Stripe.PaymentMethod> = {},
): TestCard {
  if (intent.status !== 'requires_confirmation' && intent.status !== 'requires_payment_method') {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `This PaymentIntent's status is ${intent.status}, but it must be one of requires_payment_method, requires_confirmation, or requires_action to be confirmed.`,
      { code: 'payment_intent_unexpected_state' },
    );
  }
  const given = optionalString(params, 'payment_method');
  const method = given ?? (typeof intent.payment_method === 'string' ? intent.payment_method : undefined);
  if (!method) {
    throw invalid(
      'payment_method',
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      'payment_intent_unexpected_state',
    );
  }
  const card = cardOf(method, made);
  intent.payment_method = method;
  return card;
}

/**
 * With the publishable key (a browser's confirmation), Stripe requires the intent's client_secret
 * and answers a missing or different one as below; with a secret key it is not needed.
 */
export function checkClientSecret(intent: Stripe.PaymentIntent, params: Params): void {
  const given = optionalString(params, 'client_secret');
  if (!given) {
    throw invalid(
      'client_secret',
      'You must provide a client_secret to confirm this PaymentIntent with a publishable key.',
      'parameter_missing',
    );
  }
  if (given !== intent.client_secret) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      'The client_secret provided does not match any associated PaymentIntent on this account.',
      { code: 'payment_intent_invalid_parameter', param: 'client_secret' },
    );
  }
}

/**
 * A card PaymentMethod from a card token (`type=card&card[token]=tok_…`): the token is used up,
 * as Stripe uses it. The emulator makes card payment methods from tokens only (raw card numbers
 * go to /v1/tokens first, as the emulator's card form sends them).
 */
export function cardPaymentMethod(
  params: Params,
  tokens: Record<string, Stripe.Token>,
  now: number,
  tokenFromTestCard: (card: TestCard) => Stripe.Token,
): Stripe.PaymentMethod {
  const type = optionalString(params, 'type');
  if (type !== 'card') throw invalid('type', 'The emulator makes card payment methods only (type=card).');
  const tokenId = optionalString(params, 'card', 'token');
  if (!tokenId) throw invalid('card[token]', 'The emulator makes card payment methods from card tokens only.');
  const testCard = testCardByToken(tokenId);
  const token = testCard ? tokenFromTestCard(testCard) : tokens[tokenId];
  if (!token?.card) {
    throw new StripeApiError(400, 'invalid_request_error', `No such token: '${tokenId}'`, {
      code: 'resource_missing',
      param: 'card[token]',
    });
  }
  if (token.used) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `You cannot use a Stripe token more than once: ${tokenId}.`,
      {
        code: 'token_already_used',
        param: 'card[token]',
      },
    );
  }
  token.used = true;
  const card = token.card;
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    billing_details: {
      address: {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: card.address_zip ?? null,
        state: null,
      },
      email: null,
      name: null,
      phone: null,
    },
    card: {
      brand: card.brand.toLowerCase(),
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: card.country,
      display_brand: card.brand.toLowerCase(),
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand.toLowerCase()], preferred: null },
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: now,
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  } as unknown as Stripe.PaymentMethod;
}
