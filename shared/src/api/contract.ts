import * as z from 'zod';
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

export type Role = 'public' | 'member' | 'admin';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  path: `/api/${string}`;
  role: Role;
  /** How the body arrives: JSON, or multipart/form-data (file uploads). */
  body: 'json' | 'multipart';
  request: Req;
  response: Res;
}

const endpoint = <Req extends z.ZodType, Res extends z.ZodType>(
  path: `/api/${string}`,
  role: Role,
  request: Req,
  response: Res,
  body: 'json' | 'multipart' = 'json',
): Endpoint<Req, Res> => ({ path, role, body, request, response });

/**
 * A schema that lives in its own module and is named here by type only: every function bundles
 * the whole contract, so a call's large schemas (the payout form's) would grow every bundle. The
 * handler module passes the real request schema to `apiHandler`, which refuses to build a handler
 * for a deferred entry without it; the apps import the schema from its module for forms.
 */
const Deferred = z.unknown();
const deferred = <T extends z.ZodType>(): T => Deferred as unknown as T;
/** Whether an entry's schema is named by type only (see `deferred`). */
export const isDeferred = (schema: z.ZodType): boolean => schema === Deferred;

export const contract = {
  signup: endpoint('/api/signup', 'public', SignupRequest, AuthResponse),
  login: endpoint('/api/login', 'public', LoginRequest, AuthResponse),
  checkAuth: endpoint('/api/checkAuth', 'public', CheckAuthRequest, AuthResponse),
  logout: endpoint('/api/logout', 'public', LogoutRequest, OkResponse),

  createPayoutAccount: endpoint(
    '/api/createPayoutAccount',
    'member',
    deferred<typeof CreatePayoutAccountRequest>(),
    deferred<typeof PayoutAccountResponse>(),
  ),
  /**
   * The publishable key and, against the local emulator, where the browser reaches it. Public: the
   * customer's checkout needs it without a login, and a publishable key is public by design.
   */
  getPaymentConfig: endpoint('/api/getPaymentConfig', 'public', EmptyRequest, PaymentConfig),
  /** Public: the customer's checkout on a member's share link needs no login (shared/src/api/checkout.ts). */
  getPaymentIntent: endpoint(
    '/api/getPaymentIntent',
    'public',
    deferred<typeof PaymentIntentRequest>(),
    deferred<typeof PaymentIntentResponse>(),
  ),
  addPayoutMethod: endpoint(
    '/api/addPayoutMethod',
    'member',
    deferred<typeof AddPayoutMethodRequest>(),
    deferred<typeof AddPayoutMethodResponse>(),
  ),
  getExternalAccounts: endpoint(
    '/api/getExternalAccounts',
    'member',
    deferred<typeof ExternalAccountsRequest>(),
    deferred<typeof ExternalAccounts>(),
  ),
  /**
   * Public: `{ token }` verifies without a session (the link may open in another browser);
   * `{}` / `{ action: 'send' }` needs one, which the handler asks for (shared/src/api/email.ts).
   */
  verifyEmail: endpoint('/api/verifyEmail', 'public', VerifyEmailRequest, VerifyEmailResponse),
  searchAddress: endpoint('/api/searchAddress', 'member', SearchAddressRequest, SearchAddressResponse),
  /** Stripe's signed events; the handler verifies the signature on the raw body. */
  stripeWebhook: endpoint('/api/stripeWebhook', 'public', z.unknown(), z.object({ received: z.literal(true) })),

  /** Multipart upload of a supplier CSV (up to 5 MB); the import runs from the S3 event. */
  products: endpoint('/api/products', 'admin', z.unknown(), UploadResult, 'multipart'),
  /** A presigned S3 POST for files up to 100 MB, which then import exactly like /api/products. */
  createProductUpload: endpoint('/api/createProductUpload', 'admin', UploadUrlRequest, UploadUrl),
  getImportJob: endpoint('/api/getImportJob', 'admin', ImportJobRequest, ImportJob),
  getImportIssues: endpoint('/api/getImportIssues', 'admin', ImportIssuesRequest, ImportIssuesPage),
  getRejectedRowsCsv: endpoint('/api/getRejectedRowsCsv', 'admin', ImportJobRequest, RejectedRowsCsv),
  approveProduct: endpoint('/api/approveProduct', 'admin', ApproveRequest, ModerationResult),
  banProduct: endpoint('/api/banProduct', 'admin', BanRequest, ModerationResult),
  getUnApprovedProducts: endpoint('/api/getUnApprovedProducts', 'admin', PageRequest, ImportedProductPage),
  getImportedProduct: endpoint('/api/getImportedProduct', 'admin', IdRequest, ImportedProduct),
  getApprovedProducts: endpoint('/api/getApprovedProducts', 'member', PageRequest, ProductPage),
  getApprovedProduct: endpoint('/api/getApprovedProduct', 'member', IdRequest, ProductDetail),

  // The sales calls' schemas live in ./sales (named here by type only, see `deferred`).
  /** Public: the product a member's share link shows (404 "no longer available" when banned or unknown). */
  getSharedProduct: endpoint(
    '/api/getSharedProduct',
    'public',
    deferred<typeof SharedProductRequest>(),
    deferred<typeof SharedProduct>(),
  ),
  /** Public: the customer's page reports a succeeded payment; the order is recorded once (the webhook may be first). */
  confirmCheckout: endpoint(
    '/api/confirmCheckout',
    'public',
    deferred<typeof ConfirmCheckoutRequest>(),
    deferred<typeof ConfirmCheckoutResponse>(),
  ),

  addOrder: endpoint('/api/addOrder', 'admin', deferred<typeof AddOrderRequest>(), deferred<typeof AddOrderResponse>()),
  getOrders: endpoint('/api/getOrders', 'admin', deferred<typeof OrdersRequest>(), deferred<typeof OrderPage>()),
  getOrdersNotShipped: endpoint(
    '/api/getOrdersNotShipped',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof OrderPage>(),
  ),
  getOrdersNotOrdered: endpoint(
    '/api/getOrdersNotOrdered',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof OrderPage>(),
  ),
  getOrdersNotFufilled: endpoint(
    '/api/getOrdersNotFufilled',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof OrderPage>(),
  ),
  markAsShipped: endpoint('/api/markAsShipped', 'admin', IdRequest, deferred<typeof OrderResult>()),
  markAsOrdered: endpoint('/api/markAsOrdered', 'admin', IdRequest, deferred<typeof OrderResult>()),
  markAsFufilled: endpoint('/api/markAsFufilled', 'admin', IdRequest, deferred<typeof OrderResult>()),

  getCommisions: endpoint(
    '/api/getCommisions',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  getCommisionsToStripe: endpoint(
    '/api/getCommisionsToStripe',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  getCommisionsToBePayed: endpoint(
    '/api/getCommisionsToBePayed',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  getTopEarners: endpoint(
    '/api/getTopEarners',
    'admin',
    deferred<typeof ListRequest>(),
    deferred<typeof TopEarnerPage>(),
  ),
  addCommisionToStripe: endpoint('/api/addCommisionToStripe', 'admin', IdRequest, deferred<typeof CommissionResult>()),
  payCommisionToMember: endpoint('/api/payCommisionToMember', 'admin', IdRequest, deferred<typeof CommissionResult>()),
  /** A member's own commissions (another member's id is a 404); an admin may name anyone. */
  getCommisionsByUser: endpoint(
    '/api/getCommisionsByUser',
    'member',
    deferred<typeof CommissionsByUserRequest>(),
    deferred<typeof CommissionPage>(),
  ),
  /** Orders or commissions as CSV, formula-escaped. */
  exportCsv: endpoint('/api/exportCsv', 'admin', deferred<typeof ExportRequest>(), deferred<typeof ExportCsv>()),
} as const;

export type Contract = typeof contract;
export type EndpointName = keyof Contract;
export type RequestOf<N extends EndpointName> = z.input<Contract[N]['request']>;
export type ResponseOf<N extends EndpointName> = z.output<Contract[N]['response']>;

export const endpointByPath: ReadonlyMap<string, EndpointName> = new Map(
  (Object.keys(contract) as EndpointName[]).map((name) => [contract[name].path, name]),
);
