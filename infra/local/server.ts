import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { toApiEvent, type ApiHandler } from './api-event';
import { invokeFunction, type InvokedFunction, type Outcome as InvocationOutcome } from './invoker';
import { securityHeaders } from '../lib/security-headers';
import { DEMO_IMAGE_NAME } from './demo-images';
import { STRIPE_EMULATOR_BASE } from '@portal/shared/api/payment-config';
import { chooseEncoding, CompressedFiles, isCompressible } from './compression';

/**
 * The local stand-in for CloudFront + API Gateway: one origin where `/api/*` goes to the
 * handler modules of the route table through the API Gateway event adapter, `/admin/*` to
 * the admin app and everything else to the member app (both with single-page fallback).
 */

/** API Gateway's own payload limit (HTTP API: 10 MB); the handlers enforce their tighter limits themselves. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** Lambda's synchronous invocation payload: the event as JSON (a binary body base64) may be 6 MB. */
export const LAMBDA_MAX_REQUEST_BYTES = 6 * 1024 * 1024;
/** Lambda's synchronous response payload: the handler's result as JSON, the figure Lambda's error names. */
export const LAMBDA_MAX_RESPONSE_BYTES = 6_291_556;
/** The HTTP API's integration timeout: past it the caller gets 503, whatever the function's own timeout. */
export const HTTP_API_INTEGRATION_TIMEOUT_MS = 30_000;

/** What the HTTP API answers when the Lambda invocation fails (function error, timeout, payload refused). */
const INTERNAL_SERVER_ERROR = { message: 'Internal Server Error' };

/**
 * One API function as the server runs it: its route (from the template's AWS::ApiGatewayV2::Route,
 * template.ts), its handler module, and its memory, timeout and environment. A route of the route
 * table fits too (tests that build a server by hand; no environment of its own then).
 */
export interface ApiFunction extends InvokedFunction {
  path: string;
  /** The route's method; POST unless the template says otherwise. */
  method?: string;
  module: string;
}

export interface ServerOptions {
  routes: readonly ApiFunction[];
  loadHandler: (route: ApiFunction) => Promise<ApiHandler>;
  memberDist: string;
  adminDist: string;
  /** The demo catalogue's pictures, served at /demo-images/<name>.svg (demo-catalogue.ts). */
  demoImagesDir?: string;
  /**
   * The hosted pictures (issue 28): `/images/<sha256>/<file>` is the images bucket's key
   * `images/<sha256>/<file>`, read from the local S3 server, as CloudFront's `/images/*` behaviour
   * reads the bucket. undefined when the object does not exist.
   */
  readHostedImage?: (key: string) => Promise<HostedImage | undefined>;
  /**
   * Origins the browser may send files to besides the portal (the local S3 endpoint, for the
   * presigned POST): the CSP's connect-src lists them, as the stack's lists the S3 endpoints.
   */
  uploadOrigins?: readonly string[];
  /**
   * The local Stripe emulator: `POST /stripe-emulator/v1/tokens`, `POST …/v1/payment_methods` and
   * `POST /stripe-emulator/v1/payment_intents/<id>/confirm` are forwarded to it (what Stripe.js
   * would send to api.stripe.com), nothing else under that prefix. Absent: the prefix is 404.
   */
  stripeEmulatorUrl?: string;
  log?: (line: string) => void;
  /**
   * Compress the built apps in the background as the server starts (default), so the first
   * page load finds them compressed; false leaves it to each file's first request.
   */
  precompress?: boolean;
  /** Log every request (LOG_LEVEL=debug); otherwise only failures and slow requests. */
  logEveryRequest?: boolean;
  /** The HTTP API's integration timeout (HTTP_API_INTEGRATION_TIMEOUT_MS); only tests shorten it. */
  integrationTimeoutMs?: number;
}

/** One object of the images bucket, as the local server sends it. */
export interface HostedImage {
  body: Uint8Array;
  contentType: string;
  /** The object's ETag and time, as S3 gives them (CloudFront passes both on, and answers conditional requests by them). */
  etag?: string;
  lastModified?: Date;
}

/** The only paths `/images/*` answers: a content hash and a variant (or the original). */
const HOSTED_IMAGE_PATH = /^\/images\/[0-9a-f]{64}\/(?:\d{1,5}\.webp|original)$/;

/** A request slower than this is logged even when not every request is. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Which requests the local server prints: all of them at LOG_LEVEL=debug, otherwise only those
 * that failed on the server's side (5xx) or took longer than SLOW_REQUEST_MS, so the terminal
 * shows what needs attention rather than a line per click.
 */
