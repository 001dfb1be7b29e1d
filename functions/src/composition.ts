import { dynamoImports } from './adapters/dynamo-imports';
import { dynamoProducts, getProduct } from './adapters/dynamo-products';
import { dynamoAttempts } from './adapters/dynamo-attempts';
import { dynamoSessions } from './adapters/dynamo-sessions';
import { dynamoPayoutAccounts } from './adapters/dynamo-payout-accounts';
import { dynamoProcessedEvents } from './adapters/dynamo-processed-events';
import { dynamoUsers } from './adapters/dynamo-users';
import { dynamoSales } from './adapters/dynamo-sales';
import { dynamoSaleRecorder } from './adapters/dynamo-sale-recorder';
import { dynamoCommissionMoney } from './adapters/dynamo-commission-money';
import { onMoneyEvent, type MoneyDeps } from './commissions/money-movement';
import { dynamoPayoutBatches } from './adapters/dynamo-payout-batches';
import type { BatchDeps } from './commissions/batches';
import { onBatchPayoutFailed } from './commissions/batch-events';
import { moneySettings } from './config/money-settings';
import { dynamoEmailVerifications } from './adapters/dynamo-email-verifications';
import { createSesMailer } from './adapters/ses-mailer';
import { s3Files } from './adapters/s3-files';
import { amazonLocationPlaces } from './adapters/amazon-location-places';
import type { AddressSearch } from './addresses/address-search';
import { createStripeGateway } from './adapters/stripe-gateway';
import { createAuthenticator } from './auth/authenticate';
import { createLoginLimiter, createSignupLimiter } from './auth/rate-limit';
import { createSessions } from './auth/sessions';
import type { UserRepository } from './auth/user-store';
import { clock } from './config/clock';
import { env, siteUrl } from './config/env';
import type { Mailer } from './email/mailer';
import { createEmailVerification } from './email/verification';
import { getSecret } from './config/secrets';
import { loadLogger } from './config/logger';
import { createApiHandler, createPublicApiHandler } from './http/api-handler';
import type { FileStore, ImportJobRepository } from './imports/job-store';
import type { PaymentGateway } from './payments/payment-gateway';
import type { CheckoutDeps } from './payments/checkout';
import type { PayoutDeps, WebhookDeps } from './payments/payouts';
import type { ProductRepository } from './products/product-store';
import type { ConfirmDeps, SaleDeps } from './orders/record-sale';
import { recordPayment } from './orders/record-sale';
import type { OrderStep, SalesStore } from './orders/sales-store';
import { markOrder } from './orders/manage';

/**
 * The one place where adapters meet ports. Capabilities (auth, catalogue, imports, products)
 * declare the stores they need and never import an adapter; handlers take their stores and
 * services from here. Each export is created once per container, and only when a handler uses
 * it: the calls are marked pure so esbuild drops what a function's bundle does not reach.
 */

/** Every rule with a window or an expiry reads this clock; tests move `clock.now`. */
const now = () => clock.now();

export const users: UserRepository = dynamoUsers;
export const products: ProductRepository = dynamoProducts;
export const importJobs: ImportJobRepository = dynamoImports;
export const files: FileStore = s3Files;

/**
 * Stripe Connect (the local emulator when STRIPE_API_URL is set). Only the functions whose handler
 * uses `payments` bundle the `stripe` SDK: the call is pure, so the others drop it.
 */
export const payments: PaymentGateway = /* @__PURE__ */ createStripeGateway({
  secretKey: () => getSecret('stripeSecretKey'),
  webhookSecret: () => getSecret('stripeWebhookSecret'),
  connectWebhookSecret: () => getSecret('stripeConnectWebhookSecret'),
  apiUrl: () => env().STRIPE_API_URL,
  // The fault tests shorten each attempt's timeout; read here, not in env(): z.coerce adds 2 KiB to every bundle.
  timeoutMs: () => Number(process.env.STRIPE_TIMEOUT_MS) || undefined,
});

/** What the payout calls need: the users, Stripe, the clock. */
export const payouts: PayoutDeps = {
  users: dynamoUsers,
  accounts: dynamoPayoutAccounts,
  gateway: payments,
  now,
};
/** What moving a commission's money needs: the commission item and its counters, Stripe, the clock. */
export const commissionMoney: MoneyDeps = { store: dynamoCommissionMoney, gateway: payments, now };
/** What the payout batches need (commissions/batches.ts): the batch items, the member's profile, Stripe, the clock, the money settings. */
export const payoutBatches: BatchDeps = {
  batches: dynamoPayoutBatches,
  money: dynamoCommissionMoney,
  gateway: payments,
  now,
  settings: () => moneySettings(),
};

