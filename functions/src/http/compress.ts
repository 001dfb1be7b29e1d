import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Content negotiation for the API's JSON answers, and the same negotiation the local server uses
 * for the apps' files (infra/local/compression.ts, as CloudFront compresses the site buckets).
 *
 * CloudFront's `/api/*` behaviour uses the CachingDisabled policy, with which CloudFront does not
 * compress, and forwards the viewer's Accept-Encoding to the origin unchanged (its origin request
 * policy sends every viewer header; a cache policy with both EnableAcceptEncoding flags false
 * treats Accept-Encoding as any other header). So the functions compress their answers themselves:
 * an HTTP API (payload 2.0) answer with `isBase64Encoded: true` reaches the browser as the decoded
 * bytes with our Content-Encoding, and CloudFront does not compress an answer that has one.
 * Node's own zlib: no bytes added to a bundle.
 */

export type ContentEncoding = 'br' | 'gzip';

/** CloudFront compresses objects from 1,000 bytes; below that the headers cost more than is saved. */
export const MIN_COMPRESS_BYTES = 1_000;

/**
 * Brotli's quality for answers made per request: 5 makes a JSON page about a tenth larger than
 * quality 11 does, in 0.2–0.3 ms instead of 15–27 ms for 14–28 KB (decision 0191 has the figures).
 */
export const ANSWER_BROTLI_QUALITY = 5;
/** gzip's level for browsers without brotli: 6, zlib's own default, at a similar cost. */
export const ANSWER_GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer with for an Accept-Encoding header: br when accepted (q > 0), else gzip
 * (also for `*`), else none. Small enough to keep here rather than add a negotiation library: the
 * choice is only ever among these two codings and identity, and brotli is chosen whenever it is
 * accepted, as CloudFront chooses.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (coding: string) => accepted.get(coding) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/** The bytes of `body` in `encoding`, at the answers' settings. */
export function encode(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: ANSWER_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipAsync(body, { level: ANSWER_GZIP_LEVEL });
}

type Result = APIGatewayProxyStructuredResultV2;

/** A header of the answer by name, whatever its case. */
function headerOf(headers: Result['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

/** The answer's headers with `Accept-Encoding` added to its Vary (kept when it names it already). */
function varied(headers: Result['headers']): NonNullable<Result['headers']> {
  const out: NonNullable<Result['headers']> = {};
  let vary: string | undefined;
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === 'vary') vary = String(value);
    else out[key] = value;
  }
  const names = vary ? vary.split(',').map((name) => name.trim()) : [];
  if (!names.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*')) names.push('Accept-Encoding');
  out.vary = names.join(', ');
  return out;
}

/**
 * The answer as the request accepts it. Only a JSON answer in text that sets no cookie is
 * negotiated (the token-bearing answers of login and session checks set the refresh cookie and go
 * as they are, so no secret is ever compressed beside what a caller sent); it gets
 * `Vary: Accept-Encoding` either way. Its body is compressed when it is 1,000 bytes or more, the
 * request accepts br (preferred) or gzip, and the compressed bytes in base64 (what Lambda's answer
 * carries, within its 6 MB) are fewer than the body's own: then the body is those bytes in base64
 * with `isBase64Encoded: true` and `Content-Encoding`, every other header as it was.
 */
export async function negotiateAnswer(result: Result, acceptEncoding: string | undefined): Promise<Result> {
  if (typeof result.body !== 'string' || result.isBase64Encoded || result.cookies?.length) return result;
  const type = (headerOf(result.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' || headerOf(result.headers, 'content-encoding') !== undefined) return result;
  const headers = varied(result.headers);
  const encoding = chooseEncoding(acceptEncoding);
  const bytes = Buffer.from(result.body, 'utf8');
  if (!encoding || bytes.length < MIN_COMPRESS_BYTES) return { ...result, headers };
  const encoded = (await encode(bytes, encoding)).toString('base64');
  if (encoded.length >= bytes.length) return { ...result, headers };
  return {
    ...result,
    headers: { ...headers, 'content-encoding': encoding },
    body: encoded,
    isBase64Encoded: true,
  };
}
