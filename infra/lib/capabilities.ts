import type { Route } from '../../functions/src/routes';

type EndpointName = Route['name'];

/**
 * The capabilities the /api calls are deployed by: each one is a nested stack of its own
 * (CapabilityStack in infra/lib/portal-stack.ts) holding its calls' functions, roles, log groups and API routes,
 * so that the stacks grow by capability and none nears CloudFormation's 500 resources
 * (docs/decisions/0091-nested-stacks-per-capability.md). The route table
 * (functions/src/routes.ts) still says which calls exist and how each is built; this only says
 * which nested stack a call's resources live in.
 */
export const capabilities = ['Auth', 'Catalogue', 'Payouts', 'Sales', 'Commissions', 'Programme'] as const;
export type Capability = (typeof capabilities)[number];

/**
 * A call's capability. A call missing here fails the synth with its name (a new call is placed
 * once, here); moving a call to another capability replaces its function in AWS (a new logical
 * id in another stack), so place it for good.
 */
export const capabilityOf: Partial<Record<EndpointName, Capability>> = {
  signup: 'Auth',
  login: 'Auth',
  checkAuth: 'Auth',
  logout: 'Auth',
  verifyEmail: 'Auth',
  saveMailPreferences: 'Auth',
  updateProfile: 'Auth',
  changeEmail: 'Auth',
  changePassword: 'Auth',
  requestPasswordReset: 'Auth',
  resetPassword: 'Auth',
  checkResetLink: 'Auth',

  products: 'Catalogue',
  createProductUpload: 'Catalogue',
  getImportJob: 'Catalogue',
  retryImportPictures: 'Catalogue',
  getImportIssues: 'Catalogue',
  getRejectedRowsCsv: 'Catalogue',
  approveProduct: 'Catalogue',
  banProduct: 'Catalogue',
  getCheckoutCancels: 'Catalogue',
  getUnApprovedProducts: 'Catalogue',
  getImportedProduct: 'Catalogue',
  getApprovedProducts: 'Catalogue',
  getApprovedProduct: 'Catalogue',
  getCatalogueProducts: 'Catalogue',
  withdrawProduct: 'Catalogue',
  returnProductToReview: 'Catalogue',

  searchAddress: 'Payouts',
  createPayoutAccount: 'Payouts',
  addPayoutMethod: 'Payouts',
  getExternalAccounts: 'Payouts',
  replacePayoutMethod: 'Payouts',
  updatePayoutAccount: 'Payouts',
  getPayoutAccount: 'Payouts',
  getPaymentConfig: 'Payouts',
  stripeWebhook: 'Payouts',
  stripeConnectWebhook: 'Payouts',

  getPaymentIntent: 'Sales',
  checkDiscountCode: 'Sales',
  createDiscountCode: 'Sales',
  disableDiscountCode: 'Sales',
  getDiscountCodes: 'Sales',
  getMyDiscountCodes: 'Sales',
  getSharedProduct: 'Sales',
  confirmCheckout: 'Sales',
  addOrder: 'Sales',
  getOrders: 'Sales',
  getOrdersNotOrdered: 'Sales',
  getOrdersNotShipped: 'Sales',
  getOrdersNotFufilled: 'Sales',
  markAsOrdered: 'Sales',
  markAsShipped: 'Sales',
  markAsFufilled: 'Sales',
  exportCsv: 'Sales',
  getAdminSummary: 'Sales',
  getOrderPage: 'Sales',
  countVisit: 'Sales',
  getMyLinkStatistics: 'Sales',
  getLinkStatistics: 'Sales',

  getCommisions: 'Commissions',
  getCommisionsToStripe: 'Commissions',
  getCommisionsToBePayed: 'Commissions',
  getTopEarners: 'Commissions',
  getCommisionsByUser: 'Commissions',
  addCommisionToStripe: 'Commissions',
  payCommisionToMember: 'Commissions',
  refundOrder: 'Commissions',
  runPayoutBatch: 'Commissions',
  getWithdrawalQuote: 'Commissions',
  reconcile: 'Commissions',
  withdraw: 'Commissions',
  reviewHeldCommission: 'Commissions',
  getHeldCommissions: 'Commissions',
  getMemberPayoutCard: 'Commissions',
  getMemberDebts: 'Commissions',
  getOrderPaymentCard: 'Commissions',

  // The commission rules, member groups and their audit log (issue 39).
  getCommissionRules: 'Programme',
  previewCommissionRule: 'Programme',
  changeCommissionRule: 'Programme',
  changeMemberGroup: 'Programme',
  getGroupMembers: 'Programme',
  getRuleAudit: 'Programme',
};

/** The capability of a call by its name, or an error saying where to add it. */
export function capabilityFor(name: string): Capability {
  const capability = (capabilityOf as Record<string, Capability | undefined>)[name];
  if (!capability) {
    throw new Error(
      `The call ${name} has no capability: add it to capabilityOf in infra/lib/capabilities.ts (one of ${capabilities.join(', ')}), which decides the nested stack its function is deployed in.`,
    );
  }
  return capability;
}

/** The test of the stack fails when a stack holds more resources than this (CloudFormation allows 500). */
export const MAX_RESOURCES_PER_STACK = 400;
