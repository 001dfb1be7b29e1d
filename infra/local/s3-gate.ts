import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The local S3 server's front door. s3rver checks no SigV4 signature and no POST policy, takes
 * anonymous writes and stores a key such as `../x` outside its folder, so the portal and the SDK
 * never talk to it directly: they talk to this gate, which checks every request as S3 does and
 * forwards only those that pass to s3rver on an internal loopback port (which refuses anything
 * that does not carry the gate's per-start token, see gateOnly).
 *
 * - Requests signed with an `AWS4-HMAC-SHA256` Authorization header: credential scope (the local
 *   access key, region, `s3`), the date (15 minutes of skew), the signature over the canonical
 *   request, and the payload's SHA-256 when it is signed.
 * - Browser POST uploads (the presigned POST of /api/createProductUpload): the policy's signature,
 *   its expiration, every condition (exact and starts-with matches, the bucket,
 *   content-length-range), and that every form field is covered by a condition.
 * - Anything else (anonymous requests, Signature Version 2, presigned URLs) is refused.
 * - No key may leave the data folder: `.`/`..` segments, a leading `/`, backslashes and NUL are
 *   refused whatever the signature.
 * Refusals are S3's XML errors (AccessDenied, SignatureDoesNotMatch, EntityTooLarge, ...).
 * Bodies are spooled into `spoolDir` (inside the data folder) while they are checked, and removed.
 */

export interface S3GateOptions {
  upstream: { host: string; port: number };
  /** Sent to s3rver with every forwarded request; s3rver refuses requests without it. */
  token: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  region: string;
  /** Where request bodies wait while they are checked: a folder inside the data folder. */
  spoolDir: string;
  /** The largest request body taken at all (S3's own limits are larger). */
  maxBodyBytes?: number;
  now?: () => Date;
  /**
   * A browser's POST upload, its policy valid, is authorized as S3 authorizes it: as the identity
   * that signed the policy. Locally a function signs with the data folder's key and a session token
   * naming it (function-env.ts `localSessionToken`); this answers S3's AccessDenied words for a
   * signer whose role may not `s3:PutObject` the key, or nothing. Absent: every signed upload passes.
   */
  authorizeUpload?: (sessionToken: string | undefined, bucket: string, key: string) => Promise<string | undefined>;
}

const GATE_TOKEN_HEADER = 'x-portal-s3-gate';
const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;
const MAX_SKEW_MS = 15 * 60 * 1000;

const STATUS: Record<string, number> = {
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
  InvalidAccessKeyId: 403,
  RequestTimeTooSkewed: 403,
  AuthorizationHeaderMalformed: 400,
  EntityTooLarge: 400,
  EntityTooSmall: 400,
  IncorrectNumberOfFilesInPostRequest: 400,
  InvalidArgument: 400,
  InvalidBucketName: 400,
  InvalidPolicyDocument: 400,
  InvalidRequest: 400,
  InvalidURI: 400,
  MalformedPOSTRequest: 400,
  XAmzContentSHA256Mismatch: 400,
  NotImplemented: 501,
};

/** A request S3 would refuse, with S3's error code. */
class S3Refusal extends Error {
  constructor(
    readonly code: keyof typeof STATUS,
    message: string,
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code] ?? 400;
  }
}

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function errorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message><RequestId>${randomBytes(8).toString('hex')}</RequestId></Error>`;
}

/** Why a key would leave the data folder, or undefined for a key that stays inside it. */
function unsafeKeyReason(key: string): string | undefined {
  if (key.startsWith('/')) return 'starts with "/"';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.includes('\0')) return 'contains a NUL character';
  if (/^[A-Za-z]:/.test(key)) return 'starts with a drive letter';
  if (key.split('/').some((segment) => segment === '..' || segment === '.')) return 'has a "." or ".." segment';
  return undefined;
}

function assertSafeKey(key: string): void {
  const reason = unsafeKeyReason(key);
  if (reason) {
    throw new S3Refusal(
      'InvalidArgument',
      `The object key ${JSON.stringify(key)} ${reason}: the local S3 server refuses keys that could leave its data folder.`,
    );
  }
}

/** S3's bucket naming rules (which also keep a bucket name from being a path). */
function assertSafeBucket(bucket: string): void {
  if (bucket === '') return;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new S3Refusal('InvalidBucketName', `The specified bucket is not valid: ${JSON.stringify(bucket)}.`);
  }
}

// ---- SigV4 ---------------------------------------------------------------------------------

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

const sameHex = (a: string, b: string) =>
  /^[0-9a-f]+$/i.test(a) && a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  return rawQuery
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      const name = at < 0 ? part : part.slice(0, at);
      const value = at < 0 ? '' : part.slice(at + 1);
      return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(value))] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** yyyyMMdd'T'HHmmss'Z' to a Date, or undefined. */
function parseAmzDate(text: string | undefined): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

interface Scope {
  date: string;
  region: string;
  service: string;
}

function checkCredential(
  credential: string,
  options: Pick<S3GateOptions, 'credentials' | 'region'>,
  malformed: keyof typeof STATUS,
): Scope {
  const [accessKeyId, date, region, service, terminator, ...rest] = credential.split('/');
  if (!accessKeyId || !date || !region || !service || terminator !== 'aws4_request' || rest.length) {
    throw new S3Refusal(malformed, `The credential ${JSON.stringify(credential)} is malformed.`);
  }
  if (accessKeyId !== options.credentials.accessKeyId) {
    throw new S3Refusal('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  if (region !== options.region) {
    throw new S3Refusal(malformed, `The region '${region}' is wrong; expecting '${options.region}'.`);
  }
  if (service !== 's3') throw new S3Refusal(malformed, `The service '${service}' is wrong; expecting 's3'.`);
  return { date, region, service };
}

/** Refuses as S3 does unless `signature` signs `stringToSign` (a request's, or a POST policy) in `scope`. */
function checkSignature(signature: string, stringToSign: string, scope: Scope, secret: string): void {
  const expected = createHmac('sha256', signingKey(secret, scope.date, scope.region, scope.service))
    .update(stringToSign)
    .digest('hex');
  if (!sameHex(signature, expected)) {
    throw new S3Refusal(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
}

/** What a header-signed request must still prove once its body is in: the payload's hash, when signed. */
type PayloadCheck = { sha256: string } | 'unsigned';

/** Checks an `Authorization: AWS4-HMAC-SHA256 ...` request; throws an S3Refusal when S3 would refuse it. */
function verifyHeaderSignature(
  request: { method: string; url: string; headers: IncomingHttpHeaders },
  options: Pick<S3GateOptions, 'credentials' | 'region'>,
  now: Date,
): PayloadCheck {
  const authorization = headerValue(request.headers, 'authorization') ?? '';
  const match = /^AWS4-HMAC-SHA256 (.*)$/.exec(authorization);
  if (!match) throw new S3Refusal('AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const parts = new Map(
    match[1]!.split(/,\s*/).map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const credential = parts.get('Credential');
  const signedHeaders = parts.get('SignedHeaders');
  const signature = parts.get('Signature');
  if (!credential || !signedHeaders || !signature) {
    throw new S3Refusal(
      'AuthorizationHeaderMalformed',
      'The authorization header is malformed; it requires Credential, SignedHeaders and Signature.',
    );
  }
  const scope = checkCredential(credential, options, 'AuthorizationHeaderMalformed');
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const date = parseAmzDate(amzDate);
  if (!date) throw new S3Refusal('AccessDenied', 'AWS authentication requires a valid x-amz-date header.');
  if (amzDate!.slice(0, 8) !== scope.date) {
    throw new S3Refusal('SignatureDoesNotMatch', "The credential's date does not match the x-amz-date header.");
  }
  if (Math.abs(now.getTime() - date.getTime()) > MAX_SKEW_MS) {
    throw new S3Refusal(
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  }
  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (!payloadHash) {
    throw new S3Refusal('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256.');
  }
  const names = signedHeaders.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!names.includes(required)) {
      throw new S3Refusal('AccessDenied', `The header ${required} must be signed (SignedHeaders lacks it).`);
    }
  }
  const at = request.url.indexOf('?');
  const path = at < 0 ? request.url : request.url.slice(0, at);
  const query = at < 0 ? '' : request.url.slice(at + 1);
  const canonicalHeaders = names
    .map((name) => `${name}:${(headerValue(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery(query),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  checkSignature(signature, stringToSign, scope, options.credentials.secretAccessKey);
  if (/^[0-9a-f]{64}$/i.test(payloadHash)) return { sha256: payloadHash.toLowerCase() };
  if (payloadHash === 'UNSIGNED-PAYLOAD') return 'unsigned';
  throw new S3Refusal(
    'NotImplemented',
    `The local S3 server does not take x-amz-content-sha256: ${payloadHash} (chunked uploads); send the payload's SHA-256.`,
  );
}

// ---- POST policy ---------------------------------------------------------------------------

/** The fields of a browser POST upload (names lower-cased, in order, those before the file) and its file. */
interface PostForm {
  fields: Map<string, string>;
  file: { name: string; size: number } | undefined;
}

type Condition = Record<string, unknown> | unknown[];

/**
 * Checks a browser POST upload against its policy as S3 does; answers the object key it stores.
 * `bucket` is the bucket of the request's URL.
 */
function verifyPostPolicy(
  form: PostForm,
  bucket: string,
  options: Pick<S3GateOptions, 'credentials' | 'region'>,
  now: Date,
): string {
  const { fields, file } = form;
  const policy = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  if (!policy || !signature) {
    throw new S3Refusal(
      'AccessDenied',
      'Anonymous uploads are refused: a POST upload needs a policy and its signature (x-amz-signature).',
    );
  }
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') {
    throw new S3Refusal('InvalidArgument', 'x-amz-algorithm must be AWS4-HMAC-SHA256.');
  }
  const scope = checkCredential(fields.get('x-amz-credential') ?? '', options, 'InvalidArgument');
  checkSignature(signature, policy, scope, options.credentials.secretAccessKey);
  let document: { expiration?: unknown; conditions?: unknown };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof document;
  } catch {
    throw new S3Refusal('InvalidPolicyDocument', 'Invalid Policy: the policy is not base64-encoded JSON.');
  }
  const expiration = typeof document.expiration === 'string' ? Date.parse(document.expiration) : NaN;
  if (Number.isNaN(expiration)) throw new S3Refusal('InvalidPolicyDocument', 'Invalid Policy: no valid expiration.');
  if (now.getTime() >= expiration) throw new S3Refusal('AccessDenied', 'Invalid according to Policy: Policy expired.');
  if (!Array.isArray(document.conditions)) {
    throw new S3Refusal('InvalidPolicyDocument', 'Invalid Policy: conditions must be a list.');
  }
  if (!file) {
    throw new S3Refusal('IncorrectNumberOfFilesInPostRequest', 'POST requires exactly one file upload per request.');
  }
  const rawKey = fields.get('key');
  if (rawKey === undefined || rawKey === '') {
    throw new S3Refusal('InvalidArgument', "Bucket POST must contain a field named 'key'.");
  }
  const valueOf = (name: string) => (name === 'bucket' ? bucket : (fields.get(name) ?? ''));
  const covered = new Set<string>();
  const fieldName = (reference: unknown, condition: unknown) => {
    if (typeof reference !== 'string' || !reference.startsWith('$')) {
      throw new S3Refusal('InvalidPolicyDocument', `Invalid Policy: bad condition ${JSON.stringify(condition)}.`);
    }
    return reference.slice(1).toLowerCase();
  };
  const failed = (condition: unknown) =>
    new S3Refusal('AccessDenied', `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
  let range: [number, number] | undefined;
  for (const condition of document.conditions as Condition[]) {
    if (Array.isArray(condition)) {
      const [operator, reference, value] = condition;
      if (operator === 'content-length-range') {
        if (typeof reference !== 'number' || typeof value !== 'number') {
          throw new S3Refusal('InvalidPolicyDocument', `Invalid Policy: bad condition ${JSON.stringify(condition)}.`);
        }
        range = [reference, value];
        continue;
      }
      const name = fieldName(reference, condition);
      if (typeof value !== 'string') {
        throw new S3Refusal('InvalidPolicyDocument', `Invalid Policy: bad condition ${JSON.stringify(condition)}.`);
      }
      covered.add(name);
      if (operator === 'eq') {
        if (valueOf(name) !== value) throw failed(condition);
      } else if (operator === 'starts-with') {
        if (!valueOf(name).startsWith(value)) throw failed(condition);
      } else {
        throw new S3Refusal('InvalidPolicyDocument', `Invalid Policy: unknown condition ${JSON.stringify(condition)}.`);
      }
    } else if (condition && typeof condition === 'object') {
      for (const [name, value] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if (valueOf(name.toLowerCase()) !== value) throw failed(condition);
      }
    } else {
      throw new S3Refusal('InvalidPolicyDocument', `Invalid Policy: bad condition ${JSON.stringify(condition)}.`);
    }
  }
  for (const name of fields.keys()) {
    if (name === 'policy' || name === 'x-amz-signature' || name.startsWith('x-ignore-')) continue;
    if (!covered.has(name)) {
      throw new S3Refusal('AccessDenied', `Invalid according to Policy: Extra input fields: ${name}`);
    }
  }
  if (range && file.size > range[1]) {
    throw new S3Refusal('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
  }
  if (range && file.size < range[0]) {
    throw new S3Refusal('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size.');
  }
  const key = rawKey.replace('${filename}', file.name);
  assertSafeKey(key);
  return key;
}

/** The fields and file of a multipart/form-data body held in a file; fields after the file are ignored, as S3 does. */
async function readPostForm(file: string, contentType: string): Promise<PostForm> {
  let form: FormData;
  try {
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new S3Refusal(
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data.',
    );
  }
  const fields = new Map<string, string>();
  let upload: PostForm['file'];
  for (const [name, value] of form.entries()) {
    const lower = name.toLowerCase();
    if (lower === 'file') {
      if (typeof value === 'string') {
        upload = { name: '', size: Buffer.byteLength(value) };
      } else {
        upload = { name: value.name, size: value.size };
      }
      break;
    }
    if (typeof value !== 'string') continue;
    if (fields.has(lower)) throw new S3Refusal('InvalidArgument', `The field ${name} is given more than once.`);
    fields.set(lower, value);
  }
  return { fields, file: upload };
}

// ---- The gate ------------------------------------------------------------------------------

/** Koa middleware for s3rver: only requests forwarded by the gate (with its token) get through. */
export function gateOnly(token: string) {
  return async (
    ctx: { get(name: string): string; status: number; type: string; body: unknown },
    next: () => Promise<unknown>,
  ) => {
    const given = Buffer.from(ctx.get(GATE_TOKEN_HEADER));
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = errorXml('AccessDenied', 'Access Denied: use the S3 endpoint the portal prints, not this port.');
      return;
    }
    await next();
  };
}

export function createS3Gate(options: S3GateOptions): Server {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const now = () => (options.now ?? (() => new Date()))();
  mkdirSync(options.spoolDir, { recursive: true, mode: 0o700 });

  /** The body into a spool file (removed by the caller), with its SHA-256; refuses one over maxBody. */
  async function spool(request: IncomingMessage): Promise<{ file: string; sha256: string; size: number }> {
    const file = join(options.spoolDir, `${randomBytes(12).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBody) {
          callback(
            new S3Refusal(
              'EntityTooLarge',
              `Your proposed upload exceeds the maximum the local S3 server takes (${maxBody} bytes).`,
            ),
          );
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(request, counter, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      rmSync(file, { force: true });
      throw error;
    }
    return { file, sha256: hash.digest('hex'), size };
  }

  function refuse(request: IncomingMessage, response: ServerResponse, refusal: S3Refusal) {
    if (response.headersSent) return void response.destroy();
    const headers: Record<string, string> = {
      'content-type': 'application/xml',
      'x-amz-error-code': refusal.code,
    };
    // The local bucket's CORS rule allows any origin: a browser must be able to read the refusal.
    if (request.headers.origin) headers['access-control-allow-origin'] = '*';
    // A body that was not read (an early refusal) must not be left on the connection.
    if (!request.complete) headers.connection = 'close';
    response.writeHead(refusal.status, headers);
    response.end(request.method === 'HEAD' ? undefined : errorXml(refusal.code, refusal.message));
  }

  function forward(request: IncomingMessage, response: ServerResponse, body?: { file: string; size: number }) {
    return new Promise<void>((resolve, reject) => {
      const headers: IncomingHttpHeaders = { ...request.headers, [GATE_TOKEN_HEADER]: options.token };
      if (body) {
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.size);
      }
      const upstream = httpRequest(
        { ...options.upstream, method: request.method, path: request.url, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          pipeline(answer, response).then(resolve, reject);
        },
      );
      upstream.on('error', reject);
      if (body) pipeline(createReadStream(body.file), upstream).catch(reject);
      else if (request.complete) upstream.end();
      else pipeline(request, upstream).catch(reject);
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const at = url.indexOf('?');
    const rawPath = at < 0 ? url : url.slice(0, at);
    const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
    let segments: string[];
    try {
      segments = rawPath.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw new S3Refusal('InvalidURI', "Couldn't parse the specified URI.");
    }
    const bucket = segments[0] ?? '';
    const key = segments.slice(1).join('/');
    assertSafeBucket(bucket);
    if (key) assertSafeKey(key);
    // Other ways a request names a place on disk: a listing's prefix, a copy's source.
    const prefix = query.get('prefix');
    if (prefix) assertSafeKey(prefix);
    const copySource = headerValue(request.headers, 'x-amz-copy-source');
    if (copySource) {
      let source: string;
      try {
        source = decodeURIComponent(copySource.replace(/^\//, '').split('?')[0]!);
      } catch {
        throw new S3Refusal('InvalidArgument', 'x-amz-copy-source is not a valid encoded bucket/key.');
      }
      const [sourceBucket = '', ...sourceKey] = source.split('/');
      assertSafeBucket(sourceBucket);
      assertSafeKey(sourceKey.join('/'));
    }

    // CORS preflight carries no credentials, in S3 as here; s3rver answers it from the bucket's rule.
    if (method === 'OPTIONS') return forward(request, response);

    const contentType = headerValue(request.headers, 'content-type') ?? '';
    const authorization = headerValue(request.headers, 'authorization');
    const isBrowserPost =
      method === 'POST' && !key && !authorization && /^multipart\/form-data/i.test(contentType) && !url.includes('?');
    if (isBrowserPost) {
      const declared = Number(headerValue(request.headers, 'content-length') ?? 0);
      if (declared > maxBody) {
        throw new S3Refusal(
          'EntityTooLarge',
          `Your proposed upload exceeds the maximum the local S3 server takes (${maxBody} bytes).`,
        );
      }
      const body = await spool(request);
      try {
        const form = await readPostForm(body.file, contentType);
        const key = verifyPostPolicy(form, bucket, options, now());
        // S3 authorizes the upload as whoever signed the policy: the function's role (its session token names it).
        const denied = await options.authorizeUpload?.(form.fields.get('x-amz-security-token'), bucket, key);
        if (denied) throw new S3Refusal('AccessDenied', denied);
        return await forward(request, response, body);
      } finally {
        rmSync(body.file, { force: true });
      }
    }
    if (query.has('X-Amz-Algorithm') || query.has('Signature')) {
      throw new S3Refusal(
        'AccessDenied',
        'Presigned URLs (query-string authentication) are not accepted by the local S3 server; sign the request with an Authorization header.',
      );
    }
    if (!authorization) {
      throw new S3Refusal('AccessDenied', 'Access Denied: anonymous requests are refused; sign the request (SigV4).');
    }
    if (!authorization.startsWith('AWS4-HMAC-SHA256 ')) {
      throw new S3Refusal('AccessDenied', 'Only Signature Version 4 (AWS4-HMAC-SHA256) is accepted.');
    }
    const payload = verifyHeaderSignature({ method, url, headers: request.headers }, options, now());
    if (method === 'GET' || method === 'HEAD') return forward(request, response);
    const body = await spool(request);
    try {
      if (payload !== 'unsigned' && payload.sha256 !== body.sha256) {
        throw new S3Refusal(
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
      }
      return await forward(request, response, body);
    } finally {
      rmSync(body.file, { force: true });
    }
  }

  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof S3Refusal) {
        // Read and drop what is left of the body, so the client reads the refusal rather than a reset.
        if (!request.complete) request.resume();
        refuse(request, response, error);
      } else if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/xml' });
        response.end(errorXml('InternalError', error instanceof Error ? error.message : String(error)));
      } else {
        response.destroy();
      }
    });
  });
}
