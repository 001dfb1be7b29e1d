/**
 * `npm run stripe:check`: walks the portal's whole money loop against the Stripe that the
 * environment names (`STRIPE_SECRET_KEY`, and `STRIPE_API_URL` for the local emulator), with
 * Stripe's test values, and prints each step and the ids it made:
 *
 * a connected account as the portal makes it (Custom by controller properties, manual payouts,
 * MCC 5399, identity test values that verify at once), a debit card, a payment whose funds are
 * available at once, a transfer funded by its charge, a payout to the card, and a refund.
 *
 * It refuses a live key (`sk_live_…`): it makes real objects.
 */
import Stripe from 'stripe';
import {
  API_VERSION,
  MCC_GENERAL_MERCHANDISE,
  connectionOptions,
} from '../functions/src/adapters/payments/stripe-gateway';

export interface CheckStep {
  step: string;
  ids: Record<string, string>;
}

export async function stripeCheck(
  env: { STRIPE_SECRET_KEY?: string; STRIPE_API_URL?: string },
  print: (line: string) => void = (line) => console.log(line),
): Promise<CheckStep[]> {
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new Error('Set STRIPE_SECRET_KEY to a test key (sk_test_…) to check Stripe.');
  if (key.startsWith('sk_live_') || key.startsWith('rk_live_')) {
    throw new Error(
      'This is a live key: the check makes real accounts, payments and payouts. Run it with a test key (sk_test_…).',
    );
  }
  const stripe = new Stripe(key, { apiVersion: API_VERSION, ...connectionOptions(env.STRIPE_API_URL) });
  const steps: CheckStep[] = [];
  const done = (step: string, ids: Record<string, string>) => {
    steps.push({ step, ids });
    print(
      `${step}: ${Object.entries(ids)
        .map(([name, id]) => `${name} ${id}`)
        .join(', ')}`,
    );
  };
  print(`Stripe at ${env.STRIPE_API_URL ?? 'https://api.stripe.com'} (API version ${API_VERSION})`);

  const account = await stripe.accounts.create({
    country: 'US',
    email: 'stripe-check@example.com',
    controller: {
      fees: { payer: 'application' },
      losses: { payments: 'application' },
      requirement_collection: 'application',
      stripe_dashboard: { type: 'none' },
    },
    capabilities: { transfers: { requested: true } },
    business_type: 'individual',
    business_profile: { url: 'https://example.com/stripe-check', mcc: MCC_GENERAL_MERCHANDISE },
    settings: { payouts: { schedule: { interval: 'manual' } } },
    individual: {
      first_name: 'Jenny',
      last_name: 'Rosen',
      email: 'stripe-check@example.com',
      phone: '+12025550123',
      // Stripe's test values that verify at once.
      dob: { day: 1, month: 1, year: 1902 },
      id_number: '222222222',
      address: { line1: 'address_full_match', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
    },
    tos_acceptance: { date: Math.floor(Date.now() / 1000), ip: '127.0.0.1' },
    metadata: { purpose: 'stripe:check' },
  });
  done('Connected account (manual payouts)', { account: account.id });

  const card = await stripe.accounts.createExternalAccount(account.id, { external_account: 'tok_visa_debit' });
  done('Debit card', { card: card.id });
  const verified = await stripe.accounts.retrieve(account.id);
  if (verified.capabilities?.transfers !== 'active') {
    throw new Error(
      `The account's transfers capability is ${verified.capabilities?.transfers ?? 'missing'}, not active: ${JSON.stringify(verified.requirements)}`,
    );
  }
  done('Account verified (transfers active)', { account: account.id });

  // The test card whose funds are available at once (4000 0000 0000 0077).
  const payment = await stripe.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    metadata: { purpose: 'stripe:check' },
  });
  const charge = typeof payment.latest_charge === 'string' ? payment.latest_charge : payment.latest_charge?.id;
  if (payment.status !== 'succeeded' || !charge) throw new Error(`The payment is ${payment.status}, not succeeded.`);
  done('Payment (funds available at once)', { payment_intent: payment.id, charge });

  const transfer = await stripe.transfers.create({
    amount: 250,
    currency: 'usd',
    destination: account.id,
    source_transaction: charge,
    metadata: { purpose: 'stripe:check' },
  });
  done('Transfer from its charge', { transfer: transfer.id });

  const payout = await stripe.payouts.create(
    { amount: 250, currency: 'usd', method: 'standard', metadata: { purpose: 'stripe:check' } },
    { stripeAccount: account.id },
  );
  done(`Payout (${payout.method})`, { payout: payout.id });

  const refund = await stripe.refunds.create({ payment_intent: payment.id, amount: 500 });
  done('Refund', { refund: refund.id });
  print('The loop went through.');
  return steps;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  stripeCheck(process.env).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
