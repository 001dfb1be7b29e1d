import * as z from './zod';
import { endpoints, pathOf, type EndpointName, type Role } from './endpoints';
import {
  AuthResponse,
  CheckAuthRequest,
  EmptyRequest,
  IdRequest,
  LoginRequest,
  LogoutRequest,
  OkResponse,
  SignupRequest,
} from './schemas';
import {
  ApproveRequest,
  BanRequest,
  ImportedProduct,
  ImportedProductPage,
  ImportIssuesPage,
  ImportIssuesRequest,
  ImportJob,
  ImportJobRequest,
  ModerationResult,
  PageRequest,
  ProductDetail,
  ProductPage,
  RejectedRowsCsv,
  UploadResult,
  UploadUrl,
  UploadUrlRequest,
} from './products';
import { SearchAddressRequest, SearchAddressResponse } from './address';
import type {
  AddOrderRequest,
  AddOrderResponse,
  CommissionPage,
  CommissionResult,
  CommissionsByUserRequest,
  ConfirmCheckoutRequest,
  ConfirmCheckoutResponse,
  ExportCsv,
  ExportRequest,
  ListRequest,
  OrderPage,
  OrderResult,
  OrdersRequest,
  SharedProduct,
  SharedProductRequest,
  TopEarnerPage,
} from './sales';
import { PaymentConfig } from './payment-config';
import { VerifyEmailRequest, VerifyEmailResponse } from './email';
import type {
  AddPayoutMethodRequest,
  AddPayoutMethodResponse,
  CreatePayoutAccountRequest,
  ExternalAccounts,
  ExternalAccountsRequest,
  PayoutAccountResponse,
} from './payments';
import type { PaymentIntentRequest, PaymentIntentResponse } from './checkout';

/**
 * The API contract: one entry per /api call of spec section 7 (plus logout), all POST.
 * The handlers validate with these schemas, the apps' client is typed by them, and the
 * route table in functions/src/routes.ts maps the implemented ones to handler modules.
 */

export type { Role } from './endpoints';

export interface Endpoint<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  path: `/api/${string}`;
  role: Role;
  /** How the body arrives: JSON, or multipart/form-data (file uploads). */
  body: 'json' | 'multipart';
  request: Req;
  response: Res;
}

/** A call's entry: its path, role and body kind from endpoints.ts, and its schemas. */
const endpoint = <Req extends z.ZodMiniType, Res extends z.ZodMiniType>(
  name: EndpointName,
  request: Req,
  response: Res,
): Endpoint<Req, Res> => ({ path: pathOf(name), ...endpoints[name], request, response });

/**
 * A schema that lives in its own module and is named here by type only, so the apps' client does
 * not carry a call's large schemas (the payout form's). The functions do not load the contract at
 * all (their stack reads endpoints.ts); every handler module passes its request schema to
 * `apiHandler`, and the apps import a deferred schema from its module for forms.
 */
const Deferred = z.unknown();
const deferred = <T extends z.ZodMiniType>(): T => Deferred as unknown as T;
/** Whether an entry's schema is named by type only (see `deferred`). */
export const isDeferred = (schema: z.ZodMiniType): boolean => schema === Deferred;