/** Written out, not spread from `payouts`: a spread is not side-effect free, and would put Stripe in every bundle. */
export const webhooks: WebhookDeps = {
  users: dynamoUsers,
  accounts: dynamoPayoutAccounts,
  gateway: payments,
  now,
  processed: dynamoProcessedEvents,
  // payment_intent.succeeded records the checkout's order (orders/record-sale.ts).
  // Only the recording half of the sales store and the product read: the Stripe bundles stay small.
  paymentSucceeded: (payment) =>
    recordPayment({ sales: dynamoSaleRecorder, products: { get: getProduct }, now }, payment),
  // Transfers' and payouts' events move the commission they name (commissions/money-movement.ts).
  // A batch's payout (commissions/batches.ts) names its batch instead: its failure frees the batch's commissions.
  moneyEvents: (event) =>
    event.kind === 'payout.failed' && event.metadata.batchId
      ? onBatchPayoutFailed({ batches: dynamoPayoutBatches, now }, event)
      : onMoneyEvent(commissionMoney, event),
  log: async (message, details) => (await loadLogger()).warn(message, details),
};

/** What the customer's checkout needs: the approved products and Stripe. */
export const checkout: CheckoutDeps = { products: dynamoProducts, gateway: payments };

/** The orders, commissions, counters and earnings (one table). */
export const sales: SalesStore = dynamoSales;
/**
 * The orders capability (orders/manage.ts) on the table (adapters/dynamo-sales.ts), with the
 * clock: what the order handlers call. A call's life: its contract module
 * (shared/src/api/calls/mark-as-shipped.ts) → its handler (handlers/mark-as-shipped.ts) → the
 * logic (orders/manage.ts markOrder) → the adapter (adapters/dynamo-sales.ts markOrder).
 */
export const orders = {
  /** Marks the order's next step (ordered → shipped → fulfilled) and answers the order as it is now. */
  mark: (id: string, step: OrderStep) => markOrder(dynamoSales, id, step, now()),
};
/** What recording a sale needs: the sales data, the products, the clock. No Stripe. */
export const sale: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now };
/** The browser's report of its payment: the sale, and Stripe to check the payment at. */
export const confirm: ConfirmDeps = {
  sales: dynamoSaleRecorder,
  products: { get: getProduct },
  now,
  gateway: payments,
};

export const sessions = /* @__PURE__ */ createSessions(dynamoSessions, now);
export const loginLimiter = /* @__PURE__ */ createLoginLimiter(dynamoAttempts, now);
export const signupLimiter = /* @__PURE__ */ createSignupLimiter(dynamoAttempts, now);

/** Every /api handler module is `export const handler = apiHandler(name, decide)`. */
export const apiHandler = /* @__PURE__ */ createApiHandler(
  /* @__PURE__ */ createAuthenticator(dynamoUsers, dynamoSessions),
);

/** Public calls that never act for a caller use this one: no token code in their bundles. */
export const publicApiHandler = /* @__PURE__ */ createPublicApiHandler();

/**
 * The address search: Amazon Location in AWS; the embedded one over the US ZIP database when
 * ADDRESS_SEARCH=local (set by infra/local and the handler tests). The local adapter is loaded
 * through a specifier esbuild does not follow, so its ZIP database (some 5 MB) never enters a
 * Lambda bundle; the function in AWS never takes that branch.
 */
const LOCAL_ADDRESS_SEARCH: string = './adapters/local-address-search.ts';
let chosenAddressSearch: Promise<AddressSearch> | undefined;
const chooseAddressSearch = (): Promise<AddressSearch> =>
  (chosenAddressSearch ??=
    env().ADDRESS_SEARCH === 'local'
      ? (import(/* @vite-ignore */ LOCAL_ADDRESS_SEARCH) as Promise<{ localAddressSearch: AddressSearch }>).then(
          (module) => module.localAddressSearch,
        )
      : Promise.resolve(amazonLocationPlaces));
export const addressSearch: AddressSearch = {
  suggest: async (text, limit) => (await chooseAddressSearch()).suggest(text, limit),
};

/**
 * Mail: files in MAIL_OUTBOX_DIR when it is set (npm start, the tests; the link is printed), else
 * SES from MAIL_FROM (the stack sets it on the functions that send). The outbox adapter is loaded
 * through a specifier esbuild does not follow, so no Lambda bundle holds it; only the functions
 * whose handler reaches `emailVerification` hold the SES adapter.
 */
const LOCAL_OUTBOX: string = './adapters/local-outbox-mailer.ts';
let chosenMailer: Promise<Mailer> | undefined;
const chooseMailer = (): Promise<Mailer> => {
  const { MAIL_OUTBOX_DIR, MAIL_FROM } = env();
  if (MAIL_OUTBOX_DIR) {
    return (chosenMailer ??= (
      import(/* @vite-ignore */ LOCAL_OUTBOX) as Promise<{ localOutbox: (dir: string) => Mailer }>
    ).then((module) => module.localOutbox(MAIL_OUTBOX_DIR)));
  }
  if (!MAIL_FROM) {
    return Promise.reject(
      new Error('E-mail is not configured: deploy with the mailFrom context (README, "E-mail (SES)")'),
    );
  }
  return (chosenMailer ??= Promise.resolve(createSesMailer(() => MAIL_FROM)));
};
export const mailer: Mailer = {
  send: async (mail) => (await chooseMailer()).send(mail),
};

/** Sending and verifying e-mail links (email/verification.ts). */
export const emailVerification = /* @__PURE__ */ createEmailVerification({
  store: dynamoEmailVerifications,
  attempts: dynamoAttempts,
  mailer,
  now,
  siteUrl,
});
