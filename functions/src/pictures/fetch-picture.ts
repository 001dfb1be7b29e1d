import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Fetches one supplier picture for the import, within limits: http and https only, a timeout per
 * attempt, a few retries with backoff on what may pass (a network fault, a timeout, 429, 5xx), at
 * most a few redirects (each checked again), an image content type, and a size limit, counted as
 * the bytes arrive. Never a private, loopback or link-local address: the address is checked when
 * the connection is made (the lookup the socket uses), so a name that resolves elsewhere between
 * a check and the connect cannot slip through, and again at every redirect. The one exception is
 * by configuration: origins in `allowedPrivateOrigins` (npm start's test image server on
 * 127.0.0.1) may be reached at their private address; nothing in AWS sets it.
 */

export interface FetchLimits {
  /** One attempt, from the connect to the last byte. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Further attempts after the first, for what may pass. */
  retries: number;
  /** The wait before the first retry; doubled for each next one. */
  backoffMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 3,
  retries: 2,
  backoffMs: 500,
};

/** The content types accepted (the body is checked again by decoding it). */
export const PICTURE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
]);

export interface FetchPolicy {
  /** Origins (`http://127.0.0.1:4321`) that may be reached although their address is private. */
  allowedPrivateOrigins?: ReadonlySet<string>;
  limits?: Partial<FetchLimits>;
}

export interface FetchedPicture {
  body: Buffer;
  contentType: string;
  /** The address the bytes came from, after redirects. */
  finalUrl: string;
}

/** Why a picture could not be fetched, in words for the import report; `retry` when another attempt may pass. */
export class PictureFetchError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'PictureFetchError';
  }
}

/**
 * True for an address no picture may come from. Addresses are classified by ipaddr.js's ranges (a
 * maintained table of the IANA special-purpose registries), not by a list of our own: only
 * `unicast` passes, for IPv4 and IPv6. An IPv6 address that carries an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) passes only when each IPv4 address it
 * carries does: `[::7f00:1]`, `[::ffff:0:7f00:1]` and `[2002:7f00:1::]` are loopback (issue 35).
 * Anything that is not an IP address is refused.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address).range() !== 'unicast';
  if (family !== 6) return true;
  const ipv6 = ipaddr.IPv6.parse(address);
  const carried = carriedIpv4(ipv6);
  if (carried === null) return true;
  if (carried.length > 0) return carried.some((ipv4) => ipv4.range() !== 'unicast');
  return ipv6.range() !== 'unicast';
}

/**
 * The IPv4 addresses an IPv6 address carries: none for a plain one, null for a form that carries
 * one where it is not known (the local-use NAT64 prefix 64:ff9b:1::/48 puts it where the network
 * chose), which is refused.
 */
function carriedIpv4(ipv6: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const parts = ipv6.parts;
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  const last = ipv4(parts[6]!, parts[7]!);
  switch (ipv6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [last];
    case 'rfc6052':
      return parts[2] === 0 ? [last] : null;
    case '6to4':
      return [ipv4(parts[1]!, parts[2]!)];
    case 'teredo':
      // The Teredo server, and the client's public address (stored inverted).
      return [ipv4(parts[2]!, parts[3]!), ipv4(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
    case 'unicast':
      // IPv4-compatible (::/96, deprecated but still parsed by stacks).
      return parts.slice(0, 6).every((part) => part === 0) ? [last] : [];
    default:
      return [];
  }
}

const PRIVATE_ADDRESS = 'its host is a private or local network address, which pictures are never fetched from';

/** A lookup for the socket that refuses blocked addresses unless the origin is allowed. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((entry) => !isBlockedAddress(entry.address));
      if (usable.length === 0) {
        return callback(Object.assign(new Error(PRIVATE_ADDRESS), { code: 'EPORTALBLOCKED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/** The address's host as a bare IP when it is one (`[::1]` → `::1`). */
const literalIp = (url: URL): string | null => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
};

/** Fetches `address` within the policy's limits; throws PictureFetchError in words. */
export async function fetchPicture(address: string, policy: FetchPolicy = {}): Promise<FetchedPicture> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...policy.limits };
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchFollowing(address, policy, limits);
    } catch (error) {
      const failure =
        error instanceof PictureFetchError
          ? error
          : new PictureFetchError(`it could not be downloaded (${describe(error)})`, true);
      if (!failure.retry || attempt >= limits.retries) throw failure;
      await new Promise((resolve) => setTimeout(resolve, limits.backoffMs * 2 ** attempt));
    }
  }
}