export function shouldLogRequest(status: number, durationMs: number, everyRequest = false): boolean {
  return everyRequest || status >= 500 || durationMs > SLOW_REQUEST_MS;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** The browser's Stripe calls the local server forwards to the emulator, and nothing else. */
const EMULATOR_CALLS = [/^\/v1\/tokens$/, /^\/v1\/payment_methods$/, /^\/v1\/payment_intents\/[A-Za-z0-9_]+\/confirm$/];

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text);
}

/** A file into a response; a read error (the file went away meanwhile) ends the response, never the process. */
function pipeFile(file: string, response: ServerResponse): void {
  const stream = createReadStream(file);
  stream.on('error', () => response.destroy());
  stream.pipe(response);
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolvePromise(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function createPortalServer(options: ServerOptions): Server {
  const byPath = new Map(options.routes.map((route) => [route.path, route]));
  const handlers = new Map<string, Promise<ApiHandler>>();
  const log = options.log ?? (() => undefined);
  // What CloudFront's response headers policy adds to every answer, apps and API alike.
  const policyHeaders = securityHeaders(options.uploadOrigins ?? []);
  // Text files go out compressed as CloudFront sends them (compression.ts).
  const compressed = new CompressedFiles();
  if (options.precompress !== false) void compressed.warm([options.memberDist, options.adminDist]);

  async function api(request: IncomingMessage, response: ServerResponse, path: string, query: string) {
    const route = byPath.get(path);
    if (!route || request.method !== (route.method ?? 'POST')) {
      // The HTTP API only has `POST <path>` routes; anything else is not found there either.
      sendJson(response, 404, { message: `There is no API call ${request.method} ${path}.` });
      return;
    }
    const body = await readBody(request);
    if (body === 'too-large') {
      sendJson(response, 413, { message: 'Request Entity Too Large' });
      return;
    }
    let handler = handlers.get(route.path);
    if (!handler) {
      handler = options.loadHandler(route);
      handlers.set(route.path, handler);
    }
    const event = toApiEvent({
      method: request.method,
      path,
      query,
      headers: request.headers,
      body,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    });
    const loaded = await handler;
    const eventBytes = Buffer.byteLength(JSON.stringify(event));
    if (eventBytes > LAMBDA_MAX_REQUEST_BYTES) {
      // Lambda refuses the invocation (RequestTooLargeException); the function never runs.
      log(
        `${request.method} ${path} 500: Lambda refused the request: its event is ${eventBytes} bytes, over the ${LAMBDA_MAX_REQUEST_BYTES} bytes of a synchronous invocation.`,
      );
      sendJson(response, 500, INTERNAL_SERVER_ERROR);
      return;
    }
    const invocation = await invoke(route, loaded, event);
    const { outcome } = invocation;
    let status: number;
    if (outcome.kind === 'result') {
      const result = outcome.result;
      // The policy's headers override the function's (override: true in the stack); never cached.
      const headers: Record<string, string | string[]> = {
        'cache-control': 'no-store',
        ...(result.headers as Record<string, string>),
        ...policyHeaders,
      };
      if (result.cookies?.length) headers['set-cookie'] = result.cookies;
      status = result.statusCode ?? 200;
      response.writeHead(status, headers);
      response.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
    } else if (outcome.kind === 'caller-timeout') {
      status = 503;
      sendJson(response, status, { message: 'Service Unavailable' });
    } else {
      status = 500;
      sendJson(response, status, INTERNAL_SERVER_ERROR);
    }
    const duration = Math.round(invocation.durationMs);
    if (shouldLogRequest(status, duration, options.logEveryRequest)) {
      log(`${request.method} ${path} ${status} ${duration}ms${duration > SLOW_REQUEST_MS ? ' (slow)' : ''}`);
      for (const line of invocation.lines) log(line);
    }
  }

  /**
   * One Lambda invocation as the HTTP API makes it (invoker.ts): the handler runs with its
   * function's timeout (the HTTP API waits at most its 30 s integration timeout), memory size and
   * environment, the file system read-only outside /tmp; an answer over 6 MB is an error, as
   * Lambda's runtime refuses to post it. `lines` are Lambda's log lines, REPORT last.
   */
  async function invoke(route: ApiFunction, handler: ApiHandler, event: ReturnType<typeof toApiEvent>) {
    const integrationTimeoutMs = options.integrationTimeoutMs ?? HTTP_API_INTEGRATION_TIMEOUT_MS;
    const invocation = await invokeFunction(route, handler, event, {
      callerWaitMs: integrationTimeoutMs,
      // Runs on past the answer; its end is only noted at LOG_LEVEL=debug, and an error in it is caught.
      late: (requestId, late) => {
        if (options.logEveryRequest)
          log(`${requestId} finished after its timeout (${late.kind}); its answer was dropped.`);
      },
    });
    const { requestId, lines } = invocation;
    let outcome: Outcome = invocation.outcome;
    if (outcome.kind === 'caller-timeout') {
      lines.splice(-1, 0, `${requestId} The HTTP API stopped waiting after ${integrationTimeoutMs / 1000} seconds.`);
    } else if (
      outcome.kind === 'result' &&
      Buffer.byteLength(JSON.stringify(outcome.result)) > LAMBDA_MAX_RESPONSE_BYTES
    ) {
      lines.splice(
        -1,
        0,
        `${requestId} Response payload size exceeded maximum allowed payload size (${LAMBDA_MAX_RESPONSE_BYTES} bytes).`,
      );
      outcome = { kind: 'error', error: new Error('response too large') };
    }
    return { outcome, durationMs: invocation.durationMs, lines };
  }

  /** Forwards one of EMULATOR_CALLS with its Authorization header and body; the emulator's answer as it is. */
  async function stripeEmulator(request: IncomingMessage, response: ServerResponse, path: string) {
    const base = options.stripeEmulatorUrl;
    if (!base || request.method !== 'POST' || !EMULATOR_CALLS.some((pattern) => pattern.test(path))) {
      sendJson(response, 404, { message: `There is no Stripe emulator call ${request.method} ${path}.` });
      return;
    }
    const body = await readBody(request);
    if (body === 'too-large') {
      sendJson(response, 413, { message: 'The request is larger than 10 MB.' });
      return;
    }
    const headers: Record<string, string> = {
      'content-type': String(request.headers['content-type'] ?? 'application/x-www-form-urlencoded'),
    };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    const answer = await fetch(`${base}${path}`, { method: 'POST', headers, body: new Uint8Array(body) });
    response.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
      'cache-control': 'no-store',
      ...(answer.headers.get('request-id') ? { 'request-id': answer.headers.get('request-id') ?? '' } : {}),
    });
    response.end(Buffer.from(await answer.arrayBuffer()));
  }

  /**
   * A file with its headers; a text file of 1,000 bytes or more brotli- or gzip-compressed when the
   * request accepts it (compression.ts), with `Vary: Accept-Encoding` either way.
   */
  function sendFile(request: IncomingMessage, response: ServerResponse, file: string, headers: Record<string, string>) {
    const info = statSync(file);
    if (!isCompressible(file, info.size)) {
      response.writeHead(200, headers);
      pipeFile(file, response);
      return;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    const varied = { ...headers, vary: 'Accept-Encoding' };
    if (!encoding) {
      response.writeHead(200, varied);
      pipeFile(file, response);
      return;
    }
    compressed.get(file, encoding, info).then(
      (body) => {
        response.writeHead(200, { ...varied, 'content-encoding': encoding, 'content-length': String(body.length) });
        response.end(body);
      },
      // The file went away meanwhile: end the response, never the process.
      () => response.destroy(),
    );
  }

  function serveFile(request: IncomingMessage, response: ServerResponse, file: string, immutable: boolean) {
    sendFile(request, response, file, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
  }

  function app(request: IncomingMessage, response: ServerResponse, root: string, relative: string) {
    const base = resolve(root);
    const candidate = resolve(join(base, normalize(relative)));
    if (candidate.startsWith(base + sep) && existsSync(candidate) && statSync(candidate).isFile()) {
      serveFile(request, response, candidate, candidate.includes(`${sep}assets${sep}`));
      return;
    }
    if (extname(relative)) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
      return;
    }
    const index = join(base, 'index.html');
    if (!existsSync(index)) {
      response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`The app is not built yet (${index} is missing).`);
      return;
    }
    serveFile(request, response, index, false);
  }

  /**
   * Only plain file names (DEMO_IMAGE_NAME: letters, digits, dashes, .svg) are looked up, so no
   * path leaves the folder. The pictures never change once written: cached for a day. An SVG
   * opened on its own cannot run anything (a CSP of its own, and nosniff).
   */
  function demoImage(request: IncomingMessage, response: ServerResponse, name: string) {
    const dir = options.demoImagesDir;
    const file = dir && DEMO_IMAGE_NAME.test(name) ? join(dir, name) : undefined;
    if (!file || !existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
      return;
    }
    sendFile(request, response, file, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  }

  /**
   * A hosted picture from the images bucket: content-addressed, so cached for good, as CloudFront
   * sends it. HEAD answers as GET does, without the body, and both answer a conditional request
   * (If-None-Match, else If-Modified-Since) by the object's ETag and time with a 304, as CloudFront
   * in front of S3 does. Other methods find nothing.
   */
  async function hostedImage(request: IncomingMessage, response: ServerResponse, path: string) {
    const read = options.readHostedImage;
    const method = request.method === 'HEAD' ? 'HEAD' : request.method === 'GET' ? 'GET' : undefined;
    const image = read && method && HOSTED_IMAGE_PATH.test(path) ? await read(path.slice(1)) : undefined;
    if (!image) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end(method === 'HEAD' ? undefined : 'Not found');
      return;
    }
    const headers: Record<string, string> = {
      'cache-control': 'public, max-age=31536000, immutable',
      ...(image.etag ? { etag: image.etag } : {}),
      ...(image.lastModified ? { 'last-modified': image.lastModified.toUTCString() } : {}),
    };
    if (notModified(request, image)) {
      response.writeHead(304, headers);
      response.end();
      return;
    }
    response.writeHead(200, {
      ...headers,
      'content-type': image.contentType,
      'content-length': String(image.body.length),
      'x-content-type-options': 'nosniff',
    });
    response.end(method === 'HEAD' ? undefined : image.body);
  }

  function route(request: IncomingMessage, response: ServerResponse) {
    for (const [name, value] of Object.entries(policyHeaders)) response.setHeader(name, value);
    const target = parsePath(request.url ?? '/');
    if (!target) {
      sendText(response, 400, 'Bad request: the request target is not a valid URL path.');
      return;
    }
    const { path, query } = target;
    if (path === '/api' || path.startsWith('/api/')) {
      api(request, response, path, query).catch((error: unknown) => fail(request, response, error));
    } else if (path.startsWith(`${STRIPE_EMULATOR_BASE}/`)) {
      stripeEmulator(request, response, path.slice(STRIPE_EMULATOR_BASE.length)).catch((error: unknown) =>
        fail(request, response, error),
      );
    } else if (path.startsWith('/images/')) {
      hostedImage(request, response, path).catch((error: unknown) => fail(request, response, error));
    } else if (path.startsWith('/demo-images/')) {
      demoImage(request, response, path.slice('/demo-images/'.length));
    } else if (path === '/admin') {
      response.writeHead(301, { location: '/admin/' });
      response.end();
    } else if (path.startsWith('/admin/')) {
      app(request, response, options.adminDist, path.slice('/admin/'.length) || 'index.html');
    } else {
      app(request, response, options.memberDist, path.slice(1) || 'index.html');
    }
  }

  /** Whatever went wrong while answering: logged, and a 500 (for the API, the HTTP API's words) if nothing was sent yet. */
  function fail(request: IncomingMessage, response: ServerResponse, error: unknown) {
    log(
      `${request.method} ${request.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (response.headersSent) response.destroy();
    else if (request.url?.startsWith('/api')) sendJson(response, 500, INTERNAL_SERVER_ERROR);
    else sendText(response, 500, 'The local server failed to answer this request.');
  }

  // Nothing a request does may throw out of this callback: Node would exit, and the engines with it.
  return createServer((request, response) => {
    try {
      route(request, response);
    } catch (error) {
      fail(request, response, error);
    }
  });
}

/** How one invocation ended, as the HTTP API sees it (`caller-timeout`: its integration timeout). */
type Outcome = InvocationOutcome<Awaited<ReturnType<ApiHandler>>>;

/** The decoded path and the raw query of a request target; undefined when it is no valid URL path. */
function parsePath(target: string): { path: string; query: string } | undefined {
  try {
    const url = new URL(target, 'http://localhost');
    return { path: decodeURIComponent(url.pathname), query: url.search.replace(/^\?/, '') };
  } catch {
    // URIError (a malformed percent-encoding such as /% or %E0%A4%A) or TypeError (not a URL).
    return undefined;
  }
}

/**
 * Whether a GET or HEAD of `image` may be answered 304 (RFC 9110, 13.1.2 and 13.1.3): If-None-Match
 * when sent (a weak comparison, `*` matching any), else If-Modified-Since against the object's time.
 */
function notModified(request: IncomingMessage, image: HostedImage): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    if (!image.etag) return false;
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(image.etag!));
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  if (Number.isNaN(since) || !image.lastModified) return false;
  return Math.floor(image.lastModified.getTime() / 1000) * 1000 <= since;
}
