/** Stripe's error object (`{ error: { type, code, message, param, doc_url } }`) and the status it comes with. */
export type StripeErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly details: { code?: string; param?: string; decline_code?: string } = {},
    /**
     * A parameter that failed validation, before the call started executing: Stripe keeps no
     * result for the idempotency key ("results are only saved if an API endpoint started executing").
     */
    readonly validation = false,
  ) {
    super(message);
  }

  body(requestId: string): { error: Record<string, string> } {
    const { code, param, decline_code } = this.details;
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}` } : {}),
        ...(param ? { param } : {}),
        ...(decline_code ? { decline_code } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
      },
    };
  }
}

export const missing = (param: string): StripeApiError =>
  new StripeApiError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    { code: 'parameter_missing', param },
    true,
  );

export const invalid = (param: string, message: string, code?: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', message, { param, ...(code ? { code } : {}) }, true);

/** Stripe's answer to a call for a connected account the key cannot reach (unknown, or another platform's). */
export const noAccess = (maskedKey: string, account: string): StripeApiError =>
  new StripeApiError(
    403,
    'invalid_request_error',
    `The provided key '${maskedKey}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
    { code: 'account_invalid' },
  );

export const noSuch = (what: string, id: string, param = 'id'): StripeApiError =>
  new StripeApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing', param });
