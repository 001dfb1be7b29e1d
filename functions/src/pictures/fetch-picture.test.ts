import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPicture, isBlockedAddress, PictureFetchError, type FetchPolicy } from './fetch-picture';

/**
 * The fetcher's limits against a real server on 127.0.0.1, which the policy allows by name (as
 * npm start allows its test image server); a second loopback server that it does not name stands
 * for every private address, and must never be reached.
 */

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
let hits = new Map<string, number>();
let routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {};

function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(request, response);
    else {
      response.writeHead(404);
      response.end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

let allowed: { server: Server; origin: string };
let forbidden: { server: Server; origin: string };
let policy: FetchPolicy;

beforeAll(async () => {
  [allowed, forbidden] = await Promise.all([serve(), serve()]);
  policy = {
    allowedPrivateOrigins: new Set([allowed.origin]),
    limits: { timeoutMs: 300, maxBytes: 1024, maxRedirects: 2, retries: 2, backoffMs: 10 },
  };
});
afterAll(async () => {
  for (const { server } of [allowed, forbidden]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const picture =
  (type = 'image/jpeg', body: Buffer = JPEG) =>
  (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': type });
    response.end(body);
  };

async function refusal(address: string, options: FetchPolicy = policy): Promise<string> {
  const error = await fetchPicture(address, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PictureFetchError);
  return (error as Error).message;
}

describe('fetchPicture', () => {
  it('fetches a picture of an allowed type, with its type and the address it came from', async () => {
    hits = new Map();
    routes = { '/a.jpg': picture('image/jpeg; charset=binary') };
    const fetched = await fetchPicture(`${allowed.origin}/a.jpg`, policy);
    expect(fetched.body.equals(JPEG)).toBe(true);
    expect(fetched.contentType).toBe('image/jpeg');
    expect(fetched.finalUrl).toBe(`${allowed.origin}/a.jpg`);
  });

  it('refuses what is not a picture by its type, at once (no retry)', async () => {
    hits = new Map();
    routes = { '/page': picture('text/html'), '/none': (_q, response) => response.end('x') };
    expect(await refusal(`${allowed.origin}/page`)).toBe(
      'it is of type text/html, not a JPEG, PNG, WebP, GIF or AVIF picture',
    );
    expect(await refusal(`${allowed.origin}/none`)).toBe(
      'it is of no stated type, not a JPEG, PNG, WebP, GIF or AVIF picture',
    );
    expect(hits.get('/page')).toBe(1);
  });

  it('refuses a body over the size limit, whether it says its length or not', async () => {
    routes = {
      '/declared': picture('image/png', Buffer.alloc(2048)),
      '/chunked': (_request, response) => {
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 4; i++) response.write(Buffer.alloc(512));
        response.end();
      },
    };
    expect(await refusal(`${allowed.origin}/declared`)).toBe('it is larger than 1 KB');
    expect(await refusal(`${allowed.origin}/chunked`)).toBe('it is larger than 1 KB');
    const megabytes = { ...policy, limits: { ...policy.limits, maxBytes: 2 * 1024 * 1024 } };
    routes['/big'] = picture('image/png', Buffer.alloc(3 * 1024 * 1024));
    expect(await refusal(`${allowed.origin}/big`, megabytes)).toBe('it is larger than 2 MB');
  });

  it('times out a server that does not answer, and tries again with backoff before giving up', async () => {
    hits = new Map();
    routes = { '/slow': () => undefined };
    expect(await refusal(`${allowed.origin}/slow`)).toBe('it did not arrive within 0.3 s');
    expect(hits.get('/slow')).toBe(3);
  });

  it('retries a 503 and a 429, and succeeds when the server recovers; a 404 is not retried', async () => {
    hits = new Map();
    let calls = 0;
    routes = {
      '/flaky': (request, response) => {
        calls += 1;
        if (calls === 1) {
          response.writeHead(503);
          response.end();
        } else if (calls === 2) {
          response.writeHead(429);
          response.end();
        } else picture()(request, response);
      },
    };
    expect((await fetchPicture(`${allowed.origin}/flaky`, policy)).body.equals(JPEG)).toBe(true);
    expect(hits.get('/flaky')).toBe(3);
    expect(await refusal(`${allowed.origin}/gone`)).toBe('its server answered 404');
    expect(hits.get('/gone')).toBe(1);
  });

  it('follows redirects up to the limit, and no further', async () => {
    routes = {
      '/r1': (_q, response) => {
        response.writeHead(302, { location: '/r2' });
        response.end();
      },
      '/r2': (_q, response) => {
        response.writeHead(301, { location: `${allowed.origin}/a.jpg` });
        response.end();
      },
      '/a.jpg': picture(),
      '/loop': (_q, response) => {
        response.writeHead(302, { location: '/loop' });
        response.end();
      },
    };
    const fetched = await fetchPicture(`${allowed.origin}/r1`, policy);
    expect(fetched.finalUrl).toBe(`${allowed.origin}/a.jpg`);
    expect(await refusal(`${allowed.origin}/loop`)).toBe('it redirects more than 2 times');
  });

  it('never reaches a private address: not named, through a name that resolves to one, nor by a redirect', async () => {
    hits = new Map();
    routes = {
      '/a.jpg': picture(),
      '/away': (_q, response) => {
        response.writeHead(302, { location: `${forbidden.origin}/a.jpg` });
        response.end();
      },
    };
    const port = new URL(forbidden.origin).port;
    const blocked = 'its host is a private or local network address, which pictures are never fetched from';
    expect(await refusal(`${forbidden.origin}/a.jpg`)).toBe(blocked);
    expect(await refusal(`http://localhost:${port}/a.jpg`)).toBe(blocked);
    expect(await refusal(`http://[::1]:${port}/a.jpg`)).toBe(blocked);
    expect(await refusal(`http://[::ffff:127.0.0.1]:${port}/a.jpg`)).toBe(blocked);
    // IPv4-compatible, IPv4-translated and 6to4 forms of loopback (issue 35).
    expect(await refusal(`http://[::7f00:1]:${port}/a.jpg`)).toBe(blocked);
    expect(await refusal(`http://[::ffff:0:7f00:1]:${port}/a.jpg`)).toBe(blocked);
    expect(await refusal(`http://[2002:7f00:1::]:${port}/a.jpg`)).toBe(blocked);
    expect(await refusal(`${allowed.origin}/away`)).toBe(blocked);
    expect(await refusal('http://10.1.2.3/a.jpg')).toBe(blocked);
    expect(await refusal('http://169.254.169.254/latest/meta-data/')).toBe(blocked);
    // Without the configuration, the test image server itself is refused too.
    expect(await refusal(`${allowed.origin}/a.jpg`, { limits: policy.limits })).toBe(blocked);
    expect(hits.get('/a.jpg')).toBeUndefined();
  });

  it('refuses addresses that are not http or https', async () => {
    expect(await refusal('file:///etc/passwd')).toBe('only http and https addresses are fetched, not file:');
    expect(await refusal('ftp://example.com/a.jpg')).toBe('only http and https addresses are fetched, not ftp:');
    expect(await refusal('not an address')).toBe('it is not a valid address');
  });
});

describe('isBlockedAddress', () => {
  // Every form the red team tried (issue 35), and the addresses that must still pass.
  it.each([
    // IPv4: loopback, private, link-local, shared, reserved, documentation, multicast, broadcast
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['0.1.2.3', true],
    ['192.0.0.8', true],
    ['192.0.2.1', true],
    ['198.18.0.1', true],
    ['198.51.100.7', true],
    ['203.0.113.9', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    // IPv6: loopback, unspecified, unique local, link-local, site-local, multicast, documentation, discard
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::', true],
    ['fd00::1', true],
    ['fc00::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['100::1', true],
    // IPv4-mapped (dotted and hex)
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:a00:1', true],
    ['::ffff:169.254.169.254', true],
    ['0:0:0:0:0:ffff:c0a8:101', true],
    // IPv4-compatible, IPv4-translated, 6to4, NAT64, Teredo carrying a loopback or private address
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['::a00:1', true],
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:127.0.0.1', true],
    ['2002:7f00:1::', true],
    ['2002:a9fe:a9fe::1', true],
    ['2002:c0a8:101:1::1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b:1::7f00:1', true],
    ['2001:0:7f00:1::1', true],
    ['2001:0:808:808:0:0:80ff:fffe', true],
    // not an IP address at all
    ['not-an-ip', true],
    ['localhost', true],
    ['', true],
    // public addresses, directly or carried
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['1.1.1.1', false],
    ['2606:4700::1111', false],
    ['2a00:1450:4001:80b::200e', false],
    ['::ffff:8.8.8.8', false],
    ['::ffff:0:8.8.8.8', false],
    ['2002:808:808::1', false],
    ['64:ff9b::8.8.8.8', false],
    ['2001:0:808:808:0:0:f7f7:f7f7', false],
  ])('%s → %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });
});
