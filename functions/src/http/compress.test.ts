import type { Call } from '@portal/shared/api/call';
import * as z from '@portal/shared/api/zod';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { badRequest } from '../errors';
import { createApiHandler, createPublicApiHandler } from './api-handler';
import { chooseEncoding, MIN_COMPRESS_BYTES, negotiateAnswer } from './compress';

/** A public call of the test's own, answering `count` items (about 60 bytes each in JSON). */
const listCall = {
  name: 'listThings',
  path: '/api/listThings',
  role: 'public',
  body: 'json',
  request: z.object({ count: z.number(), fail: z.optional(z.boolean()), cookie: z.optional(z.boolean()) }),
} as const satisfies Call;

type Body = z.output<(typeof listCall)['request']>;
const items = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `item-${i}`, name: `Travel mug number ${i}`, cents: 1295 + i }));

async function decideList({ body, setCookie }: { body: Body; setCookie(cookie: string): void }) {
  if (body.fail) throw badRequest(`Invalid request. ${'thing: Unknown field: remove it. '.repeat(body.count)}`);
  if (body.cookie) setCookie('refresh_token=abc; HttpOnly; Secure; SameSite=Strict; Path=/api');
  return { items: items(body.count) } as never;
}

const publicHandler = createPublicApiHandler()(listCall, decideList);
const uncompressedHandler = createPublicApiHandler({ compress: false })(listCall, decideList);
const memberHandler = createApiHandler(() => Promise.resolve({ isAdmin: false }))(
  { ...listCall, role: 'member' },
  decideList,
);

function event(body: Body, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /api/listThings',
    rawPath: '/api/listThings',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
    requestContext: { http: { method: 'POST', path: '/api/listThings', sourceIp: '127.0.0.1' } },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

type Handler = (event: never, context: never) => Promise<unknown>;
const invoke = async (handler: Handler, body: Body, headers?: Record<string, string>) =>
  (await handler(event(body, headers) as never, undefined as never)) as APIGatewayProxyStructuredResultV2;

/** The answer's body as the browser reads it: base64 decoded, then decompressed by its Content-Encoding. */
function decoded(result: APIGatewayProxyStructuredResultV2): unknown {
  const headers = result.headers ?? {};
  if (!result.isBase64Encoded) {
    expect(headers['content-encoding']).toBeUndefined();
    return JSON.parse(result.body ?? '');
  }
  const bytes = Buffer.from(result.body ?? '', 'base64');
  const encoding = headers['content-encoding'];
  const text =
    encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : assertNever(encoding);
  return JSON.parse(text.toString('utf8'));
}
const assertNever = (encoding: unknown): never => {
  throw new Error(`unexpected Content-Encoding ${String(encoding)}`);
};

describe('API answers compressed as the request accepts', () => {
  const big = { count: 100 };

  it('answers brotli when the browser accepts it, base64 for API Gateway, with every header kept', async () => {
    const plain = JSON.stringify({ items: items(100) });
    const result = await invoke(publicHandler, big, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-encoding': 'br',
      vary: 'Accept-Encoding',
    });
    expect(decoded(result)).toEqual({ items: items(100) });
    // Even in base64, a fifth of the JSON or less.
    expect(result.body!.length).toBeLessThan(plain.length / 5);
  });

  it('answers gzip to a request that accepts gzip and not brotli', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=0.5, br;q=0', 'deflate, gzip;q=1.0']) {
      const result = await invoke(publicHandler, big, { 'accept-encoding': accept });
      expect(result.headers?.['content-encoding'], accept).toBe('gzip');
      expect(decoded(result), accept).toEqual({ items: items(100) });
    }
  });

  it('answers the JSON as it is (identity), with Vary, to a request that accepts neither', async () => {
    for (const accept of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0', 'zstd']) {
      const result = await invoke(publicHandler, big, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(result.isBase64Encoded ?? false, String(accept)).toBe(false);
      expect(result.headers?.['content-encoding'], String(accept)).toBeUndefined();
      expect(result.headers?.vary).toBe('Accept-Encoding');
      expect(result.body).toBe(JSON.stringify({ items: items(100) }));
    }
  });

  it('leaves an answer under 1,000 bytes as it is', async () => {
    const result = await invoke(publicHandler, { count: 2 }, { 'accept-encoding': 'br' });
    expect(Buffer.byteLength(result.body!)).toBeLessThan(MIN_COMPRESS_BYTES);
    expect(result.isBase64Encoded ?? false).toBe(false);
    expect(result.headers?.['content-encoding']).toBeUndefined();
    expect(result.body).toBe(JSON.stringify({ items: items(2) }));
  });

  it('compresses an error answer too, keeping its status and words', async () => {
    const result = await invoke(publicHandler, { count: 60, fail: true }, { 'accept-encoding': 'br' });
    expect(result.statusCode).toBe(400);
    expect(result.headers?.['content-encoding']).toBe('br');
    expect(decoded(result)).toEqual({
      message: `Invalid request. ${'thing: Unknown field: remove it. '.repeat(60)}`,
    });
  });

  it('compresses a member call’s answer after authentication, and leaves the 401 of a missing token small', async () => {
    const ok = await invoke(memberHandler, big, { 'accept-encoding': 'br', authorization: 'Bearer token' });
    expect(ok.headers?.['content-encoding']).toBe('br');
    expect(decoded(ok)).toEqual({ items: items(100) });
    const refused = await invoke(memberHandler, big, { 'accept-encoding': 'br' });
    expect(refused.statusCode).toBe(401);
    expect(decoded(refused)).toEqual({ message: 'Log in to continue: this call needs an access token.' });
  });

  it('never compresses an answer that sets a cookie (the session answers that carry tokens)', async () => {
    const result = await invoke(publicHandler, { count: 100, cookie: true }, { 'accept-encoding': 'br' });
    expect(result.cookies).toHaveLength(1);
    expect(result.isBase64Encoded ?? false).toBe(false);
    expect(result.headers?.['content-encoding']).toBeUndefined();
    expect(result.headers?.vary).toBeUndefined();
    expect(JSON.parse(result.body!)).toEqual({ items: items(100) });
  });

  it('never compresses with compression turned off (Stripe’s webhooks)', async () => {
    const result = await invoke(uncompressedHandler, big, { 'accept-encoding': 'br, gzip' });
    expect(result.isBase64Encoded ?? false).toBe(false);
    expect(result.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  });
});

