import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { lambdaContext, toApiEvent, type ApiHandler } from '../../infra/local/api-event';
import { LAMBDA_WRITABLE, withReadOnlyFileSystem } from '../../infra/local/read-only-fs';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { contract, type Call, type EndpointName } from '../../shared/src/api/contract';
import { ErrorBody } from '../../shared/src/api/schemas';
import { runAs } from './function-environment';
import type * as z from '../../shared/src/api/zod';

export interface CallOptions {
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  contentType?: string | null;
  headers?: Record<string, string>;
  cookies?: string[];
  sourceIp?: string;
  path?: string;
  /** The invocation's Lambda deadline from now, in ms (60 s unless a test needs a short one). */
  deadlineMs?: number;
}

export interface CallResult {
  status: number;
  body: Record<string, unknown>;
  cookies: string[];
  headers: Record<string, string>;
  /** The answer's body in bytes as sent to the browser (compressed when it was). */
  wireBytes: number;
}

/**
 * The answer schema of the call a handler was built for (`apiHandler(<contract module>, …)` puts
 * the module on the handler): a 2xx answer must match it, any other answer the error body.
 */
function answerSchemaOf(handler: ApiHandler, status: number): z.ZodMiniType {
  const own = (handler as ApiHandler & { contract?: Call }).contract;
  if (!own || !(own.name in contract)) {
    throw new Error('call() invokes /api handlers built by apiHandler with a contract module of shared/src/api/calls');
  }
  return status >= 200 && status <= 299 ? contract[own.name as EndpointName].response : ErrorBody;
}

/** An answer that does not match its call's contract fails the test that made the call, naming each difference. */
function checkAnswer(handler: ApiHandler, status: number, body: unknown): void {
  const checked = answerSchemaOf(handler, status).safeParse(body);
  if (checked.success) return;
  const own = (handler as ApiHandler & { contract: Call }).contract;
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
  throw new Error(
    `${own.path} answered ${status} with a body its contract (shared/src/api/calls) does not describe: ${issues.join('; ')}`,
  );
}

/**
 * Invokes a handler with the API Gateway v2 event the HTTP API would send, and checks its answer
 * against the call's answer schema (or the error body), so no answer can drift from its contract.
 */
export async function call(handler: ApiHandler, options: CallOptions = {}): Promise<CallResult> {
  const raw = options.rawBody ?? (options.body === undefined ? '' : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.cookies?.length) headers.cookie = options.cookies.join('; ');
  const event = toApiEvent({
    method: 'POST',
    path: options.path ?? '/api/test',
    headers,
    body: Buffer.isBuffer(raw) ? raw : Buffer.from(raw),
    // Each call comes from its own address unless the test names one: limits per address are
    // tested where they are meant to be, and do not leak between tests.
    sourceIp: options.sourceIp ?? uniqueIp(),
  });
  // Lambda runs each invocation on its own instance; here parallel calls share two cores and
  // libuv's four threads (two dozen scrypt hashes queue up for ~10 s), so the deadline is generous.
  // The file system is read-only outside /tmp, as in Lambda (setup.ts installs the guard; the outbox is under /tmp),
  // its AWS calls are held to the route's function's synthesized role, and it sees that function's
  // environment only (function-environment.ts).
  const functionName = (handler as ApiHandler & { contract?: Call }).contract?.name;
  const result = (await runAs(functionName, () =>
    withReadOnlyFileSystem(LAMBDA_WRITABLE, () => handler(event, lambdaContext('test', options.deadlineMs ?? 60_000))),
  )) as APIGatewayProxyStructuredResultV2;
  const status = result.statusCode ?? 200;
  const text = answerText(result);
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  checkAnswer(handler, status, body);
  return {
    status,
    body,
    cookies: result.cookies ?? [],
    headers: (result.headers ?? {}) as Record<string, string>,
    wireBytes: result.isBase64Encoded
      ? Buffer.from(result.body ?? '', 'base64').length
      : Buffer.byteLength(result.body ?? ''),
  };
}

/**
 * The answer's body as a browser reads it: a compressed answer (sent when the test's request
 * accepts it: functions/src/http/compress.ts) decoded from base64 and decompressed by its
 * Content-Encoding, as API Gateway and the browser do.
 */
function answerText(result: APIGatewayProxyStructuredResultV2): string {
  const raw = result.body ?? '';
  if (!result.isBase64Encoded) return raw;
  const bytes = Buffer.from(raw, 'base64');
  const encoding = (result.headers ?? {})['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

/**
 * Runs an event function's invocation (the import's S3 event, a picture batch, the daily payouts, the table upgrade)
 * as that function of the route table (functions/src/routes.ts `eventFunctions`): its AWS calls are
 * held to its synthesized role and it sees its own environment, as `call` holds an /api handler to its route's.
 */
export const asFunction = <T>(
  name:
    | 'importProducts'
    | 'continueImport'
    | 'hostPictures'
    | 'cancelCheckouts'
    | 'dailyPayouts'
    | 'upgradeTable'
    | 'refreshPlaces',
  run: () => Promise<T>,
) => runAs(name, run);

/** The refresh token a response set as a cookie, as the browser would send it back. */
export function cookieFrom(result: CallResult): string {
  const set = result.cookies.find((c) => c.startsWith('refresh_token='));
  if (!set) throw new Error('no refresh_token cookie was set');
  return set.split(';')[0]!;
}

/** Every item in this file's table: to prove a rejected request wrote nothing. */
export async function allItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

let counter = 0;
export const uniqueEmail = (prefix = 'member') => `${prefix}-${Date.now()}-${counter++}@example.com`;
/** An address no other call of this file used (198.18.0.0/15 is reserved for tests). */
export const uniqueIp = () => {
  const n = counter++;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
};

/**
 * A signed-in account's access token. The login handler and the account store are imported on
 * first use, so a file that sets the logger's level before loading the functions still can.
 */
export async function tokenFor(isAdmin: boolean): Promise<string> {
  const { ensureAccount } = await import('../../infra/local/accounts');
  const { handler: login } = await import('../../functions/src/handlers/login');
  const email = uniqueEmail(isAdmin ? 'admin' : 'member');
  const password = 'a long enough password';
  await ensureAccount(email, password, isAdmin);
  const result = await call(login, { body: { email, password }, sourceIp: uniqueIp() });
  return String(result.body.access_token);
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A valid payout account form (the createPayoutAccount body) for a member's account at the emulator. */
export { payoutAccountForm } from '../fixtures/payout-account';
