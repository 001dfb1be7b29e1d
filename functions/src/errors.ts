import type { ErrorBody } from '@portal/shared/api/schemas';

/**
 * Domain errors carry a kind that the error mapper turns into an HTTP status, and a message
 * written for the person who will read it. Anything that is not a DomainError is a 500 with a
 * generic body; its details go to the log only.
 */
export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'too-many-requests'
  | 'unavailable';

export const statusOf: Record<ErrorKind, number> = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  /** A request body over what the call takes (the upload's limit). */
  'too-large': 413,
  'too-many-requests': 429,
  /** Something we depend on (Stripe, Secrets Manager, a busy table) did not answer; the call may be tried again. */
  unavailable: 503,
};

export class DomainError extends Error {
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;
  /** Cookies to set on the error response (API Gateway v2 `cookies`). */
  readonly cookies?: string[];
  /** What the error body says besides its message (ErrorBody in shared/src/api/schemas.ts): a failed login's `loginValid: false`. */
  readonly answer?: Pick<ErrorBody, 'loginValid'>;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    extra: {
      fields?: Record<string, string>;
      headers?: Record<string, string>;
      cookies?: string[];
      answer?: Pick<ErrorBody, 'loginValid'>;
    } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.fields = extra.fields;
    this.headers = extra.headers;
    this.cookies = extra.cookies;
    this.answer = extra.answer;
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new DomainError('bad-request', message, { fields });
export const unauthorized = (message = 'Log in to continue.') => new DomainError('unauthorized', message);
export const forbidden = (message = 'You do not have permission to do that.') => new DomainError('forbidden', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooLarge = (message: string) => new DomainError('too-large', message);

/** A 503 with Retry-After: nothing was changed, and the same call may simply be made again. */
export const unavailable = (message: string, retryAfterSeconds = 5) =>
  new DomainError('unavailable', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

/**
 * AWS errors known by name (nothing here imports the SDK): DynamoDB throttling, thrown or as a
 * cancelled transaction's reason (ProvisionedThroughputExceeded…, Throttling…, RequestLimitExceeded),
 * and a conditional write or transaction that lost a race.
 */
export function awsErrorKind(error: unknown): 'throttled' | 'race' | undefined {
  if (!(error instanceof Error)) return undefined;
  const throttling = /^(ProvisionedThroughputExceeded|Throttling|RequestLimitExceeded)/;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  if (throttling.test(error.name) || reasons.some((reason) => throttling.test(reason.Code ?? ''))) return 'throttled';
  return /^(ConditionalCheckFailed|TransactionCanceled|TransactionConflict)Exception$/.test(error.name)
    ? 'race'
    : undefined;
}
