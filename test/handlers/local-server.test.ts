import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, get, request as nodeRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/src/routes';
import { chooseEncoding } from '../../infra/local/compression';
import { brotliOf } from '../../shared/src/build/precompress';
import { createPortalServer } from '../../infra/local/server';
import { loadHandler } from '../../infra/local/start';
import { securityHeaders } from '../../infra/lib/security-headers';

/** The local stand-in for CloudFront + API Gateway, over real HTTP. */
const UPLOAD_ORIGIN = 'http://127.0.0.1:4569';
/** Text assets over CloudFront's 1,000-byte floor for compression. */
const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const value${i} = 'the value ${i}';`).join('\n');
const BIG_STYLE = Array.from({ length: 200 }, (_, i) => `.card-${i} { padding: ${i}px; }`).join('\n');
const BIG_SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="10" height="10" fill="#2c56c9"/>'.repeat(60)}</svg>`;

/** A GET with its raw (still encoded) body: fetch would decode it. */
function rawGet(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const request = get(`${base}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    },
  );
}
/** A POST with its raw (still encoded) answer, as API Gateway passes a compressed answer on. */
function rawPost(path: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const request = nodeRequest(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    },
  );
}
let base = '';
let dir = '';
let close: () => void = () => undefined;
/** What reached the stand-in for the Stripe emulator. */
const forwarded: { method: string; url: string; authorization?: string; contentType?: string; body: string }[] = [];
const emulator = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    forwarded.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: Buffer.concat(chunks).toString('utf8'),
    });
    response.writeHead(402, { 'content-type': 'application/json', 'request-id': 'req_forwarded' });
    response.end('{"error":{"type":"card_error","message":"Your card was declined."}}');
  });
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  for (const app of ['member', 'admin']) {
    mkdirSync(join(dir, app, 'assets'), { recursive: true });
    writeFileSync(join(dir, app, 'index.html'), `<title>${app} app</title>`);
    writeFileSync(join(dir, app, 'assets', 'main.js'), `console.log('${app}')`);
  }
  writeFileSync(join(dir, 'member', 'assets', 'index-abc123.js'), BIG_SCRIPT);
  writeFileSync(join(dir, 'member', 'assets', 'index-abc123.css'), BIG_STYLE);
  writeFileSync(join(dir, 'member', 'assets', 'logo-abc123.png'), Buffer.alloc(4_000, 7));
  writeFileSync(join(dir, 'secret.txt'), 'outside the app folders');
  mkdirSync(join(dir, 'demo-images'));
  writeFileSync(join(dir, 'demo-images', 'mug-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'demo-images', 'lamp-1.svg'), BIG_SVG);
  await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
  const server = createPortalServer({
    routes,
    loadHandler,
    memberDist: join(dir, 'member'),
    adminDist: join(dir, 'admin'),
    demoImagesDir: join(dir, 'demo-images'),
    uploadOrigins: [UPLOAD_ORIGIN],
    stripeEmulatorUrl: `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local server', () => {
  it('runs a route-table handler for POST /api/<call>, passing cookies both ways', async () => {
    const email = `local-${Date.now()}@example.com`;
    const signup = await fetch(`${base}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'long enough password' }),
    });
    expect(signup.status).toBe(200);
    const cookie = signup.headers.getSetCookie()[0]!.split(';')[0]!;
    const check = await fetch(`${base}/api/checkAuth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(check.status).toBe(200);
    expect(((await check.json()) as { userProfile: { email: string } }).userProfile.email).toBe(email);
  });

  it('forwards the browser’s card token and payment confirmation to the Stripe emulator, key and body as sent', async () => {
    const body = 'card%5Bnumber%5D=4000056655665556&card%5Bcurrency%5D=usd';
    const token = await fetch(`${base}/stripe-emulator/v1/tokens`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_pair', 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(token.status).toBe(402);
    expect(token.headers.get('request-id')).toBe('req_forwarded');
    expect(((await token.json()) as { error: { message: string } }).error.message).toBe('Your card was declined.');
    const confirm = await fetch(`${base}/stripe-emulator/v1/payment_intents/pi_123/confirm`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_pair', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payment_method=pm_card_visa',
    });
    expect(confirm.status).toBe(402);
    expect(forwarded).toEqual([
      {
        method: 'POST',
        url: '/v1/tokens',
        authorization: 'Bearer pk_test_pair',
        contentType: 'application/x-www-form-urlencoded',
        body,
      },
      {
        method: 'POST',
        url: '/v1/payment_intents/pi_123/confirm',
        authorization: 'Bearer pk_test_pair',
        contentType: 'application/x-www-form-urlencoded',
        body: 'payment_method=pm_card_visa',
      },
    ]);
  });

  it('forwards the browser’s card PaymentMethod (made from a card token) to the Stripe emulator', async () => {
    const before = forwarded.length;
    const response = await fetch(`${base}/stripe-emulator/v1/payment_methods`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_pair', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=card&card%5Btoken%5D=tok_1',
    });
    expect(response.headers.get('request-id')).toBe('req_forwarded');
    expect(forwarded.slice(before)).toEqual([
      {
        method: 'POST',
        url: '/v1/payment_methods',
        authorization: 'Bearer pk_test_pair',
        contentType: 'application/x-www-form-urlencoded',
        body: 'type=card&card%5Btoken%5D=tok_1',
      },
    ]);
  });

  it('forwards nothing else under /stripe-emulator: other paths and methods are 404', async () => {
    const before = forwarded.length;
    const post = (path: string) =>
      fetch(`${base}/stripe-emulator${path}`, { method: 'POST', headers: { authorization: 'Bearer sk_test_x' } });
    expect((await post('/v1/accounts')).status).toBe(404);
    expect((await post('/v1/balance')).status).toBe(404);
    expect((await post('/v1/payment_intents')).status).toBe(404);
    expect((await fetch(`${base}/stripe-emulator/v1/tokens`)).status).toBe(404);
    expect(forwarded).toHaveLength(before);
  });

  it('answers an unknown /api path with a 404 JSON message', async () => {
    const response = await fetch(`${base}/api/doesNotExist`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: 'There is no API call POST /api/doesNotExist.' });
  });

  it('answers a GET on an API path with 404, as the POST-only HTTP API does', async () => {
    expect((await fetch(`${base}/api/login`)).status).toBe(404);
  });

  it('serves the member app at / and its routes, and the admin app under /admin/', async () => {
    expect(await (await fetch(`${base}/`)).text()).toBe('<title>member app</title>');
    expect(await (await fetch(`${base}/my_account`)).text()).toBe('<title>member app</title>');
    expect(await (await fetch(`${base}/admin/`)).text()).toBe('<title>admin app</title>');
    expect(await (await fetch(`${base}/admin/product_import`)).text()).toBe('<title>admin app</title>');
    expect(await (await fetch(`${base}/admin/assets/main.js`)).text()).toBe("console.log('admin')");
    expect((await fetch(`${base}/admin`, { redirect: 'manual' })).headers.get('location')).toBe('/admin/');
  });

  it('answers a malformed percent-encoding with 400 and keeps running', async () => {
    for (const path of ['/%', '/api/%E0%A4%A', '/admin/%zz', '/demo-images/%']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.text(), path).toMatch(/not a valid URL path/);
    }
    const post = await fetch(`${base}/api/%E0%A4%A`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(400);
    // The server is still there.
    expect(await (await fetch(`${base}/`)).text()).toBe('<title>member app</title>');
  });

  it('answers a request target that is no URL at all with 400 and keeps running', async () => {
    // fetch cannot send this absolute-form target; a raw socket can.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET http://[ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect((await fetch(`${base}/admin/`)).status).toBe(200);
  });

  it('answers a missing asset with 404 instead of the app page, and never serves files outside the apps', async () => {
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
    const traversal = await fetch(`${base}/..%2fsecret.txt`);
    expect(await traversal.text()).not.toContain('outside the app folders');
  });

  it('sends the security headers of the CloudFront policy (security-headers.ts) on the apps, their assets and the API', async () => {
    const expected = securityHeaders([UPLOAD_ORIGIN]);
    expect(expected['content-security-policy']).toContain(
      `connect-src 'self' https://api.stripe.com https://m.stripe.network ${UPLOAD_ORIGIN}`,
    );
    // Stripe Elements: its script, its iframes and the API (security-headers.ts STRIPE_ELEMENTS).
    expect(expected['content-security-policy']).toContain(
      "script-src 'self' https://js.stripe.com https://*.js.stripe.com;",
    );
    expect(expected['content-security-policy']).toContain(
      "frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com https://m.stripe.network;",
    );
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(expected['x-xss-protection']).toBe('0'); // the auditor off, as current guidance says
    const answers = [
      await fetch(`${base}/`),
      await fetch(`${base}/my_account`),
      await fetch(`${base}/admin/`),
      await fetch(`${base}/admin/assets/main.js`),
      await fetch(`${base}/assets/missing.js`),
      await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${base}/api/doesNotExist`, { method: 'POST', body: '{}' }),
    ];
    for (const answer of answers) {
      const sent = Object.fromEntries(Object.keys(expected).map((name) => [name, answer.headers.get(name)]));
      expect(sent, answer.url).toEqual(expected);
    }
    // API answers are never cached.
    expect(answers[5]!.headers.get('cache-control')).toBe('no-store');
    expect(answers[6]!.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the sandbox CSP of the demo pictures, with the other security headers', async () => {
    const answer = await fetch(`${base}/demo-images/mug-1.svg`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    const { 'content-security-policy': _csp, ...others } = securityHeaders([UPLOAD_ORIGIN]);
    for (const [name, value] of Object.entries(others)) expect(answer.headers.get(name), name).toBe(value);
  });
});

describe('local server: the API’s compressed answers (as API Gateway passes them on)', () => {
  // A real call's JSON answer over 1,000 bytes that sets no cookie: signup's 400 naming 60 unknown fields.
  const refused = JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknown_field_${i}`, i])));

  it('sends the bytes the function compressed, with its Content-Encoding and Vary, when the browser accepts brotli', async () => {
    const answer = await rawPost('/api/signup', refused, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    const body = JSON.parse(brotliDecompressSync(answer.body).toString('utf8')) as { fields: Record<string, string> };
    expect(body.fields.unknown_field_59).toBe('Unknown field: remove it.');
    const plain = await rawPost('/api/signup', refused, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(body);
    expect(answer.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('sends gzip to a browser that refuses brotli, and fetch reads either as JSON, as the apps’ client does', async () => {
    const gzip = await rawPost('/api/signup', refused, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = JSON.parse(gunzipSync(gzip.body).toString('utf8')) as unknown;
    for (const accept of ['br', 'gzip']) {
      const answer = await fetch(`${base}/api/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': accept },
        body: refused,
      });
      expect(answer.headers.get('content-encoding')).toBe(accept);
      expect(await answer.json()).toEqual(plain);
    }
  });
});

describe('local server compression (as CloudFront compresses the app buckets)', () => {
  it('sends a hashed script brotli-compressed when accepted, still cached for a year, with Vary', async () => {
    const answer = await rawGet('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(BIG_SCRIPT.length / 4);
    expect(brotliDecompressSync(answer.body).toString('utf8')).toBe(BIG_SCRIPT);
  });

  it('sends the brotli form the build wrote beside a file (<file>.br) to a browser that accepts brotli, and only then', async () => {
    const script = BIG_SCRIPT.replaceAll('value', 'built');
    const file = join(dir, 'member', 'assets', 'built-abc123.js');
    writeFileSync(file, script);
    // The build's own form: brotli's best quality, the bytes the server must send as they are.
    const built = await brotliOf(Buffer.from(script));
    writeFileSync(`${file}.br`, built);
    const answer = await rawGet('/assets/built-abc123.js', 'gzip, deflate, br, zstd');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.body).toEqual(built);
    expect(brotliDecompressSync(answer.body).toString('utf8')).toBe(script);
    // No brotli accepted: gzip of the file, never the .br bytes.
    const gzip = await rawGet('/assets/built-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(script);
  });

  it('compresses a file itself when the .br beside it is older (a rebuild that left a stale one)', async () => {
    const file = join(dir, 'member', 'assets', 'stale-abc123.js');
    writeFileSync(`${file}.br`, await brotliOf(Buffer.from('stale')));
    utimesSync(`${file}.br`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    writeFileSync(file, BIG_SCRIPT);
    const answer = await rawGet('/assets/stale-abc123.js', 'br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(answer.body).toString('utf8')).toBe(BIG_SCRIPT);
  });

  it('sends gzip to a browser that accepts gzip but not brotli', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip;q=0.8', 'deflate, gzip']) {
      const answer = await rawGet('/assets/index-abc123.css', accept);
      expect(answer.headers['content-encoding'], accept).toBe('gzip');
      expect(answer.headers.vary, accept).toBe('Accept-Encoding');
      expect(gunzipSync(answer.body).toString('utf8'), accept).toBe(BIG_STYLE);
    }
  });

  it('sends the file as it is, with Vary, to a request that accepts neither', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const answer = await rawGet('/assets/index-abc123.js', accept);
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(answer.headers.vary, accept).toBe('Accept-Encoding');
      expect(answer.body.toString('utf8'), accept).toBe(BIG_SCRIPT);
    }
  });

  it('leaves files under 1,000 bytes and pictures other than SVG uncompressed', async () => {
    const small = await rawGet('/assets/main.js', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString('utf8')).toBe("console.log('member')");
    const png = await rawGet('/assets/logo-abc123.png', 'br, gzip');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.body).toEqual(Buffer.alloc(4_000, 7));
  });

  it('compresses a demo SVG picture and keeps its sandbox CSP', async () => {
    const answer = await rawGet('/demo-images/lamp-1.svg', 'br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(brotliDecompressSync(answer.body).toString('utf8')).toBe(BIG_SVG);
  });

  it('compresses the app page (its routes too) and sends a rebuilt file’s new content, not the old one', async () => {
    const page = `<!doctype html><title>member app</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(30)}`;
    const file = join(dir, 'member', 'index.html');
    writeFileSync(file, page);
    try {
      for (const path of ['/', '/my_account']) {
        const answer = await rawGet(path, 'br');
        expect(answer.headers['content-encoding'], path).toBe('br');
        expect(answer.headers['cache-control'], path).toBe('no-cache');
        expect(brotliDecompressSync(answer.body).toString('utf8'), path).toBe(page);
      }
      const rebuilt = page.replace('member app', 'member app, rebuilt');
      writeFileSync(file, rebuilt);
      expect(brotliDecompressSync((await rawGet('/', 'br')).body).toString('utf8')).toBe(rebuilt);
    } finally {
      writeFileSync(file, '<title>member app</title>');
    }
  });

  it('chooses brotli before gzip, honours q=0 and the * wildcard', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0.1, gzip;q=1')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity, *;q=0')).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
