/**
 * Every /api call's name, who may make it and how its body arrives, without its schemas: the
 * functions' middy stack reads these, and builds only the schema its own call validates (a
 * function that loaded the whole contract built every call's zod schemas at cold start). The
 * contract (contract.ts) adds the schemas; its path is always `/api/<name>`.
 */

export type Role = 'public' | 'member' | 'admin';

export interface EndpointInfo {
  role: Role;
  /** How the body arrives: JSON, or multipart/form-data (file uploads). */
  body: 'json' | 'multipart';
}

const json = (role: Role): EndpointInfo => ({ role, body: 'json' });

export const endpoints = {
  signup: json('public'),
  login: json('public'),
  checkAuth: json('public'),
  logout: json('public'),

  createPayoutAccount: json('member'),
  getPaymentConfig: json('public'),
  getPaymentIntent: json('public'),
  addPayoutMethod: json('member'),
  getExternalAccounts: json('member'),
  verifyEmail: json('public'),
  searchAddress: json('member'),
  stripeWebhook: json('public'),
  stripeConnectWebhook: json('public'),

  products: { role: 'admin', body: 'multipart' },
  createProductUpload: json('admin'),
  getImportJob: json('admin'),
  getImportIssues: json('admin'),
  getRejectedRowsCsv: json('admin'),
  approveProduct: json('admin'),
  banProduct: json('admin'),
  getUnApprovedProducts: json('admin'),
  getImportedProduct: json('admin'),
  getApprovedProducts: json('member'),
  getApprovedProduct: json('member'),

  getSharedProduct: json('public'),
  confirmCheckout: json('public'),

  addOrder: json('admin'),
  getOrders: json('admin'),
  getOrdersNotShipped: json('admin'),
  getOrdersNotOrdered: json('admin'),
  getOrdersNotFufilled: json('admin'),
  markAsShipped: json('admin'),
  markAsOrdered: json('admin'),
  markAsFufilled: json('admin'),

  getCommisions: json('admin'),
  getCommisionsToStripe: json('admin'),
  getCommisionsToBePayed: json('admin'),
  getTopEarners: json('admin'),
  addCommisionToStripe: json('admin'),
  payCommisionToMember: json('admin'),
  getCommisionsByUser: json('member'),
  exportCsv: json('admin'),
} as const satisfies Record<string, EndpointInfo>;

export type EndpointName = keyof typeof endpoints;

/** The path of a call: `/api/<name>`. */
export const pathOf = <N extends EndpointName>(name: N): `/api/${N}` => `/api/${name}`;
