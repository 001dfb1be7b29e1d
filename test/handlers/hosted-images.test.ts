import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/src/routes';
import { createPortalServer } from '../../infra/local/server';
import { hostedImageReader, loadHandler } from '../../infra/local/start';
import { LOCAL_IMAGES_BUCKET } from '../../infra/local/s3';

/**
 * `/images/*` on the local server, read from the local S3 server's images bucket, answers HEAD as
 * GET, without the body, as CloudFront in front of S3 does: 200, 304 and 404 alike (issue 35).
 */
const credentials = {
  accessKeyId: process.env.AWS_ACCESS_KEY_ID!,
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY!,
};
const hash = 'ab'.repeat(32);
const picture = Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 a picture of a lamp');
let base = '';
let dir = '';
let close = () => Promise.resolve();

beforeAll(async () => {
  const endpoint = process.env.S3_ENDPOINT!;
  await new S3Client({ endpoint, forcePathStyle: true, region: process.env.AWS_REGION, credentials }).send(
    new PutObjectCommand({
      Bucket: LOCAL_IMAGES_BUCKET,
      Key: `images/${hash}/original`,
      Body: picture,
      ContentType: 'image/webp',
    }),
  );
  dir = mkdtempSync(join(tmpdir(), 'hosted-images-'));
  const server = createPortalServer({
    routes,
    loadHandler,
    memberDist: join(dir, 'none'),
    adminDist: join(dir, 'none'),
    readHostedImage: await hostedImageReader(endpoint, credentials),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with its raw answer (fetch hides a HEAD's Content-Length and a body sent anyway). */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method, headers });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The headers a HEAD must share with its GET (the date and the connection's aside). */
const comparable = (headers: Answer['headers']) =>
  Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
    ),
  );

async function sameAsGet(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const get = await send('GET', path, headers);
  const head = await send('HEAD', path, headers);
  expect(head.status, `HEAD ${path}`).toBe(get.status);
  expect(comparable(head.headers), `HEAD ${path}`).toEqual(comparable(get.headers));
  expect(head.body.length, `HEAD ${path}`).toBe(0);
  return get;
}

describe('/images/* answers HEAD as GET, without the body', () => {
  it('200: the same type, length, ETag, time and caching, and no body', async () => {
    const get = await sameAsGet(`/images/${hash}/original`);
    expect(get.status).toBe(200);
    expect(get.body.equals(picture)).toBe(true);
    expect(get.headers['content-type']).toBe('image/webp');
    expect(get.headers['content-length']).toBe(String(picture.length));
    expect(get.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(get.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(String(get.headers['last-modified']))).not.toBeNaN();
  });

  it('304: If-None-Match with the ETag (or *), else If-Modified-Since at or after its time', async () => {
    const { headers } = await send('GET', `/images/${hash}/original`);
    const etag = String(headers.etag);
    const lastModified = String(headers['last-modified']);
    for (const conditions of [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", W/${etag}` },
      { 'if-none-match': '*' },
      { 'if-modified-since': lastModified },
      { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() },
    ] as Record<string, string>[]) {
      const answer = await sameAsGet(`/images/${hash}/original`, conditions);
      expect(answer.status, JSON.stringify(conditions)).toBe(304);
      expect(answer.body.length).toBe(0);
      expect(answer.headers.etag).toBe(etag);
    }
    for (const conditions of [
      { 'if-none-match': '"other"' },
      // If-None-Match decides when both are sent.
      { 'if-none-match': '"other"', 'if-modified-since': lastModified },
      { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() },
      { 'if-modified-since': 'not a date' },
    ] as Record<string, string>[]) {
      expect((await sameAsGet(`/images/${hash}/original`, conditions)).status, JSON.stringify(conditions)).toBe(200);
    }
  });

  it('404: a picture not there, a variant not there, and a path that is no picture', async () => {
    for (const path of [
      `/images/${'0'.repeat(64)}/original`,
      `/images/${hash}/640.webp`,
      `/images/${hash}/other`,
      '/images/../sources/x.json',
    ]) {
      const answer = await sameAsGet(path);
      expect(answer.status, path).toBe(404);
    }
    expect((await send('GET', `/images/${'0'.repeat(64)}/original`)).body.toString()).toBe('Not found');
  });
});
