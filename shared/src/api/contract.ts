import type * as z from './zod';
import type { Call } from './call';
import { signup, signupResponse } from './calls/signup';
import { login, loginResponse } from './calls/login';
import { checkAuth, checkAuthResponse } from './calls/check-auth';
import { logout, logoutResponse } from './calls/logout';
import { createPayoutAccount, createPayoutAccountResponse } from './calls/create-payout-account';
import { getPaymentConfig, getPaymentConfigResponse } from './calls/get-payment-config';
import { getPaymentIntent, getPaymentIntentResponse } from './calls/get-payment-intent';
import { addPayoutMethod, addPayoutMethodResponse } from './calls/add-payout-method';
import { getExternalAccounts, getExternalAccountsResponse } from './calls/get-external-accounts';
import { verifyEmail, verifyEmailResponse } from './calls/verify-email';
import { searchAddress, searchAddressResponse } from './calls/search-address';
import { stripeWebhook, stripeWebhookResponse } from './calls/stripe-webhook';
import { stripeConnectWebhook, stripeConnectWebhookResponse } from './calls/stripe-connect-webhook';
import { uploadProducts, uploadProductsResponse } from './calls/upload-products';
import { createProductUpload, createProductUploadResponse } from './calls/create-product-upload';
import { getImportJob, getImportJobResponse } from './calls/get-import-job';
import { retryImportPictures, retryImportPicturesResponse } from './calls/retry-import-pictures';
import { getImportIssues, getImportIssuesResponse } from './calls/get-import-issues';
import { getRejectedRowsCsv, getRejectedRowsCsvResponse } from './calls/get-rejected-rows-csv';
import { approveProduct, approveProductResponse } from './calls/approve-product';
import { banProduct, banProductResponse } from './calls/ban-product';
import { getCheckoutCancels, getCheckoutCancelsResponse } from './calls/get-checkout-cancels';
import { getUnapprovedProducts, getUnapprovedProductsResponse } from './calls/get-unapproved-products';
import { getImportedProduct, getImportedProductResponse } from './calls/get-imported-product';
import { getApprovedProducts, getApprovedProductsResponse } from './calls/get-approved-products';
import { getApprovedProduct, getApprovedProductResponse } from './calls/get-approved-product';
import { getSharedProduct, getSharedProductResponse } from './calls/get-shared-product';
import { confirmCheckout, confirmCheckoutResponse } from './calls/confirm-checkout';
import { addOrder, addOrderResponse } from './calls/add-order';
import { getOrders, getOrdersResponse } from './calls/get-orders';
import { getOrdersNotShipped, getOrdersNotShippedResponse } from './calls/get-orders-not-shipped';
import { getOrdersNotOrdered, getOrdersNotOrderedResponse } from './calls/get-orders-not-ordered';
import { getOrdersNotFulfilled, getOrdersNotFulfilledResponse } from './calls/get-orders-not-fulfilled';
import { markAsShipped, markAsShippedResponse } from './calls/mark-as-shipped';
import { markAsOrdered, markAsOrderedResponse } from './calls/mark-as-ordered';
import { markAsFulfilled, markAsFulfilledResponse } from './calls/mark-as-fulfilled';
import { getCommissions, getCommissionsResponse } from './calls/get-commissions';
import { getCommissionsToStripe, getCommissionsToStripeResponse } from './calls/get-commissions-to-stripe';
import { getCommissionsToBePaid, getCommissionsToBePaidResponse } from './calls/get-commissions-to-be-paid';
import { getTopEarners, getTopEarnersResponse } from './calls/get-top-earners';
import { addCommissionToStripe, addCommissionToStripeResponse } from './calls/add-commission-to-stripe';
import { payCommissionToMember, payCommissionToMemberResponse } from './calls/pay-commission-to-member';
import { getCommissionsByUser, getCommissionsByUserResponse } from './calls/get-commissions-by-user';
import { exportCsv, exportCsvResponse } from './calls/export-csv';
import { getCatalogueProducts, getCatalogueProductsResponse } from './calls/get-catalogue-products';
import { withdrawProduct, withdrawProductResponse } from './calls/withdraw-product';
import { returnProductToReview, returnProductToReviewResponse } from './calls/return-product-to-review';
import { getAdminSummary, getAdminSummaryResponse } from './calls/get-admin-summary';
import { getOrderPage, getOrderPageResponse } from './calls/get-order-page';
import { saveMailPreferences, saveMailPreferencesResponse } from './calls/save-mail-preferences';
import { updateProfile, updateProfileResponse } from './calls/update-profile';
import { changeEmail, changeEmailResponse } from './calls/change-email';
import { changePassword, changePasswordResponse } from './calls/change-password';
import { requestPasswordReset, requestPasswordResetResponse } from './calls/request-password-reset';
import { resetPassword, resetPasswordResponse } from './calls/reset-password';
import { checkResetLink, checkResetLinkResponse } from './calls/check-reset-link';
import { replacePayoutMethod, replacePayoutMethodResponse } from './calls/replace-payout-method';
import { updatePayoutAccount, updatePayoutAccountResponse } from './calls/update-payout-account';
import { getPayoutAccount, getPayoutAccountResponse } from './calls/get-payout-account';
import { refundOrder, refundOrderResponse } from './calls/refund-order';
import { runPayoutBatch, runPayoutBatchResponse } from './calls/run-payout-batch';
import { getWithdrawalQuote, getWithdrawalQuoteResponse } from './calls/get-withdrawal-quote';
import { getMemberPayoutCard, getMemberPayoutCardResponse } from './calls/get-member-payout-card';
import { getMemberDebts, getMemberDebtsResponse } from './calls/get-member-debts';
import { countVisit, countVisitResponse } from './calls/count-visit';
import { getMyLinkStatistics, getMyLinkStatisticsResponse } from './calls/get-my-link-statistics';
import { getLinkStatistics, getLinkStatisticsResponse } from './calls/get-link-statistics';
import { getOrderPaymentCard, getOrderPaymentCardResponse } from './calls/get-order-payment-card';
import { withdraw, withdrawResponse } from './calls/withdraw';
import { reconcile, reconcileResponse } from './calls/reconcile';
import { reviewHeldCommission, reviewHeldCommissionResponse } from './calls/review-held-commission';
import { getHeldCommissions, getHeldCommissionsResponse } from './calls/get-held-commissions';
import { createDiscountCode, createDiscountCodeResponse } from './calls/create-discount-code';
import { getDiscountCodes, getDiscountCodesResponse } from './calls/get-discount-codes';
import { disableDiscountCode, disableDiscountCodeResponse } from './calls/disable-discount-code';
import { getMyDiscountCodes, getMyDiscountCodesResponse } from './calls/get-my-discount-codes';
import { checkDiscountCode, checkDiscountCodeResponse } from './calls/check-discount-code';
import { getCommissionRules, getCommissionRulesResponse } from './calls/get-commission-rules';
import { previewCommissionRule, previewCommissionRuleResponse } from './calls/preview-commission-rule';
import { changeCommissionRule, changeCommissionRuleResponse } from './calls/change-commission-rule';
import { changeMemberGroup, changeMemberGroupResponse } from './calls/change-member-group';
import { getGroupMembers, getGroupMembersResponse } from './calls/get-group-members';
import { getRuleAudit, getRuleAuditResponse } from './calls/get-rule-audit';

