import { dynamoImports } from './adapters/imports/dynamo-imports';
import { sqsImportContinuations } from './adapters/imports/sqs-import-continuations';
import {
  dynamoProducts,
  getProduct,
  setHostedPictures,
  upgradeCatalogueKeys,
} from './adapters/products/dynamo-products';
import { dynamoAttempts } from './adapters/auth/dynamo-attempts';
import { dynamoSessions } from './adapters/auth/dynamo-sessions';
import { dynamoPayoutAccounts } from './adapters/payments/dynamo-payout-accounts';
import { dynamoProcessedEvents } from './adapters/payments/dynamo-processed-events';
import { dynamoUsers } from './adapters/auth/dynamo-users';
import { dynamoAccountLocks } from './adapters/auth/dynamo-account-locks';
import { dynamoSales } from './adapters/orders/dynamo-sales';
import { dynamoSaleRecorder } from './adapters/orders/dynamo-sale-recorder';
import { upgradeSalesItems } from './adapters/orders/dynamo-sales-upgrade';
import { dynamoCommissionMoney } from './adapters/commissions/dynamo-commission-money';
import { failedPayoutCount } from './adapters/orders/dynamo-failed-payouts';
import { commissionWork } from './adapters/orders/dynamo-work-counts';
import type { SummaryDeps } from './orders/admin-summary';
import { onMoneyEvent, type MoneyDeps } from './commissions/money-movement';
import { dynamoRefunds } from './adapters/commissions/dynamo-refunds';
import type { RefundDeps } from './commissions/refunds';
import type { CommissionStore } from './commissions/commission-store';
import { dynamoCommissionStore } from './adapters/commissions/dynamo-commission-store';
import { onPayoutEvent, onSaleEvent, type PayoutEventDeps, type SaleEventDeps } from './commissions/stripe-events';
import { sendPayoutNotice, sendSaleNotice } from './notifications/stripe-notices';
import { dynamoPayoutBatches } from './adapters/commissions/dynamo-payout-batches';
import type { BatchDeps } from './commissions/batches';
import type { MemberBatch } from './commissions/batch-store';
import { dynamoEmailVerifications } from './adapters/email/dynamo-email-verifications';
import { createSesMailer } from './adapters/email/ses-mailer';
import { s3Files } from './adapters/imports/s3-files';
import { s3Pictures } from './adapters/pictures/s3-pictures';
import { fetchPicture } from './pictures/fetch-picture';
import { createPictureHost } from './pictures/host-pictures';
import type { PictureWorkDeps } from './pictures/picture-work';
import type { ImportPictures } from './imports/run-import';
import { addPicturesToTotal, dynamoPictureRecords } from './adapters/pictures/dynamo-picture-records';
import { delayMessage, sqsPictureQueue } from './adapters/pictures/sqs-picture-queue';
import { amazonLocationPlaces } from './adapters/addresses/amazon-location-places';
import type { AddressSearch } from './addresses/address-search';
import { createStripeGateway } from './adapters/payments/stripe-gateway';
import { dynamoCodes } from './adapters/codes/dynamo-codes';
import { createStripePromotions } from './adapters/codes/stripe-promotions';
import { priceWithCode, redeemForCheckout, releaseForCheckout, type CodeDeps } from './codes/codes';
import { createStripeRecords } from './adapters/reconciliation/stripe-records';
import { dynamoReconciliation } from './adapters/reconciliation/dynamo-reconciliation';
import type { ReconcileDeps } from './reconciliation/reconcile';
import { dynamoCancelProgress, dynamoCheckoutOwners, dynamoOpenIntents } from './adapters/payments/dynamo-open-intents';
import { sqsCheckoutCancels } from './adapters/payments/sqs-checkout-cancels';
import { dynamoCommissionReview } from './adapters/commissions/dynamo-commission-review';
import type { ReviewDeps } from './commissions/review';
import type { CancelDeps } from './payments/open-intents';
import { createAuthenticator } from './auth/authenticate';
import { createLoginLimiter, createSignupLimiter } from './auth/rate-limit';
import { createSessions } from './auth/sessions';
import type { UserRepository } from './auth/user-store';
import type { LockDeps } from './auth/account-lock';
import { clock } from './config/clock';
import { env, siteUrl } from './config/env';
import { MailerUnavailable, type Mailer } from './email/mailer';
import { createEmailVerification } from './email/verification';
import { createPasswordResetRequests, createPasswordResetUse } from './email/password-reset';
import { dynamoPasswordResets } from './adapters/email/dynamo-password-resets';
import { getSecret } from './config/secrets';
import { loadLogger } from './config/logger';
import { createApiHandler, createPublicApiHandler } from './http/api-handler';
import type { FileStore, ImportContinuations, ImportJobRepository } from './imports/job-store';
import type { PaymentGateway } from './payments/payment-gateway';
import type { CheckoutDeps } from './payments/checkout';
import { receiveWebhook, type PayoutDeps, type WebhookDeps } from './payments/payouts';
import type { WebhookEndpoint } from './payments/payment-gateway';
import type { stripeWebhook } from '@portal/shared/api/calls/stripe-webhook';
import type { stripeConnectWebhook } from '@portal/shared/api/calls/stripe-connect-webhook';
import type { ProductRepository } from './products/product-store';
import type { ConfirmDeps, SaleDeps } from './orders/record-sale';
import { recordPayment } from './orders/record-sale';
import type { OrderRecord, OrderStep, SalesStore } from './orders/sales-store';
import type { Shipment } from '@portal/shared/api/order-page';
import { markOrder, markShipped } from './orders/manage';
import { dynamoMailClaims } from './adapters/email/dynamo-mail-claims';
import { dynamoOrderLinks } from './adapters/orders/dynamo-order-links';
import { adminMailTo } from './config/mail-settings';
import { holdMs, moneySettings } from './config/money-settings';
import { getOrder } from './adapters/orders/dynamo-sale-recorder';
import { dynamoRules } from './adapters/rules/dynamo-rules';
import type { RuleDeps } from './rules/programme';
import { saleRulesOf } from './rules/programme';
import { memberView } from './products/present';
import { dynamoVisits } from './adapters/visits/dynamo-visits';
import type { CountDeps } from './visits/count-visit';
import { checkoutStarted, saleCounted, type FunnelDeps } from './visits/funnel';
import type { StatisticsDeps } from './visits/statistics';
import {
  retryUnlessSent,
  saleRecorded,
  settled,
  sendRefunded,
  sendCommissionRefunded,
  sendVerificationFailed,
  sendPayoutOnItsWay,
  sendBatchPayoutOnItsWay,
  sendQuietly,
  sendShipped,
  type MailDeps,
} from './notifications/mails';

