import middy, { type MiddlewareObj } from '@middy/core';
import type { Call } from '@portal/shared/api/call';
import type { ResponseOf } from '@portal/shared/api/contract';
import { MAX_DIRECT_UPLOAD_BYTES } from '@portal/shared/api/products';
import type { ErrorBody } from '@portal/shared/api/schemas';
import type * as z from '@portal/shared/api/zod';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loadLogger, recordInvocation } from '../config/logger';
import { negotiateAnswer } from './compress';
import {
  DomainError,
  awsErrorKind,
  badRequest,
  conflict,
  forbidden,
  statusOf,
  tooLarge,
  unauthorized,
  unavailable,
} from '../errors';

/**
 * One middy stack for every /api call, in this order: error mapper (outermost, so it sees
 * every failure), logger context, header normalizer, body parser, authentication and role
 * check from the call's contract module, zod validation with its request schema; then the
 * handler's own decision.
 *
 * This folder knows HTTP and nothing of where users live: who a bearer token names is asked of
 * an `Authenticate` function, which the composition module builds from the auth capability and
 * its adapters (functions/src/composition.ts).
 */

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * File uploads: a file of MAX_DIRECT_UPLOAD_BYTES (4 MiB) plus the multipart framing around it,
 * which base64-encoded stays under Lambda's 6 MB request limit (shared/src/api/products.ts).
 */
export const MAX_MULTIPART_BYTES = MAX_DIRECT_UPLOAD_BYTES + 64 * 1024;

/**
 * The 413 of an upload over what one API request carries (a file of `maxBytes`, the body with its
 * framing): what to do instead, in words.
 */
export const uploadTooLarge = (maxBytes: number) =>
  tooLarge(
    `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most one upload to the API takes. ` +
      'Upload it on the Product Import screen, which sends larger files (up to 100 MB) straight to storage, ' +
      'or ask /api/createProductUpload for an upload address.',
  );

/** What the stack needs to know of a caller: whether they may use admin calls. */
export interface Caller {
  isAdmin: boolean;
}

/**
 * Resolves a bearer token to the stored caller, or undefined when the token, its session or its
 * user is not valid (then the call is a 401).
 */
export type Authenticate<User extends Caller> = (accessToken: string) => Promise<User | undefined>;

export interface ApiEvent<User extends Caller = Caller> extends APIGatewayProxyEventV2 {
  parsedBody?: unknown;
  /** The decoded body of a multipart call, for the handler to parse. */
  rawBody?: Buffer;
  user?: User;
}

export interface HandlerContext<Body, User extends Caller = Caller> {
  body: Body;
  /** The stored user, for calls that need a role; undefined on public calls. */
  user: User | undefined;
  event: ApiEvent<User>;
  sourceIp: string;
  setCookie(cookie: string): void;
  /** The invocation's Lambda context (its deadline), when the runtime gave one. */
  lambda?: Context;
}

type Request<C extends Call> = z.output<C['request']>;
/** What the handler answers: the output of the call's answer schema (shared/src/api/contract.ts). */
type Answer<C extends Call> = ResponseOf<C['name'] & keyof import('@portal/shared/api/contract').Contract>;
type Result = APIGatewayProxyStructuredResultV2;

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(
  statusCode: number,
  body: unknown,
  extra?: { cookies?: string[]; headers?: Record<string, string> },
): Result {
  return {
    statusCode,
    headers: { ...jsonHeaders, ...extra?.headers },
    body: JSON.stringify(body),
    ...(extra?.cookies?.length ? { cookies: extra.cookies } : {}),
  };
}

const normalizeHeaders: MiddlewareObj<ApiEvent, Result> = {
  before: ({ event }) => {
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
    event.headers = headers;
  },
};

function parseBody(call: Call): MiddlewareObj<ApiEvent, Result> {
  return {
    before: ({ event }) => {
      const raw = event.body ?? '';
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
      if (call.body === 'multipart') {
        if (bytes.length > MAX_MULTIPART_BYTES) throw uploadTooLarge(MAX_DIRECT_UPLOAD_BYTES);
        event.rawBody = bytes;
        return;
      }
      if (bytes.length > MAX_BODY_BYTES) throw badRequest('The request body is larger than 1 MB.');
      if (bytes.length === 0) {
        event.parsedBody = {};
        return;
      }
      const type = (event.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        throw badRequest('Send the request body as JSON, with the header Content-Type: application/json.');
      }
      try {
        event.parsedBody = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw badRequest('The request body is not valid JSON.');
      }
    },
  };
}