/**
 * Every /api call of spec section 7 (plus logout), all POST: each call's contract module
 * (./calls/<call>.ts, one file per call) with its answer schema. The route table
 * (functions/src/routes.ts) and through it the local server and the CDK stack, the route-role
 * test, the handler tests' answer check and, in development and tests, the apps' client read this
 * list. No function bundle carries it: a handler imports its own call's module only.
 */

export type { Role, Call } from './call';

/** A call's contract module as one entry: its name, path, role, body kind and both schemas. */
export type Endpoint<C extends Call = Call, Res extends z.ZodMiniType = z.ZodMiniType> = C & { readonly response: Res };

const entry = <C extends Call, Res extends z.ZodMiniType>(call: C, response: Res): Endpoint<C, Res> => ({
  ...call,
  response,
});

export const contract = {
  signup: entry(signup, signupResponse),
  login: entry(login, loginResponse),
  checkAuth: entry(checkAuth, checkAuthResponse),
  logout: entry(logout, logoutResponse),
  createPayoutAccount: entry(createPayoutAccount, createPayoutAccountResponse),
  getPaymentConfig: entry(getPaymentConfig, getPaymentConfigResponse),
  getPaymentIntent: entry(getPaymentIntent, getPaymentIntentResponse),
  addPayoutMethod: entry(addPayoutMethod, addPayoutMethodResponse),
  getExternalAccounts: entry(getExternalAccounts, getExternalAccountsResponse),
  verifyEmail: entry(verifyEmail, verifyEmailResponse),
  searchAddress: entry(searchAddress, searchAddressResponse),
  stripeWebhook: entry(stripeWebhook, stripeWebhookResponse),
  stripeConnectWebhook: entry(stripeConnectWebhook, stripeConnectWebhookResponse),
  products: entry(uploadProducts, uploadProductsResponse),
  createProductUpload: entry(createProductUpload, createProductUploadResponse),
  getImportJob: entry(getImportJob, getImportJobResponse),
  retryImportPictures: entry(retryImportPictures, retryImportPicturesResponse),
  getImportIssues: entry(getImportIssues, getImportIssuesResponse),
  getRejectedRowsCsv: entry(getRejectedRowsCsv, getRejectedRowsCsvResponse),
  approveProduct: entry(approveProduct, approveProductResponse),
  banProduct: entry(banProduct, banProductResponse),
  getCheckoutCancels: entry(getCheckoutCancels, getCheckoutCancelsResponse),
  getUnApprovedProducts: entry(getUnapprovedProducts, getUnapprovedProductsResponse),
  getImportedProduct: entry(getImportedProduct, getImportedProductResponse),
  getApprovedProducts: entry(getApprovedProducts, getApprovedProductsResponse),
  getApprovedProduct: entry(getApprovedProduct, getApprovedProductResponse),
  getSharedProduct: entry(getSharedProduct, getSharedProductResponse),
  confirmCheckout: entry(confirmCheckout, confirmCheckoutResponse),
  addOrder: entry(addOrder, addOrderResponse),
  getOrders: entry(getOrders, getOrdersResponse),
  getOrdersNotShipped: entry(getOrdersNotShipped, getOrdersNotShippedResponse),
  getOrdersNotOrdered: entry(getOrdersNotOrdered, getOrdersNotOrderedResponse),
  getOrdersNotFufilled: entry(getOrdersNotFulfilled, getOrdersNotFulfilledResponse),
  markAsShipped: entry(markAsShipped, markAsShippedResponse),
  markAsOrdered: entry(markAsOrdered, markAsOrderedResponse),
  markAsFufilled: entry(markAsFulfilled, markAsFulfilledResponse),
  getCommisions: entry(getCommissions, getCommissionsResponse),
  getCommisionsToStripe: entry(getCommissionsToStripe, getCommissionsToStripeResponse),
  getCommisionsToBePayed: entry(getCommissionsToBePaid, getCommissionsToBePaidResponse),
  getTopEarners: entry(getTopEarners, getTopEarnersResponse),
  addCommisionToStripe: entry(addCommissionToStripe, addCommissionToStripeResponse),
  payCommisionToMember: entry(payCommissionToMember, payCommissionToMemberResponse),
  getCommisionsByUser: entry(getCommissionsByUser, getCommissionsByUserResponse),
  exportCsv: entry(exportCsv, exportCsvResponse),
  getCatalogueProducts: entry(getCatalogueProducts, getCatalogueProductsResponse),
  withdrawProduct: entry(withdrawProduct, withdrawProductResponse),
  returnProductToReview: entry(returnProductToReview, returnProductToReviewResponse),
  getAdminSummary: entry(getAdminSummary, getAdminSummaryResponse),
  getOrderPage: entry(getOrderPage, getOrderPageResponse),
  saveMailPreferences: entry(saveMailPreferences, saveMailPreferencesResponse),
  updateProfile: entry(updateProfile, updateProfileResponse),
  changeEmail: entry(changeEmail, changeEmailResponse),
  changePassword: entry(changePassword, changePasswordResponse),
  requestPasswordReset: entry(requestPasswordReset, requestPasswordResetResponse),
  resetPassword: entry(resetPassword, resetPasswordResponse),
  checkResetLink: entry(checkResetLink, checkResetLinkResponse),
  replacePayoutMethod: entry(replacePayoutMethod, replacePayoutMethodResponse),
  updatePayoutAccount: entry(updatePayoutAccount, updatePayoutAccountResponse),
  getPayoutAccount: entry(getPayoutAccount, getPayoutAccountResponse),
  refundOrder: entry(refundOrder, refundOrderResponse),
  runPayoutBatch: entry(runPayoutBatch, runPayoutBatchResponse),
  getWithdrawalQuote: entry(getWithdrawalQuote, getWithdrawalQuoteResponse),
  withdraw: entry(withdraw, withdrawResponse),
  reconcile: entry(reconcile, reconcileResponse),
  reviewHeldCommission: entry(reviewHeldCommission, reviewHeldCommissionResponse),
  getHeldCommissions: entry(getHeldCommissions, getHeldCommissionsResponse),
  getMemberPayoutCard: entry(getMemberPayoutCard, getMemberPayoutCardResponse),
  getMemberDebts: entry(getMemberDebts, getMemberDebtsResponse),
  getOrderPaymentCard: entry(getOrderPaymentCard, getOrderPaymentCardResponse),
  createDiscountCode: entry(createDiscountCode, createDiscountCodeResponse),
  getDiscountCodes: entry(getDiscountCodes, getDiscountCodesResponse),
  disableDiscountCode: entry(disableDiscountCode, disableDiscountCodeResponse),
  getMyDiscountCodes: entry(getMyDiscountCodes, getMyDiscountCodesResponse),
  checkDiscountCode: entry(checkDiscountCode, checkDiscountCodeResponse),
  getCommissionRules: entry(getCommissionRules, getCommissionRulesResponse),
  previewCommissionRule: entry(previewCommissionRule, previewCommissionRuleResponse),
  changeCommissionRule: entry(changeCommissionRule, changeCommissionRuleResponse),
  changeMemberGroup: entry(changeMemberGroup, changeMemberGroupResponse),
  getGroupMembers: entry(getGroupMembers, getGroupMembersResponse),
  getRuleAudit: entry(getRuleAudit, getRuleAuditResponse),
  countVisit: entry(countVisit, countVisitResponse),
  getMyLinkStatistics: entry(getMyLinkStatistics, getMyLinkStatisticsResponse),
  getLinkStatistics: entry(getLinkStatistics, getLinkStatisticsResponse),
};

export type Contract = typeof contract;

/** A compile-time check: each entry sits under its own call's name, and its path is `/api/<name>`. */
export type EachEntryNamedAfterItsCall = Assert<
  Contract extends { [N in keyof Contract]: { name: N; path: `/api/${N}` } } ? true : false
>;
type Assert<T extends true> = T;
export type EndpointName = keyof Contract;
export type RequestOf<N extends EndpointName> = z.input<Contract[N]['request']>;
export type ResponseOf<N extends EndpointName> = z.output<Contract[N]['response']>;