/**
 * The one place where adapters meet ports. Capabilities (auth, catalogue, imports, products)
 * declare the stores they need and never import an adapter; handlers take their stores and
 * services from here. Each export is created once per container, and only when a handler uses
 * it: the calls are marked pure so esbuild drops what a function's bundle does not reach.
 */

/** Every rule with a window or an expiry reads this clock; tests move `clock.now`. */
const now = () => clock.now();

export const users: UserRepository = dynamoUsers;
/** An account's locks for its slow changes (auth/account-lock.ts), on the same clock as every rule. */
export const accountLocks: LockDeps = { locks: dynamoAccountLocks, now };
export const products: ProductRepository = dynamoProducts;
export const importJobs: ImportJobRepository = dynamoImports;
export const files: FileStore = s3Files;

/** Private addresses are refused except the origins PICTURE_FETCH_ALLOWED_ORIGINS names (npm start). */
function allowedPrivateOrigins(): ReadonlySet<string> {
  return new Set(
    (env().PICTURE_FETCH_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  );
}

/**
 * The import's share of the pictures (issue 38): only where a picture queue is configured (with
 * the picture function and its images bucket); otherwise products keep the supplier's addresses.
 */
/** The continuation queue of long imports; absent where none is configured: a file is imported in one part. */
export function importContinuations(): ImportContinuations | undefined {
  return env().IMPORT_QUEUE_URL ? sqsImportContinuations : undefined;
}

export function importPictures(): ImportPictures | undefined {
  if (!env().PICTURE_QUEUE_URL) return undefined;
  return { queue: sqsPictureQueue, addToTotal: addPicturesToTotal };
}

/** Pictures fetched and encoded at a time by one picture function, and from one host at a time. */
const PICTURE_CONCURRENCY = 8;
const PICTURES_PER_HOST = 2;

/**
 * The picture function's stores and its host, one host per invocation: each address gets one
 * attempt of at most 10 s (the time budget per address); another try is the message's redelivery.
 */
export const pictureWork = {
  deps(): PictureWorkDeps {
    const origins = allowedPrivateOrigins();
    return {
      records: dynamoPictureRecords,
      products: { get: getProduct, setHostedPictures },
      host: createPictureHost({
        store: s3Pictures,
        fetch: (address) => fetchPicture(address, { allowedPrivateOrigins: origins, limits: { retries: 0 } }),
        concurrency: PICTURE_CONCURRENCY,
        perHost: PICTURES_PER_HOST,
      }),
    };
  },
  /** The backoff before a message's next try; the handler tests shorten it (PICTURE_RETRY_DELAY_SECONDS). */
  delay: (receiptHandle: string, seconds: number): Promise<void> =>
    delayMessage(receiptHandle, Number(process.env.PICTURE_RETRY_DELAY_SECONDS ?? seconds)),
};

/** The admin's retry of an import's failed pictures. */
export const pictureRetry = { records: dynamoPictureRecords, queue: sqsPictureQueue };

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
  locks: dynamoAccountLocks,
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

/** Reconciliation (reconciliation/reconcile.ts): Stripe's money objects and our ledger's records, read only. */
export const reconciliation: ReconcileDeps = {
  stripe: /* @__PURE__ */ createStripeRecords({
    secretKey: () => getSecret('stripeSecretKey'),
    apiUrl: () => env().STRIPE_API_URL,
  }),
  ledger: dynamoReconciliation,
};
/** An admin's release or cancel of a commission held at its sale (commissions/review.ts). */
export const commissionReview: ReviewDeps = { store: dynamoCommissionReview, now };

/** Refunds and disputes: the order, its commission and what follows, Stripe, the clock. */
export const refunds: RefundDeps = {
  store: dynamoRefunds,
  gateway: payments,
  now,
  // The customer's "your refund" and the member's "a sale you made was refunded", once per refund;
  // the admin's call never fails on them (the webhook's retry sends them).
  refunded: (orderId, refundId) =>
    sendQuietly(
      mails,
      'refund',
      refundId,
      Promise.all([sendRefunded(mails, orderId, refundId), sendCommissionRefunded(mails, orderId, refundId)]),
    ),
};
/** The refund's reads (the confirmation's card and commission): no mail, so that function carries no SES client. */
export const refundReads: RefundDeps = { store: dynamoRefunds, gateway: payments, now };
/**
 * The same for Stripe's refund and dispute events (commissions/stripe-events.ts): while another
 * delivery sends a mail this one fails, and Stripe delivers again; the admins' mails go through
 * notifications/stripe-notices.ts.
 */
const saleEventDeps: SaleEventDeps = {
  store: dynamoRefunds,
  gateway: payments,
  now,
  refunded: async (orderId, refundId) =>
    retryUnlessSent(
      await settled(async () => [
        await sendRefunded(mails, orderId, refundId),
        await sendCommissionRefunded(mails, orderId, refundId),
      ]),
    ),
  tell: (notice) => sendSaleNotice(mails, notice),
};
/** A payout's events: the commission or batch it names, then its mails. */
const payoutEventDeps: PayoutEventDeps = {
  money: commissionMoney,
  batches: dynamoPayoutBatches,
  gateway: payments,
  now,
  tell: (notice) => sendPayoutNotice(mails, notice),
};

/**
 * Stripe's two endpoints, each with only its own events' code (payment-gateway.ts `endpointOfEvent`),
 * so neither bundle carries the other's: the platform's payments, refunds, disputes and transfers;
 * the connected accounts' account updates and payouts. Written out, not spread from `payouts`: a
 * spread is not side-effect free, and would put Stripe in every bundle.
 */
export const platformWebhooks: WebhookDeps = {
  gateway: payments,
  now,
  processed: dynamoProcessedEvents,
  // payment_intent.succeeded records the checkout's order (orders/record-sale.ts).
  // Only the recording half of the sales store and the product read: the Stripe bundles stay small.
  // The receipt and the member's sale mail go once per order (notifications/mails.ts); while
  // another delivery is sending them this one fails, and Stripe's redelivery finds them sent.
  paymentSucceeded: (payment) =>
    recordPayment(
      {
        sales: dynamoSaleRecorder,
        products: { get: getProduct },
        now,
        recorded: async (order) => {
          // Counted once per order; a failure fails the delivery, and Stripe's redelivery counts it.
          await saleCounted(visitFunnel, order);
          return retryUnlessSent(await settled(() => saleRecorded(mails, order)));
        },
        selfPurchase: () => moneySettings().SELF_PURCHASE,
        rules: saleRules,
      },
      payment,
    ),
  // transfer.created moves the commission it names (commissions/money-movement.ts).
  moneyEvents: (event) => onMoneyEvent(commissionMoney, event),
  // Refunds and disputes: the order and its commission follow, then the admins' mails (commissions/stripe-events.ts).
  saleEvents: (event) => onSaleEvent(saleEventDeps, event),
  log: async (message, details) => (await loadLogger()).warn(message, details),
};

export const connectWebhooks: WebhookDeps = {
  gateway: payments,
  now,
  processed: dynamoProcessedEvents,
  // account.updated keeps the member's payout account state current (payments/payouts.ts accountUpdated).
  accountUpdates: { users: dynamoUsers, accounts: dynamoPayoutAccounts },
  // The member's "Stripe could not verify your payout details", once per set of errors.
  accountNotice: async (userId, account) =>
    retryUnlessSent(await settled(async () => [await sendVerificationFailed(mails, userId, account)])),
  // Payouts' events move the commission or batch they name, then the member's and admins' mails (commissions/stripe-events.ts).
  moneyEvents: (event) => onPayoutEvent(payoutEventDeps, event),
  log: async (message, details) => (await loadLogger()).warn(message, details),
};

/** The discount codes as the checkout and the lists read them: the table and the clock, no Stripe. */
export const discountCodeReads: Pick<CodeDeps, 'codes' | 'now'> = { codes: dynamoCodes, now };
/** The admin's code calls: the table, Stripe's coupons and promotion codes, the users, the clock. */
export const discountCodes: CodeDeps = {
  codes: dynamoCodes,
  gateway: /* @__PURE__ */ createStripePromotions({
    secretKey: () => getSecret('stripeSecretKey'),
    apiUrl: () => env().STRIPE_API_URL,
  }),
  users: dynamoUsers,
  now,
};

/** What the customer's checkout needs: the approved products and Stripe. */
export const checkout: CheckoutDeps = {
  products: dynamoProducts,
  gateway: payments,
  // Each intent recorded open under its product; the member's own checkout told by their session (orders/abuse.ts).
  intents: dynamoOpenIntents,
  owners: dynamoCheckoutOwners,
  now,
  // Members' discount codes: the price with a code, its redemption counted first (codes/codes.ts).
  codes: {
    price: (code, listCents) => priceWithCode(discountCodeReads, code, listCents, { atCheckout: true }),
    redeem: (price, key) => redeemForCheckout(discountCodeReads, price, key),
    release: (price, key) => releaseForCheckout(discountCodeReads, price, key),
  },
  // The share page's visit: its checkout counted once, its id into the intent's metadata (visits/funnel.ts).
  visits: { checkoutStarted: (visitId, productId) => checkoutStarted(visitFunnel, visitId, productId) },
};
/**
 * A ban or withdrawal cancels the product's open checkouts at Stripe through the checkout-cancel
 * queue, a page a message (payments/open-intents.ts, issue 38).
 */
export const productIntents: CancelDeps = {
  intents: dynamoOpenIntents,
  progress: dynamoCancelProgress,
  // The handler tests shorten the wait before a next pass (CHECKOUT_CANCEL_PASS_DELAY_SECONDS).
  queue: {
    send: (work, delay) =>
      sqsCheckoutCancels.send(
        work,
        delay === undefined ? undefined : Number(process.env.CHECKOUT_CANCEL_PASS_DELAY_SECONDS ?? delay),
      ),
  },
  gateway: payments,
  offSale: async (productId) => {
    const status = (await dynamoProducts.get(productId))?.status;
    return status === 'banned' || status === 'withdrawn';
  },
  now,
};
/** What a ban or withdrawal needs to start the cancelling: no Stripe (its bundle leaves the SDK out). */
export const cancelStarts = {
  intents: dynamoOpenIntents,
  progress: dynamoCancelProgress,
  queue: sqsCheckoutCancels,
  now,
};
/** The admin's read of a cancelling's counts. */
export const checkoutCancels = { progress: dynamoCancelProgress };

/**
 * The commission rules (rules/programme.ts, issue 39): the programme and groups on the table, the
 * products as members see them (their approved values), members by e-mail address.
 */
export const commissionRules: RuleDeps = {
  store: dynamoRules,
  products: {
    get: async (id) => {
      const product = await getProduct(id);
      const content = product && memberView(product);
      return product
        ? {
            id: product.id,
            content: content && {
              product_name: content.product_name,
              brand: content.brand,
              priceCents: content.dropshipping_price_us_cents,
            },
          }
        : undefined;
    },
    approvedPage: async (cursor, limit) => {
      const page = await dynamoProducts.approvedPage(cursor, limit);
      return {
        items: page.items.flatMap((product) => {
          const content = memberView(product);
          return content
            ? [
                {
                  id: product.id,
                  product_name: content.product_name,
                  brand: content.brand,
                  priceCents: content.dropshipping_price_us_cents,
                },
              ]
            : [];
        }),
        nextCursor: page.nextCursor,
      };
    },
  },
  members: { findByEmail: (email) => dynamoUsers.findByEmail(email) },
  now,
};
/**
 * The rule of a member's sale (orders/record-sale.ts): the programme's version and the member's
 * groups as they are now; the rules kept in this container by version (decision 0480).
 */
// Pure: a bundle that records no sale leaves the rules out (test/infra/handler-bundles.test.ts).
const saleRules = /* @__PURE__ */ saleRulesOf(dynamoRules);

/** The orders, the commission each sale writes, their counters (one table). */
export const sales: SalesStore = dynamoSales;
/** The commission lists, their counters and the members' earnings (commissions/reads.ts). */
export const commissionStore: CommissionStore = dynamoCommissionStore;

/** Brings items stored by an earlier version to what the code reads (run after each deploy and by npm start). */
export async function upgradeTable(): Promise<{ moved: number; searchable: number; catalogueKeys: number }> {
  const { moved, searchable } = await upgradeSalesItems();
  return { moved, searchable, catalogueKeys: await upgradeCatalogueKeys() };
}
/**
 * The orders capability (orders/manage.ts) on the table (adapters/dynamo-sales.ts), with the
 * clock: what the order handlers call. A call's life: its contract module
 * (shared/src/api/calls/mark-as-shipped.ts) → its handler (handlers/mark-as-shipped.ts) → the
 * logic (orders/manage.ts markOrder) → the adapter (adapters/dynamo-sales.ts markOrder).
 */
export const orders = {
  /** Marks the order's next step (ordered → shipped → fulfilled) and answers the order as it is now. */
  mark: (id: string, step: OrderStep) => markOrder(dynamoSales, id, step, now(), undefined, holdMs(moneySettings())),
};
/** The admin home's figures: the counters, the review index, the failed payouts. */
export const summary: SummaryDeps = {
  sales: dynamoSales,
  products: dynamoProducts,
  failedPayouts: failedPayoutCount,
  commissionWork,
  now,
};

/**
 * Marks an order shipped with its shipment, then mails the customer once (orders/manage.ts
 * markShipped); a failed mail is logged and the mark stands. Apart from `orders`, so that only
 * markAsShipped's bundle carries the mailer.
 */
export const shipOrder = (id: string, shipment: Shipment | null) =>
  markShipped(dynamoSales, id, shipment, now(), (order) =>
    sendQuietly(mails, 'shipped', order.id, sendShipped(mails, order)),
  );
/** What recording a sale needs: the sales data, the products, the clock. No Stripe. */
export const sale: SaleDeps = {
  sales: dynamoSaleRecorder,
  products: { get: getProduct },
  now,
  // An admin's order: the member's "you made a sale" (no receipt: the customer paid no checkout).
  recorded: async (order) => {
    await countSaleQuietly(order);
    return sendQuietly(mails, 'sale', order.id, saleRecorded(mails, order));
  },
  selfPurchase: () => moneySettings().SELF_PURCHASE,
  rules: saleRules,
};
/** The browser's report of its payment: the sale, and Stripe to check the payment at. */
export const confirm: ConfirmDeps = {
  sales: dynamoSaleRecorder,
  products: { get: getProduct },
  now,
  gateway: payments,
  // The receipt and the member's mail; the customer's answer never waits on a failed mail (the webhook sends it).
  recorded: async (order) => {
    await countSaleQuietly(order);
    return sendQuietly(mails, 'receipt', order.id, saleRecorded(mails, order));
  },
  selfPurchase: () => moneySettings().SELF_PURCHASE,
  rules: saleRules,
};

/** Counting the share pages' visits (visits/count-visit.ts): the table, the clock. */
export const visitCounting: CountDeps = { store: dynamoVisits, products: { get: getProduct }, now };
/** The funnel's later steps: a checkout started, a sale counted once per order (visits/funnel.ts). */
const visitFunnel: FunnelDeps = { store: dynamoVisits, now };
/** The link statistics' reads (visits/statistics.ts). */
export const linkStatistics: StatisticsDeps = { store: dynamoVisits, now };
/** A person's call never fails on the statistics: a sale not counted is logged (its webhook counts it). */
const countSaleQuietly = (order: OrderRecord): Promise<unknown> =>
  saleCounted(visitFunnel, order).catch(async (error: unknown) =>
    (await loadLogger()).warn('A sale was not counted into the link statistics; its webhook counts it', {
      orderId: order.id,
      error,
    }),
  );

export const sessions = /* @__PURE__ */ createSessions(dynamoSessions, now);
export const loginLimiter = /* @__PURE__ */ createLoginLimiter(dynamoAttempts, now);
export const signupLimiter = /* @__PURE__ */ createSignupLimiter(dynamoAttempts, now);

/** Every /api handler module is `export const handler = apiHandler(name, decide)`. */
export const apiHandler = /* @__PURE__ */ createApiHandler(
  /* @__PURE__ */ createAuthenticator(dynamoUsers, dynamoSessions),
);

/** Public calls that never act for a caller use this one: no token code in their bundles. */
export const publicApiHandler = /* @__PURE__ */ createPublicApiHandler();

/** Stripe's webhooks answer uncompressed: their answers are for Stripe's delivery log, never a browser. */
const webhookApiHandler = /* @__PURE__ */ createPublicApiHandler({ compress: false });

/**
 * Stripe's two webhook endpoints (platform and Connect) are one handler told which endpoint it is:
 * the endpoint picks the signing secret and which events belong there, and its deps carry only
 * those events' code (payments/payouts.ts
 * `receiveWebhook`). The signature is checked on the body exactly as it arrived.
 */
export const webhookHandler = (
  call: typeof stripeWebhook | typeof stripeConnectWebhook,
  endpoint: WebhookEndpoint,
  deps: WebhookDeps,
) =>
  webhookApiHandler(call, async ({ event, lambda }) => {
    const raw = event.body ?? '';
    const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
    await receiveWebhook(
      deps,
      body,
      event.headers['stripe-signature'],
      endpoint,
      lambda && { remainingMs: () => lambda.getRemainingTimeInMillis() },
    );
    return { received: true as const };
  });

/**
 * The address search: Amazon Location in AWS; the embedded one over the US ZIP database when
 * ADDRESS_SEARCH=local (set by infra/local and the handler tests). The local adapter is loaded
 * through a specifier esbuild does not follow, so its ZIP database (some 5 MB) never enters a
 * Lambda bundle; the function in AWS never takes that branch.
 */
const LOCAL_ADDRESS_SEARCH: string = './adapters/addresses/local-address-search.ts';
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
const LOCAL_OUTBOX: string = './adapters/email/local-outbox-mailer.ts';
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
      new Error('E-mail is not configured: deploy with the mailFrom context (docs/deploy.md, "E-mail (SES)")'),
    );
  }
  return (chosenMailer ??= Promise.resolve(createSesMailer(() => MAIL_FROM)));
};
export const mailer: Mailer = {
  send: async (mail) => {
    let chosen: Mailer;
    try {
      chosen = await chooseMailer();
    } catch (error) {
      // No sender, or the mailer's module cannot be loaded: not a failure a retry mends (email/mailer.ts).
      throw new MailerUnavailable(error);
    }
    await chosen.send(mail);
  },
};

