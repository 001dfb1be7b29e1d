import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/src/routes';
import { createPortalServer } from '../../infra/local/server';
import { loadHandler } from '../../infra/local/start';
import { securityHeaders } from '../../infra/lib/security-headers';

/** The local stand-in for CloudFront + API Gateway, over real HTTP. */
const UPLOAD_ORIGIN = 'http://127.0.0.1:4569';
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
  writeFileSync(join(dir, 'secret.txt'), 'outside the app folders');
  mkdirSync(join(dir, 'demo-images'));
  writeFileSync(join(dir, 'demo-images', 'mug-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
