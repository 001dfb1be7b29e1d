import { contract, type EndpointName } from '@portal/shared/api/contract';

/**
 * The route table: the single source of truth for which /api calls are implemented and by
 * which handler module. The CDK stack creates one Lambda function per entry and the local
 * server dispatches to the same modules; nothing else lists routes. Each call's path and role
 * come from its contract module (shared/src/api/calls/<call>.ts, through contract.ts); the
 * handler module of a call has the same file name as its contract module.
 */

/** What a function may touch; the CDK stack grants exactly this and nothing more. */
export interface Access {
  table: 'read' | 'readwrite';
  /** The supplier CSV bucket: `read` objects, `write` (put and presign) objects. Absent: no access. */
  importsBucket?: 'read' | 'write';
  /** Secrets the function reads at cold start (names of the SecretName union). */
  secrets: readonly SecretName[];
  /** Amazon Location Places v2 `geo-places:Autocomplete` on the default provider. Absent: no access. */
  places?: 'autocomplete';
  /** Amazon SES `ses:SendEmail` from the sender identity (the stack's `mailFrom`), and MAIL_FROM/SITE_URL. Absent: no access. */
  mail?: 'send';
  /**
   * The hosted pictures' bucket (issue 28): get, put and list its objects, and IMAGES_BUCKET. Only
   * the picture function, which fetches the pictures and writes their variants. Absent: no access.
   */
  imagesBucket?: 'readwrite';
  /**
   * The picture queue (issue 38): `send` its messages (the import, the admin's retry) or `consume`
   * them (the picture function, through its event source mapping), and PICTURE_QUEUE_URL. Absent: no access.
   */
  pictureQueue?: 'send' | 'consume';
  /**
   * The checkout-cancel queue (issue 38): `send` a cancelling's first step (a ban, a withdrawal), or
   * `sendAndConsume` (its function: it consumes a step through its event source mapping and sends the
   * next), and CHECKOUT_CANCEL_QUEUE_URL. Absent: no access.
   */
  checkoutCancelQueue?: 'send' | 'sendAndConsume';
  /**
   * The import's continuation queue: a long file's part sends the next part's message, and
   * IMPORT_QUEUE_URL (the continuation function consumes it through its event source mapping).
   */
  importQueue?: 'send';
}

import type { SecretName } from './config/secret-names';

export { secretEnv, type SecretName } from './config/secret-names';

export interface Route {
  name: EndpointName;
  /** The /api path, taken from the contract. */
  path: string;
  /** Handler module, relative to functions/src, exporting `handler`. */
  module: string;
  memoryMb: number;
  timeoutSeconds: number;
  access: Access;
}

/**
 * A call that talks to Stripe may wait for it: up to three attempts of 4 s each (the adapter's
 * timeout, functions/src/adapters/stripe-gateway.ts), twice for a payout (its card, then the
 * payout). 29 s stays under API Gateway's 30 s integration limit; every other call has 10 s.
 */
const STRIPE_CALL_TIMEOUT_SECONDS = 29;
const timeoutFor = (access: Access): number =>
  access.secrets.includes('stripeSecretKey') ? STRIPE_CALL_TIMEOUT_SECONDS : 10;

const route = (
  name: EndpointName,
  module: string,
  access: Access,
  memoryMb = 512,
  timeoutSeconds = timeoutFor(access),
): Route => ({
  name,
  path: contract[name].path,
  module,
  memoryMb,
  timeoutSeconds,
  access,
});

const auth: Access = { table: 'readwrite', secrets: ['tokenSigningKey'] };

/** Password hashing with scrypt (N=2^17, r=8) needs 128 MiB and a fair share of CPU. */
const PASSWORD_MEMORY_MB = 1024;

/** Every non-public call verifies the access token, so it needs the signing key and reads users and sessions. */
const reads: Access = { table: 'read', secrets: ['tokenSigningKey'] };
const writes: Access = { table: 'readwrite', secrets: ['tokenSigningKey'] };
const uploads: Access = { ...writes, importsBucket: 'write' };
/** Calls that talk to Stripe also read its secret key (and only they bundle the `stripe` SDK). */
const stripeReads: Access = { table: 'read', secrets: ['tokenSigningKey', 'stripeSecretKey'] };
const stripeWrites: Access = { table: 'readwrite', secrets: ['tokenSigningKey', 'stripeSecretKey'] };