export const SESSION_EXPIRED = 'Your session has expired or is not valid. Log in again.';

function authenticate<User extends Caller>(
  call: Call,
  resolve: Authenticate<User>,
  callerIfPresent: boolean,
): MiddlewareObj<ApiEvent<User>, Result> {
  return {
    before: async ({ event }) => {
      const role = call.role;
      const header = event.headers.authorization ?? '';
      if (role === 'public') {
        // A public call that acts for a logged-in caller when there is one (verifyEmail's `send`):
        // a bearer token sent must be valid; none sent leaves `user` undefined for the handler to judge.
        if (!callerIfPresent || header === '') return;
      }
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw unauthorized('Log in to continue: this call needs an access token.');
      // Roles come from the stored user on every call, never from the token.
      const user = await resolve(match[1]!);
      if (!user) throw unauthorized(SESSION_EXPIRED);
      if (role === 'admin' && !user.isAdmin) throw forbidden('This is for administrators only.');
      event.user = user;
    },
  };
}

function validate(call: Call): MiddlewareObj<ApiEvent, Result> {
  return {
    before: ({ event }) => {
      // A multipart body (the upload) is read by its handler from `rawBody`.
      if (call.body !== 'json') return;
      const result = call.request.safeParse(event.parsedBody);
      if (result.success) {
        event.parsedBody = result.data;
        return;
      }
      throw badRequest(...describeIssues(result.error));
    },
  };
}

/**
 * Turns zod issues into a sentence naming each field, and a field -> message map for forms.
 * The map is built in a Map and turned into an object with own properties only: a field named
 * `__proto__` or `constructor` (a client may send any name) is named like any other.
 */
export function describeIssues(error: z.core.$ZodError): [string, Record<string, string>] {
  const fields = new Map<string, string>();
  const add = (field: string, message: string) => {
    if (!fields.has(field)) fields.set(field, message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), 'Unknown field: remove it.');
      continue;
    }
    const path = issue.path.map(String).join('.') || 'body';
    const message =
      issue.code === 'invalid_type' && issue.path.length === 0
        ? 'The request body must be a JSON object.'
        : issue.message;
    add(path, message);
  }
  const summary = [...fields].map(([field, message]) => `${field}: ${message}`).join('; ');
  return [`Invalid request. ${summary}`, Object.fromEntries(fields)];
}

export const RACE_LOST = 'Someone else changed this at the same time. Reload and try again.';
export const BUSY = 'The service is busy just now. Try again in a few seconds.';

/**
 * DynamoDB errors a handler did not translate itself: a write that lost a race is a 409 (a
 * cancelled transaction wrote nothing), throttling that outlasted the SDK's retries a 503 with
 * Retry-After. Handlers that expect a race keep their own words.
 */
function awsFault(error: unknown): DomainError | undefined {
  const kind = awsErrorKind(error);
  return kind === 'throttled' ? unavailable(BUSY) : kind === 'race' ? conflict(RACE_LOST) : undefined;
}

/**
 * The answer compressed as the request accepts it (compress.ts: JSON answers without cookies,
 * brotli or gzip from 1,000 bytes, base64 for API Gateway). Used first, so that it runs last: after
 * the handler's answer and after the error mapper's. A failure to compress (none is expected of
 * zlib on a string) sends the answer as it is, never an error.
 */
const compressAnswer: MiddlewareObj<ApiEvent, Result> = {
  after: compressResponse,
  onError: compressResponse,
};

async function compressResponse(request: { event: ApiEvent; response: Result | undefined | null }): Promise<void> {
  const response = request.response;
  if (!response) return;
  let acceptEncoding: string | undefined;
  for (const [name, value] of Object.entries(request.event.headers ?? {})) {
    if (name.toLowerCase() === 'accept-encoding') acceptEncoding = value;
  }
  try {
    request.response = await negotiateAnswer(response, acceptEncoding);
  } catch {
    // The answer goes as it is.
  }
}

/** The invocation's Lambda context, for the logger's lines (the logger itself loads on first use). */
const invocationContext: MiddlewareObj<ApiEvent, Result> = {
  before: ({ context }) => recordInvocation(context as Context | undefined),
};

