/**
 * Faults the emulator can be told to throw, for one test: the next `times` requests matching a
 * method and a path are answered 429 or 500 before any work, dropped after the work (the
 * connection closed with no answer), answered late (the work done, the answer held `ms`), or
 * slow (the call in flight `ms` before its work: another request with its key meets a 409).
 * Only a test reaches it: `startStripeEmulator({ faults })` with a `StripeFaults` the test made
 * (exported by `testing.ts`); `npm start` passes none, and no HTTP route changes it.
 */
export type Fault =
  | { kind: 'status'; status: 429 | 500 }
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number }
  /** The call starts executing (its idempotency key in flight) and takes `ms` before it does its work. */
  | { kind: 'slow'; ms: number };

export interface FaultRule {
  method: 'GET' | 'POST';
  /** The exact path (`/v1/transfers`) or a pattern (`/^\/v1\/accounts\/[^/]+$/`). */
  path: string | RegExp;
  fault: Fault;
  /** How many matching requests get the fault; then the rule is spent. Default 1. */
  times?: number;
}

/** A request a rule matched, as the test checks the client's retries (same idempotency key). */
export interface FaultedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  fault: Fault['kind'];
}

const RATE_LIMITED = 'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.';
const API_ERROR = 'An unknown error occurred while processing your request.';

export class StripeFaults {
  private rules: (FaultRule & { left: number })[] = [];
  /** Every request a rule matched, oldest first. */
  readonly faulted: FaultedRequest[] = [];

  /** Adds a rule; rules are tried in the order they were added. */
  inject(rule: FaultRule): this {
    this.rules.push({ ...rule, left: rule.times ?? 1 });
    return this;
  }

  /** How many faults are still to be thrown (0: every rule spent). */
  pending(): number {
    return this.rules.reduce((sum, rule) => sum + rule.left, 0);
  }

  clear(): void {
    this.rules = [];
    this.faulted.length = 0;
  }

  /** The fault for this request, if a rule matches (and counts it); used by the server. */
  take(method: string, path: string, idempotencyKey: string | undefined): Fault | undefined {
    const rule = this.rules.find(
      (candidate) =>
        candidate.left > 0 &&
        candidate.method === method &&
        (typeof candidate.path === 'string' ? candidate.path === path : candidate.path.test(path)),
    );
    if (!rule) return undefined;
    rule.left--;
    this.faulted.push({ method, path, idempotencyKey, fault: rule.fault.kind });
    return rule.fault;
  }
}

/** The body of a status fault, in Stripe's error shape (a 429 as Stripe's rate limiter, a 500 as its own error). */
export function faultBody(status: 429 | 500, requestId: string): unknown {
  return {
    error:
      status === 429
        ? {
            type: 'invalid_request_error',
            code: 'rate_limit',
            message: RATE_LIMITED,
            request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
          }
        : {
            type: 'api_error',
            message: API_ERROR,
            request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
          },
  };
}