export const routes: readonly Route[] = [
  // Sign-up sends the first verification link.
  route('signup', 'handlers/signup.ts', { ...auth, mail: 'send' }, PASSWORD_MEMORY_MB),
  route('login', 'handlers/login.ts', auth, PASSWORD_MEMORY_MB),
  route('checkAuth', 'handlers/check-auth.ts', auth),
  route('logout', 'handlers/logout.ts', auth),

  route('products', 'handlers/upload-products.ts', uploads, 1024, 29),
  route('createProductUpload', 'handlers/create-product-upload.ts', uploads),
  route('getImportJob', 'handlers/get-import-job.ts', reads),
  // Sends an import's failed pictures back to the picture queue (issue 38).
  route('retryImportPictures', 'handlers/retry-import-pictures.ts', { ...writes, pictureQueue: 'send' }),
  route('getImportIssues', 'handlers/get-import-issues.ts', reads),
  route('getRejectedRowsCsv', 'handlers/get-rejected-rows-csv.ts', reads),
  route('approveProduct', 'handlers/approve-product.ts', writes),
  // Counts the product's open checkouts and hands their cancelling to the checkout-cancel queue (issue 38).
  route('banProduct', 'handlers/ban-product.ts', { ...writes, checkoutCancelQueue: 'send' }),
  route('getCheckoutCancels', 'handlers/get-checkout-cancels.ts', reads),
  route('getUnApprovedProducts', 'handlers/get-unapproved-products.ts', reads),
  route('getImportedProduct', 'handlers/get-imported-product.ts', reads),
  route('getApprovedProducts', 'handlers/get-approved-products.ts', reads),
  route('getApprovedProduct', 'handlers/get-approved-product.ts', reads),
  route('getCatalogueProducts', 'handlers/get-catalogue-products.ts', reads),
  route('withdrawProduct', 'handlers/withdraw-product.ts', { ...writes, checkoutCancelQueue: 'send' }),
  route('returnProductToReview', 'handlers/return-product-to-review.ts', writes),
  // The admin home's figures: counter shards and two bounded Query counts.
  route('getAdminSummary', 'handlers/get-admin-summary.ts', reads),

  route('searchAddress', 'handlers/search-address.ts', { ...reads, places: 'autocomplete' }, 256),
  route('createPayoutAccount', 'handlers/create-payout-account.ts', stripeWrites),
  route('addPayoutMethod', 'handlers/add-payout-method.ts', stripeWrites),
  route('getExternalAccounts', 'handlers/get-external-accounts.ts', stripeReads),
  // Reads the publishable key only: no table write, no secret key, no `stripe` SDK.
  route(
    'getPaymentConfig',
    'handlers/get-payment-config.ts',
    { ...reads, secrets: ['tokenSigningKey', 'stripePublishableKey'] },
    256,
  ),
  // Public (a link verifies without a session); sending a link needs one, checked by the handler.
  route('verifyEmail', 'handlers/verify-email.ts', { ...writes, mail: 'send' }),
  // Public (the customer's checkout on a share link, no login): reads the product, creates the intent at Stripe.
  // Writes the intent's open item (payments/open-intents.ts).
  route('getPaymentIntent', 'handlers/get-payment-intent.ts', { table: 'readwrite', secrets: ['stripeSecretKey'] }),
  // The sales loop (issue 15). Public: the customer's page on a share link; reads only, no secret.
  route('getSharedProduct', 'handlers/get-shared-product.ts', { table: 'read', secrets: [] }, 256),
  // The share page's visit (issue 39): a conditional put and the day's sharded counts; no secret, no token.
  route('countVisit', 'handlers/count-visit.ts', { table: 'readwrite', secrets: [] }, 256),
  route('getMyLinkStatistics', 'handlers/get-my-link-statistics.ts', reads),
  route('getLinkStatistics', 'handlers/get-link-statistics.ts', reads),
  // Public: reads the payment at Stripe and records its order.
  route('confirmCheckout', 'handlers/confirm-checkout.ts', {
    table: 'readwrite',
    secrets: ['stripeSecretKey'],
    mail: 'send',
  }),
  route('addOrder', 'handlers/add-order.ts', { ...writes, mail: 'send' }),
  route('getOrders', 'handlers/get-orders.ts', reads),
  route('getOrdersNotOrdered', 'handlers/get-orders-not-ordered.ts', reads),
  route('getOrdersNotShipped', 'handlers/get-orders-not-shipped.ts', reads),
  route('getOrdersNotFufilled', 'handlers/get-orders-not-fulfilled.ts', reads),
  route('markAsOrdered', 'handlers/mark-as-ordered.ts', writes),
  // Mails the customer the shipment (notifications/mails.ts).
  route('markAsShipped', 'handlers/mark-as-shipped.ts', { ...writes, mail: 'send' }),
  route('markAsFufilled', 'handlers/mark-as-fulfilled.ts', writes),
  route('getCommisions', 'handlers/get-commissions.ts', reads),
  route('getCommisionsToStripe', 'handlers/get-commissions-to-stripe.ts', reads),
  route('getCommisionsToBePayed', 'handlers/get-commissions-to-be-paid.ts', reads),
  route('getTopEarners', 'handlers/get-top-earners.ts', reads),
  route('getCommisionsByUser', 'handlers/get-commissions-by-user.ts', reads),
  // Pages through a whole list (up to EXPORT_MAX_ROWS rows).
  route('exportCsv', 'handlers/export-csv.ts', reads, 1024, 29),
  // Admin: the commission's transfer and payout (commissions/money-movement.ts).
  route('addCommisionToStripe', 'handlers/add-commission-to-stripe.ts', stripeWrites),
  route('payCommisionToMember', 'handlers/pay-commission-to-member.ts', { ...stripeWrites, mail: 'send' }),
  // Admin: a refund through Stripe; the commission follows (commissions/refunds.ts).
  // Mails the customer their refund (notifications/mails.ts).
  route('refundOrder', 'handlers/refund-order.ts', { ...stripeWrites, mail: 'send' }),
  // Payout batches (commissions/batches.ts): the admin's "Send all available" / "Pay all", the member's withdrawal.
  route('runPayoutBatch', 'handlers/run-payout-batch.ts', { ...stripeWrites, mail: 'send' }),
  // Admin: release or cancel a commission held for review at its sale (commissions/review.ts).
  route('reviewHeldCommission', 'handlers/review-held-commission.ts', writes),
  route('getHeldCommissions', 'handlers/get-held-commissions.ts', reads),
  route('getWithdrawalQuote', 'handlers/get-withdrawal-quote.ts', stripeReads),
  route('withdraw', 'handlers/withdraw.ts', { ...stripeWrites, mail: 'send' }),
  // Admin: compares the ledger with Stripe's over a period (reconciliation/reconcile.ts); reads only.
  route('reconcile', 'handlers/reconcile.ts', stripeReads, 1024),
  // Admin: the member's payout card, named by a payout's confirmation.
  route('getMemberPayoutCard', 'handlers/get-member-payout-card.ts', stripeReads),
  // Admin: what members still owe after clawbacks (commissions/batches.ts memberDebts).
  route('getMemberDebts', 'handlers/get-member-debts.ts', reads),
  // Admin: the commission rules, member groups and their audit log (rules/programme.ts, issue 39).
  route('getCommissionRules', 'handlers/get-commission-rules.ts', reads),
  // Reads the approved catalogue (up to 5 000 products) to count what a change would move.
  route('previewCommissionRule', 'handlers/preview-commission-rule.ts', reads, 1024, 29),
  route('changeCommissionRule', 'handlers/change-commission-rule.ts', writes),
  route('changeMemberGroup', 'handlers/change-member-group.ts', writes),
  route('getGroupMembers', 'handlers/get-group-members.ts', reads),
  route('getRuleAudit', 'handlers/get-rule-audit.ts', reads),
  // Admin: the card an order was paid with, named by a refund's confirmation.
  route('getOrderPaymentCard', 'handlers/get-order-payment-card.ts', stripeReads),
  // Members' discount codes (issue 39, codes/codes.ts). The admin's make and turn off codes at Stripe.
  route('createDiscountCode', 'handlers/create-discount-code.ts', stripeWrites),
  route('disableDiscountCode', 'handlers/disable-discount-code.ts', stripeWrites),
  route('getDiscountCodes', 'handlers/get-discount-codes.ts', reads),
  route('getMyDiscountCodes', 'handlers/get-my-discount-codes.ts', reads),
  // Public: the share page's Apply; reads the product and the code, no secret.
  route('checkDiscountCode', 'handlers/check-discount-code.ts', { table: 'read', secrets: [] }, 256),
  // Public: Stripe signs it; no access token, so no signing key. The platform's own events.
  route('stripeWebhook', 'handlers/stripe-webhook.ts', {
    table: 'readwrite',
    secrets: ['stripeSecretKey', 'stripeWebhookSecret'],
    mail: 'send',
  }),
  // Public: the connected accounts' events, signed with the Connect endpoint's own secret.
  route('stripeConnectWebhook', 'handlers/stripe-connect-webhook.ts', {
    table: 'readwrite',
    secrets: ['stripeSecretKey', 'stripeConnectWebhookSecret'],
    mail: 'send',
  }),
  // Public: the customer's order page by its link's token; reads only, no secret.
  route('getOrderPage', 'handlers/get-order-page.ts', { table: 'read', secrets: [] }, 256),
  // The member's optional mails (a preference on their profile).
  route('saveMailPreferences', 'handlers/save-mail-preferences.ts', writes),
  // A member's self-service (issue 28). The password ones hash with scrypt; the e-mail change asks
  // for the current password and mails a link; the reset ones are public and mail or hash.
  route('updateProfile', 'handlers/update-profile.ts', writes),
  route('changeEmail', 'handlers/change-email.ts', { ...writes, mail: 'send' }, PASSWORD_MEMORY_MB),
  route('changePassword', 'handlers/change-password.ts', writes, PASSWORD_MEMORY_MB),
  route('requestPasswordReset', 'handlers/request-password-reset.ts', {
    table: 'readwrite',
    secrets: [],
    mail: 'send',
  }),
  route('resetPassword', 'handlers/reset-password.ts', { table: 'readwrite', secrets: [] }, PASSWORD_MEMORY_MB),
  route('checkResetLink', 'handlers/check-reset-link.ts', { table: 'read', secrets: [] }),
  route('replacePayoutMethod', 'handlers/replace-payout-method.ts', stripeWrites),
  // The member's corrections after Stripe could not verify them, and the account's state (issue 34).
  route('updatePayoutAccount', 'handlers/update-payout-account.ts', stripeWrites),
  route('getPayoutAccount', 'handlers/get-payout-account.ts', { table: 'read', secrets: ['tokenSigningKey'] }),
];