const errorMapper: MiddlewareObj<ApiEvent, Result> = {
  onError: async (request) => {
    const error = request.error;
    const context = request.context as Context | undefined;
    const correlationId = context?.awsRequestId ?? 'unknown';
    // The shared logger holds the context of the invocation that started last: where invocations
    // overlap in one process (the local server, Lambda's concurrent runtime), this line would
    // carry another request's id. A child logger holds this invocation's context.
    const log = async () => {
      const child = (await loadLogger()).createChild();
      if (context) child.addContext(context);
      return child;
    };
    const fault = error instanceof DomainError ? undefined : awsFault(error);
    if (fault)
      (await log()).warn('AWS fault answered in words', { error, correlationId, status: statusOf[fault.kind] });
    const domain = error instanceof DomainError ? error : fault;
    if (domain) {
      const body: ErrorBody = {
        message: domain.message,
        ...(domain.fields ? { fields: domain.fields } : {}),
        ...domain.answer,
      };
      request.response = json(statusOf[domain.kind], body, { headers: domain.headers, cookies: domain.cookies });
      return;
    }
    (await log()).error('unexpected error', { error, correlationId });
    request.response = json(500, {
      message: `Something went wrong on our side. Try again; if it keeps failing, quote reference ${correlationId}.`,
      correlationId,
    } satisfies ErrorBody);
  },
};

/** A built /api handler, carrying its call's contract (the handler tests check its answers against it). */

/**
 * Makes the `apiHandler` function that every /api handler module uses, bound to how callers are
 * authenticated. Called once, by the composition module. A handler module is
 * `export const handler = apiHandler(markAsShipped, async ({ body }) => …)`, with the call's
 * contract module (shared/src/api/calls/): its role, body kind and request schema come from there.
 */
export function createApiHandler<User extends Caller>(resolveCaller: Authenticate<User>) {
  return function apiHandler<C extends Call>(
    call: C,
    decide: (context: HandlerContext<Request<C>, User>) => Promise<Answer<C>>,
    options: ApiHandlerOptions = {},
  ) {
    return middyStack(call, resolveCaller, decide, options.callerIfPresent ?? false, options.compress ?? true);
  };
}

/**
 * The `apiHandler` of public calls that never act for a caller (Stripe's webhook, the customer's
 * shop and checkout): it has no authenticator, so the token code (jose) and the session and user
 * stores stay out of those bundles, which carry the Stripe SDK and have a size budget. Building a
 * non-public call with it fails at cold start.
 */
export function createPublicApiHandler(options: Pick<ApiHandlerOptions, 'compress'> = {}) {
  const noCaller: Authenticate<never> = () => Promise.resolve(undefined);
  return function publicApiHandler<C extends Call>(
    call: C,
    decide: (context: HandlerContext<Request<C>, never>) => Promise<Answer<C>>,
  ) {
    if (call.role !== 'public') throw new Error(`${call.name}: ${call.role} calls need apiHandler`);
    return middyStack(call, noCaller, decide, false, options.compress ?? true);
  };
}

interface ApiHandlerOptions {
  /**
   * For a public call: authenticate the caller when a bearer token is sent (a bad one is a 401),
   * so the handler sees `user`; without a token `user` stays undefined.
   */
  callerIfPresent?: boolean;
  /**
   * Whether answers are compressed as the request accepts (compress.ts); true unless said. False for
   * Stripe's webhooks: their answers are for Stripe's delivery log, never a browser.
   */
  compress?: boolean;
}

function middyStack<C extends Call, User extends Caller>(
  call: C,
  resolveCaller: Authenticate<User>,
  decide: (context: HandlerContext<Request<C>, User>) => Promise<Answer<C>>,
  callerIfPresent: boolean,
  compress: boolean,
) {
  const base = async (event: ApiEvent<User>, lambda?: Context): Promise<Result> => {
    const cookies: string[] = [];
    const body = await decide({
      body: event.parsedBody as Request<C>,
      user: event.user,
      event,
      sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
      setCookie: (cookie) => cookies.push(cookie),
      lambda,
    });
    return json(200, body, { cookies });
  };
  const handler = middy<ApiEvent<User>, Result>(base);
  if (compress) handler.use(compressAnswer);
  handler
    .use(errorMapper)
    // Never the event: bodies hold passwords and tax IDs (POWERTOOLS_LOGGER_LOG_EVENT cannot turn it on).
    .use(invocationContext)
    .use(normalizeHeaders)
    .use(parseBody(call))
    .use(authenticate(call, resolveCaller, callerIfPresent))
    .use(validate(call));
  // Typed as any call: the handlers of two calls stay interchangeable where a caller takes either.
  return Object.assign(handler, { contract: call as Call });
}
