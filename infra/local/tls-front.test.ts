import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCertificate, type LocalCertificate } from './tls-cert';
import { startTlsFront, type TlsFront } from './tls-front';

/** What the origin saw of the last request. */
let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string } = { headers: {}, body: '' };
let origin: Server;
let front: TlsFront;
let certificate: LocalCertificate;

beforeAll(async () => {
  origin = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      if (request.url === '/broken') {
        response.socket?.destroy();
        return;
      }
      if (request.url === '/half') {
        // Headers and part of the body, then the connection drops.
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('x'.repeat(1000), () => response.socket?.destroy());
        return;
      }
      response.writeHead(201, {
        'content-type': 'text/plain',
        'set-cookie': ['a=1; Secure', 'b=2; Secure'],
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
      });
      response.end(`hello ${request.method}`);
    });
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  certificate = await localCertificate();
  front = await startTlsFront({
    target: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
    key: certificate.key,
    cert: certificate.cert,
  });
});

afterAll(async () => {
  await front.stop();
  await new Promise((resolve) => origin.close(resolve));
});

/** One request over HTTP/2, trusting only this run's certificate (so its name must be localhost). */
async function h2(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const session: ClientHttp2Session = connect(front.url, { ca: certificate.cert });
  try {
    return await new Promise((resolve, reject) => {
      session.on('error', reject);
      const stream = session.request({ ':method': init.method ?? 'GET', ':path': path, ...init.headers });
      let status = 0;
      let headers: Record<string, unknown> = {};
      stream.on('response', (answer) => {
        status = Number(answer[constants.HTTP2_HEADER_STATUS]);
        headers = answer;
      });
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve({ status, headers, body: Buffer.concat(chunks).toString() }));
      stream.on('error', reject);
      stream.end(init.body);
    });
  } finally {
    session.close();
  }
}

describe('the local TLS front (CloudFront’s HTTP/2 before the local server)', () => {
  it('serves HTTP/2 over TLS with a certificate for localhost, and passes the answer on whole', async () => {
    const answer = await h2('/shop/p1?ref=abc');
    expect(answer.status).toBe(201);
    expect(answer.body).toBe('hello GET');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Secure', 'b=2; Secure']);
    // HTTP/2 forbids connection-specific headers; the origin's are not passed on.
    expect(answer.headers.connection).toBeUndefined();
    expect(answer.headers['keep-alive']).toBeUndefined();
    expect(seen.url).toBe('/shop/p1?ref=abc');
  });

  it('passes a request body, its headers and the host the browser asked for, without HTTP/2’s own', async () => {
    const answer = await h2('/api/login', {
      method: 'POST',
      body: '{"email":"a@example.com"}',
      headers: { 'content-type': 'application/json', cookie: 'refresh_token=x' },
    });
    expect(answer.status).toBe(201);
    expect(seen).toMatchObject({ method: 'POST', url: '/api/login', body: '{"email":"a@example.com"}' });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      cookie: 'refresh_token=x',
      host: new URL(front.url).host,
    });
    expect(Object.keys(seen.headers).filter((name) => name.startsWith(':'))).toEqual([]);
  });

  it('answers HTTP/1.1 clients too', async () => {
    const { request } = await import('node:https');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const call = request(`${front.url}/x`, { ca: certificate.cert }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      call.on('error', reject);
      call.end();
    });
    expect(answer).toEqual({ status: 201, body: 'hello GET' });
  });

  it('answers 502 in words when the local server drops the request, and goes on serving', async () => {
    const broken = await h2('/broken');
    expect(broken.status).toBe(502);
    expect(broken.body).toBe('The local server did not answer.');
    expect((await h2('/after')).status).toBe(201);
  });

  it('cuts the answer short when the local server drops it midway, over HTTP/2 and HTTP/1.1, and goes on serving', async () => {
    await expect(h2('/half')).rejects.toThrow();
    const { request } = await import('node:https');
    const http1 = await new Promise<string>((resolve) => {
      const call = request(`${front.url}/half`, { ca: certificate.cert }, (response) => {
        response.on('data', () => {});
        response.on('error', () => resolve('cut'));
        response.on('end', () => resolve(response.complete ? 'complete' : 'cut'));
      });
      call.on('error', () => resolve('cut'));
      call.end();
    });
    expect(http1).toBe('cut');
    expect((await h2('/after')).status).toBe(201);
  });

  it('is refused by a client that does not trust this run’s certificate', async () => {
    const session = connect(front.url);
    const error = await new Promise<Error>((resolve) => session.on('error', resolve));
    session.destroy();
    expect(error.message).toMatch(/self[- ]signed|certificate/i);
  });
});