/** Functions started by events rather than by /api calls. */
export interface EventFunction {
  name: string;
  module: string;
  memoryMb: number;
  timeoutSeconds: number;
  access: Access;
  /**
   * What starts it: objects created in the imports bucket, the picture queue's messages (an event
   * source mapping), a schedule (every day at 00:00 UTC), each deploy that changes the stack, or the
   * table's stream filtered to the members' earnings shards (an event source mapping).
   */
  trigger:
    | 'importsBucket:ObjectCreated'
    | 'pictureQueue'
    | 'checkoutCancelQueue'
    | 'importQueue'
    | 'schedule:daily'
    | 'afterDeploy'
    | 'tableStream:earnings';
  /** Instances at most (reserved concurrency): the picture function's share of the account's concurrency. */
  reservedConcurrency?: number;
  /** Messages per invocation (the event source mapping's batch size). */
  batchSize?: number;
  /** Native modules installed into the bundle for Lambda's linux-arm64 instead of bundled (infra/lib/bundling.ts). */
  nativeModules?: readonly string[];
}

/**
 * Receives of a picture message before the queue moves it to its dead-letter queue: more than the
 * picture function's own tries of a slow host (PICTURE_ATTEMPTS, 3), so only a message that fails
 * for another reason (a poison message) gets there.
 */