async function fetchFollowing(address: string, policy: FetchPolicy, limits: FetchLimits): Promise<FetchedPicture> {
  let url = parseAddress(address);
  for (let hops = 0; ; hops++) {
    const answer = await fetchOnce(url, policy, limits);
    if (answer.kind === 'picture') return { ...answer.picture, finalUrl: url.href };
    if (hops >= limits.maxRedirects) {
      throw new PictureFetchError(`it redirects more than ${limits.maxRedirects} times`, false);
    }
    url = parseAddress(new URL(answer.location, url).href);
  }
}

function parseAddress(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new PictureFetchError('it is not a valid address', false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PictureFetchError(`only http and https addresses are fetched, not ${url.protocol}`, false);
  }
  return url;
}

type Answer = { kind: 'picture'; picture: Omit<FetchedPicture, 'finalUrl'> } | { kind: 'redirect'; location: string };

function fetchOnce(url: URL, policy: FetchPolicy, limits: FetchLimits): Promise<Answer> {
  const allowPrivate = policy.allowedPrivateOrigins?.has(url.origin) ?? false;
  const ip = literalIp(url);
  if (ip && !allowPrivate && isBlockedAddress(ip)) {
    return Promise.reject(new PictureFetchError(PRIVATE_ADDRESS, false));
  }
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { accept: [...PICTURE_CONTENT_TYPES].join(', '), 'user-agent': 'reseller-portal-image-fetcher' },
        lookup: guardedLookup(allowPrivate),
        agent: false,
      },
      (response) => onResponse(response),
    );
    const timer = setTimeout(() => {
      request.destroy();
      settle(() => reject(new PictureFetchError(`it did not arrive within ${limits.timeoutMs / 1000} s`, true)));
    }, limits.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      settle(() =>
        reject(
          error.code === 'EPORTALBLOCKED'
            ? new PictureFetchError(PRIVATE_ADDRESS, false)
            : error.code === 'ENOTFOUND'
              ? new PictureFetchError(`its host ${url.hostname} does not exist`, false)
              : new PictureFetchError(`it could not be downloaded (${describe(error)})`, true),
        ),
      );
    });
    request.end();

    function onResponse(response: IncomingMessage) {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        response.resume();
        const location = response.headers.location;
        if (!location)
          return settle(() => reject(new PictureFetchError(`it answered ${status} without a Location`, false)));
        return settle(() => resolve({ kind: 'redirect', location }));
      }
      if (status !== 200) {
        response.resume();
        const retry = status === 429 || status >= 500;
        return settle(() => reject(new PictureFetchError(`its server answered ${status}`, retry)));
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!PICTURE_CONTENT_TYPES.has(contentType)) {
        response.destroy();
        return settle(() =>
          reject(
            new PictureFetchError(
              `it is ${contentType ? `of type ${contentType}` : 'of no stated type'}, not a JPEG, PNG, WebP, GIF or AVIF picture`,
              false,
            ),
          ),
        );
      }
      const tooLarge = () => new PictureFetchError(`it is larger than ${sizeInWords(limits.maxBytes)}`, false);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        response.destroy();
        return settle(() => reject(tooLarge()));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          response.destroy();
          settle(() => reject(tooLarge()));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) =>
        settle(() => reject(new PictureFetchError(`it broke off while downloading (${describe(error)})`, true))),
      );
      response.on('end', () =>
        settle(() => resolve({ kind: 'picture', picture: { body: Buffer.concat(chunks), contentType } })),
      );
      // The connection closed before the whole body came (settle ignores this after 'end').
      response.on('close', () => settle(() => reject(new PictureFetchError('it broke off while downloading', true))));
    }
  });
}

const sizeInWords = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