/** Sending and verifying e-mail links (email/verification.ts). */
export const emailVerification = /* @__PURE__ */ createEmailVerification({
  store: dynamoEmailVerifications,
  attempts: dynamoAttempts,
  mailer,
  now,
  siteUrl,
});

/**
 * The mails of orders and money (notifications/mails.ts): each sent once per event through a claim
 * in the table (email/send-once.ts), by the mailer above.
 */
export const mails: MailDeps = {
  claims: dynamoMailClaims,
  mailer,
  links: dynamoOrderLinks,
  users: { get: (id) => dynamoUsers.get(id) },
  sales: { getOrder, getCommission: (id) => dynamoCommissionMoney.get(id) },
  now,
  siteUrl,
  holdDays: () => moneySettings().COMMISSION_HOLD_DAYS,
  adminsTo: () => adminMailTo(),
  log: async (message, details) => (await loadLogger()).warn(message, details),
};

/** The customer's order page by its link's token (orders/order-links.ts). */
export const orderPages = { links: dynamoOrderLinks, sales: { getOrder } };

/** The member's "your payout is on its way" once the payout of a commission is recorded. */
export const payoutOnItsWay = (commissionId: string): Promise<void> =>
  sendQuietly(mails, 'payout', commissionId, sendPayoutOnItsWay(mails, commissionId));
/** The member's "your payout is on its way" for a batch's payout, once per payout; a failed mail is logged (`payout.paid` sends it). */
export const batchPayoutOnItsWay = (batch: MemberBatch): Promise<void> =>
  sendQuietly(mails, 'payout', batch.batchId, sendBatchPayoutOnItsWay(mails, batch));
/** Forgotten passwords: asking for a single-use reset link by mail (email/password-reset.ts). */
export const passwordResetRequests = /* @__PURE__ */ createPasswordResetRequests({
  store: dynamoPasswordResets,
  attempts: dynamoAttempts,
  mailer,
  users: dynamoUsers,
  now,
  siteUrl,
  pause: { elapsed: () => clock.elapsed(), sleep: (ms) => clock.sleep(ms) },
});
/** Using a reset link: no mailer, so the function that sets the password carries no SES client. */
export const passwordResetUse = /* @__PURE__ */ createPasswordResetUse({
  store: dynamoPasswordResets,
  users: dynamoUsers,
  now,
});