describe('negotiateAnswer', () => {
  const json = (body: string, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 => ({
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body,
  });

  it('keeps an answer whose base64 would be no smaller than its text (incompressible bytes)', async () => {
    // 1,500 random base64 characters: brotli cannot take a quarter off them, base64 adds a third.
    const noise = JSON.stringify({
      token: Buffer.from(crypto.getRandomValues(new Uint8Array(1_125))).toString('base64'),
    });
    const result = await negotiateAnswer(json(noise), 'br');
    expect(result.body).toBe(noise);
    expect(result.isBase64Encoded).toBeUndefined();
    expect(result.headers?.vary).toBe('Accept-Encoding');
  });

  it('adds Accept-Encoding to a Vary the answer has, once', async () => {
    const body = JSON.stringify({ items: items(50) });
    expect((await negotiateAnswer(json(body, { Vary: 'Origin' }), 'br')).headers?.vary).toBe('Origin, Accept-Encoding');
    expect((await negotiateAnswer(json(body, { vary: 'accept-encoding' }), 'br')).headers?.vary).toBe(
      'accept-encoding',
    );
  });

  it('leaves what is not JSON text alone: another type, a body already encoded or in base64', async () => {
    const body = JSON.stringify({ items: items(50) });
    const csv = { statusCode: 200, headers: { 'content-type': 'text/csv' }, body };
    expect(await negotiateAnswer(csv, 'br')).toBe(csv);
    const encoded = json(body, { 'content-encoding': 'gzip' });
    expect(await negotiateAnswer(encoded, 'br')).toBe(encoded);
    const binary = { ...json(Buffer.from(body).toString('base64')), isBase64Encoded: true };
    expect(await negotiateAnswer(binary, 'br')).toBe(binary);
  });
});

describe('chooseEncoding', () => {
  it('chooses brotli before gzip whatever their q-values, honours q=0 and the * wildcard', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0.1, gzip;q=1')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('BR;Q=0.0, GZIP')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity, *;q=0')).toBeUndefined();
    expect(chooseEncoding(['gzip', 'br'])).toBe('br');
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