export const contract = {
  signup: endpoint('signup', SignupRequest, AuthResponse),
  login: endpoint('login', LoginRequest, AuthResponse),
  checkAuth: endpoint('checkAuth', CheckAuthRequest, AuthResponse),
  logout: endpoint('logout', LogoutRequest, OkResponse),

  createPayoutAccount: endpoint(
    'createPayoutAccount',
    deferred<typeof CreatePayoutAccountRequest>(),
    deferred<typeof PayoutAccountResponse>(),
  ),
  /**
   * The publishable key and, against the local emulator, where the browser reaches it. Public: the
   * customer's checkout needs it without a login, and a publishable key is public by design.
   */
  getPaymentConfig: endpoint('getPaymentConfig', EmptyRequest, PaymentConfig),
  /** Public: the customer's checkout on a member's share link needs no login (shared/src/api/checkout.ts). */
  getPaymentIntent: endpoint(
    'getPaymentIntent',
    deferred<typeof PaymentIntentRequest>(),
    deferred<typeof PaymentIntentResponse>(),
  ),
  addPayoutMethod: endpoint(
    'addPayoutMethod',
    deferred<typeof AddPayoutMethodRequest>(),
    deferred<typeof AddPayoutMethodResponse>(),
  ),
  getExternalAccounts: endpoint(
    'getExternalAccounts',
    deferred<typeof ExternalAccountsRequest>(),
    deferred<typeof ExternalAccounts>(),
  ),
  /**
   * Public: `{ token }` verifies without a session (the link may open in another browser);
   * `{}` / `{ action: 'send' }` needs one, which the handler asks for (shared/src/api/email.ts).
   */
  verifyEmail: endpoint('verifyEmail', VerifyEmailRequest, VerifyEmailResponse),
  searchAddress: endpoint('searchAddress', SearchAddressRequest, SearchAddressResponse),
  /** Stripe's signed events; the handler verifies the signature on the raw body. */
  stripeWebhook: endpoint('stripeWebhook', z.unknown(), z.object({ received: z.literal(true) })),
  /** The connected accounts' signed events (Stripe's Connect endpoint), verified with its own secret. */
  stripeConnectWebhook: endpoint('stripeConnectWebhook', z.unknown(), z.object({ received: z.literal(true) })),

  /** Multipart upload of a supplier CSV (up to 5 MB); the import runs from the S3 event. */
  products: endpoint('products', z.unknown(), UploadResult),
  /** A presigned S3 POST for files up to 100 MB, which then import exactly like /api/products. */
  createProductUpload: endpoint('createProductUpload', UploadUrlRequest, UploadUrl),
  getImportJob: endpoint('getImportJob', ImportJobRequest, ImportJob),
  getImportIssues: endpoint('getImportIssues', ImportIssuesRequest, ImportIssuesPage),
  getRejectedRowsCsv: endpoint('getRejectedRowsCsv', ImportJobRequest, RejectedRowsCsv),
  approveProduct: endpoint('approveProduct', ApproveRequest, ModerationResult),
  banProduct: endpoint('banProduct', BanRequest, ModerationResult),
  getUnApprovedProducts: endpoint('getUnApprovedProducts', PageRequest, ImportedProductPage),
  getImportedProduct: endpoint('getImportedProduct', IdRequest, ImportedProduct),
  getApprovedProducts: endpoint('getApprovedProducts', PageRequest, ProductPage),
  getApprovedProduct: endpoint('getApprovedProduct', IdRequest, ProductDetail),

  // The sales calls' schemas live in ./sales (named here by type only, see `deferred`).
  /** Public: the product a member's share link shows (404 "no longer available" when banned or unknown). */
  getSharedProduct: endpoint(
    'getSharedProduct',
    deferred<typeof SharedProductRequest>(),
    deferred<typeof SharedProduct>(),
  ),
  /** Public: the customer's page reports a succeeded payment; the order is recorded once (the webhook may be first). */
  confirmCheckout: endpoint(
    'confirmCheckout',
    deferred<typeof ConfirmCheckoutRequest>(),
    deferred<typeof ConfirmCheckoutResponse>(),
  ),

  addOrder: endpoint('addOrder', deferred<typeof AddOrderRequest>(), deferred<typeof AddOrderResponse>()),
  getOrders: endpoint('getOrders', deferred<typeof OrdersRequest>(), deferred<typeof OrderPage>()),
  getOrdersNotShipped: endpoint('getOrdersNotShipped', deferred<typeof ListRequest>(), deferred<typeof OrderPage>()),
  getOrdersNotOrdered: endpoint('getOrdersNotOrdered', deferred<typeof ListRequest>(), deferred<typeof OrderPage>()),
  getOrdersNotFufilled: endpoint('getOrdersNotFufilled', deferred<typeof ListRequest>(), deferred<typeof OrderPage>()),
  markAsShipped: endpoint('markAsShipped', IdRequest, deferred<typeof OrderResult>()),
  markAsOrdered: endpoint('markAsOrdered', IdRequest, deferred<typeof OrderResult>()),
  markAsFufilled: endpoint('markAsFufilled', IdRequest, deferred<typeof OrderResult>()),

  getCommisions: endpoint('getCommisions', deferred<typeof ListRequest>(), deferred<typeof CommissionPage>()),
  getCommisionsToStripe: endpoint(
    'getCommisionsToStripe',
    deferred<typeof ListRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  getCommisionsToBePayed: endpoint(
    'getCommisionsToBePayed',
    deferred<typeof ListRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  getTopEarners: endpoint('getTopEarners', deferred<typeof ListRequest>(), deferred<typeof TopEarnerPage>()),
  addCommisionToStripe: endpoint('addCommisionToStripe', IdRequest, deferred<typeof CommissionResult>()),
  payCommisionToMember: endpoint('payCommisionToMember', IdRequest, deferred<typeof CommissionResult>()),
  /** A member's own commissions (another member's id is a 404); an admin may name anyone. */
  getCommisionsByUser: endpoint(
    'getCommisionsByUser',
    deferred<typeof CommissionsByUserRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  /** Orders or commissions as CSV, formula-escaped. */
  exportCsv: endpoint('exportCsv', deferred<typeof ExportRequest>(), deferred<typeof ExportCsv>()),
} as const satisfies Record<EndpointName, Endpoint>;

export type Contract = typeof contract;
export type { EndpointName } from './endpoints';
export type RequestOf<N extends EndpointName> = z.input<Contract[N]['request']>;
export type ResponseOf<N extends EndpointName> = z.output<Contract[N]['response']>;

export const endpointByPath: ReadonlyMap<string, EndpointName> = new Map(
  (Object.keys(contract) as EndpointName[]).map((name) => [contract[name].path, name]),
);