export const PICTURE_MAX_RECEIVES = 5;
/** Receives of a checkout-cancel step before its dead-letter queue: a step that threw five times. */
export const CHECKOUT_CANCEL_MAX_RECEIVES = 5;

/** Receives of an import part's message before it goes to the failed-events queue. */
export const IMPORT_PART_MAX_RECEIVES = 3;

/** The import's memory and time, shared by its first part and the parts that continue it. */
const IMPORT_ACCESS: Access = {
  table: 'readwrite',
  secrets: [],
  importsBucket: 'read',
  pictureQueue: 'send',
  importQueue: 'send',
};

export const eventFunctions: readonly EventFunction[] = [
  {
    name: 'importProducts',
    module: 'handlers/s3/import-products.ts',
    // 1769 MB is one full vCPU: parsing and sanitizing are CPU-bound.
    memoryMb: 1769,
    timeoutSeconds: 900,
    // It hands the pictures to the picture queue (issue 38) and no longer fetches them itself; a
    // file too long for its 15 minutes goes on from a checkpoint in continueImport.
    access: IMPORT_ACCESS,
    trigger: 'importsBucket:ObjectCreated',
  },
  {
    // A long import's later parts (run-import.ts continueImport), one message per part.
    name: 'continueImport',
    module: 'handlers/sqs/continue-import.ts',
    memoryMb: 1769,
    timeoutSeconds: 900,
    access: IMPORT_ACCESS,
    trigger: 'importQueue',
    batchSize: 1,
  },
  {
    // The pictures of imported products (issue 38): fetched, resized to WebP and stored, a batch
    // of messages at a time; each address has one attempt of at most 10 s, two per host at a time.
    name: 'hostPictures',
    module: 'handlers/sqs/host-pictures.ts',
    // 1769 MB is one full vCPU: decoding and encoding pictures is CPU-bound.
    memoryMb: 1769,
    // Ten products with up to a few dozen pictures, eight at a time, each within 10 s.
    timeoutSeconds: 300,
    access: { table: 'readwrite', secrets: [], imagesBucket: 'readwrite', pictureQueue: 'consume' },
    trigger: 'pictureQueue',
    reservedConcurrency: 10,
    // One message of up to 10 product versions (picture-work.ts WORKS_PER_MESSAGE) an invocation.
    batchSize: 1,
    // The pictures' WebP variants (issue 28): sharp's prebuilt linux-arm64 binaries.
    nativeModules: ['sharp'],
  },
  {
    // A banned or withdrawn product's open checkouts cancelled at Stripe, a page a message, each
    // step sending the next (payments/open-intents.ts cancelStep, issue 38).
    name: 'cancelCheckouts',
    module: 'handlers/sqs/cancel-checkouts.ts',
    memoryMb: 512,
    // A page of 50, ten Stripe calls at a time, each at most three attempts of 4 s.
    timeoutSeconds: 120,
    access: { table: 'readwrite', secrets: ['stripeSecretKey'], checkoutCancelQueue: 'sendAndConsume' },
    trigger: 'checkoutCancelQueue',
    // Ten Stripe calls each: 5 instances stay well under Stripe's 100 requests a second.
    reservedConcurrency: 5,
    batchSize: 1,
  },
  {
    // Brings stored items to what the code reads (handlers/deploy/upgrade-table.ts).
    name: 'upgradeTable',
    module: 'handlers/deploy/upgrade-table.ts',
    memoryMb: 512,
    timeoutSeconds: 900,
    access: { table: 'readwrite', secrets: [] },
    trigger: 'afterDeploy',
  },
  {
    // The members' top-earners places, off the sale's path (commissions/places.ts, decision 0481):
    // the table's stream, filtered to the earnings shards a sale or a refund writes.
    name: 'refreshPlaces',
    module: 'handlers/streams/refresh-places.ts',
    memoryMb: 512,
    // A batch of 100 changes: at most 100 members, ten at a time, each a Query, a GetItem and an Update.
    timeoutSeconds: 60,
    access: { table: 'readwrite', secrets: [] },
    trigger: 'tableStream:earnings',
    batchSize: 100,
  },
  {
    // The daily payouts (commissions/batches.ts): every member at or over the payout minimum.
    name: 'dailyPayouts',
    module: 'handlers/scheduled/daily-payouts.ts',
    memoryMb: 512,
    timeoutSeconds: 900,
    // Mails each member's "your payout is on its way" as the payout is recorded.
    access: { table: 'readwrite', secrets: ['stripeSecretKey'], mail: 'send' },
    trigger: 'schedule:daily',
  },
];
