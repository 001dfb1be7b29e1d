import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { errorXml, escapeXml } from './s3-gate';

/**
 * ListObjectsV2 (`GET /<bucket>?list-type=2`) for the local S3 server, as S3 answers it
 * (docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html). s3rver's own answer makes its
 * continuation token with DES, which Node 24's OpenSSL no longer has: every truncated page was a 500
 * (issue 35). This Koa middleware, placed in s3rver's chain behind the gate's check, answers the
 * call itself from s3rver's store:
 *
 * - `max-keys`: a whole number from 0 (at most 1,000 keys a page, the number echoed as given);
 *   anything else is S3's 400 InvalidArgument. `prefix`, `delimiter` (CommonPrefixes, counted in
 *   KeyCount and in the page as S3 counts them), `start-after` (echoed when sent), `fetch-owner`
 *   and `encoding-type=url`.
 * - `IsTruncated`, `NextContinuationToken` and the `ContinuationToken` echoed; a continuation token
 *   wins over `start-after`. The token is the last key returned, signed with this start's secret:
 *   a token made up or of another bucket is S3's 400 InvalidArgument.
 * - ListObjects (version 1) and every other call stay s3rver's.
 */

/** What the middleware reads of s3rver's Koa context (s3rver is untyped). */
export interface S3rverContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
  set(name: string, value: string): void;
  store: S3rverStore;
}

interface S3rverStore {
  getBucket(bucket: string): Promise<unknown>;
  listObjects(
    bucket: string,
    options: { prefix?: string; startAfter?: string; maxKeys?: number; delimiter?: string },
  ): Promise<{
    objects: { key: string; size: number; lastModifiedDate: Date; metadata: Record<string, string> }[];
    commonPrefixes: string[];
    isTruncated: boolean;
  }>;
}

export interface ListOwner {
  id: string;
  displayName: string;
}

const MAX_KEYS_CAP = 1000;
const MAX_KEYS_LIMIT = 2147483647;

class ListRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new ListRefusal(400, 'InvalidArgument', message);

export function listObjectsV2(owner: ListOwner, secret: Buffer = randomBytes(32)) {
  const mac = (bucket: string, key: string) =>
    createHmac('sha256', secret).update(`${bucket}\n${key}`).digest().subarray(0, 16);
  const tokenFor = (bucket: string, key: string) =>
    `${Buffer.from(key, 'utf8').toString('base64url')}.${mac(bucket, key).toString('base64url')}`;
  const keyOf = (bucket: string, token: string): string => {
    const [encoded, signature, ...rest] = token.split('.');
    if (encoded !== undefined && signature !== undefined && rest.length === 0) {
      const key = Buffer.from(encoded, 'base64url').toString('utf8');
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(bucket, key);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return key;
    }
    throw invalid('The continuation token provided is incorrect');
  };

  return async (ctx: S3rverContext, next: () => Promise<unknown>) => {
    const bucket = /^\/([^/]+)\/?$/.exec(ctx.path)?.[1];
    if (ctx.method !== 'GET' || !bucket || one(ctx.query['list-type']) !== '2') return next();
    try {
      ctx.body = await list(ctx, decodeURIComponent(bucket));
      ctx.status = 200;
      ctx.type = 'application/xml';
    } catch (error) {
      if (!(error instanceof ListRefusal)) throw error;
      ctx.status = error.status;
      ctx.type = 'application/xml';
      ctx.set('x-amz-error-code', error.code);
      ctx.body = errorXml(error.code, error.message);
    }
    return undefined;
  };

  async function list(ctx: S3rverContext, bucket: string): Promise<string> {
    const query = (name: string) => one(ctx.query[name]);
    const maxKeysGiven = query('max-keys');
    let maxKeys = MAX_KEYS_CAP;
    if (maxKeysGiven !== undefined) {
      if (!/^-?\d+$/.test(maxKeysGiven)) throw invalid('Provided max-keys not an integer or within integer range');
      maxKeys = Number(maxKeysGiven);
      if (maxKeys < 0 || maxKeys > MAX_KEYS_LIMIT) {
        throw invalid(`Argument maxKeys must be an integer between 0 and ${MAX_KEYS_LIMIT}`);
      }
    }
    if (query('marker') !== undefined) throw invalid('Marker unsupported with REST.GET.BUCKET in list-type=2');
    const encodingType = query('encoding-type');
    if (encodingType !== undefined && encodingType !== 'url')
      throw invalid('Invalid Encoding Method specified in Request');
    if (!(await ctx.store.getBucket(bucket))) {
      throw new ListRefusal(404, 'NoSuchBucket', 'The specified bucket does not exist');
    }
    const continuationToken = query('continuation-token');
    const startAfterGiven = query('start-after');
    const prefix = query('prefix') ?? '';
    const delimiter = query('delimiter') || undefined;
    const startAfter = continuationToken !== undefined ? keyOf(bucket, continuationToken) : (startAfterGiven ?? '');

    // Keys and common prefixes in one order, as S3 pages them; MaxKeys counts both.
    const found = await ctx.store.listObjects(bucket, {
      prefix,
      startAfter,
      // With a delimiter the store does not count common prefixes in its page: the whole rest is read.
      ...(delimiter ? {} : { maxKeys: Math.min(maxKeys, MAX_KEYS_CAP) + 1 }),
    });
    type Entry = { kind: 'key'; object: (typeof found.objects)[number] } | { kind: 'prefix'; prefix: string };
    const entries: Entry[] = [];
    for (const object of found.objects) {
      const rest = object.key.slice(prefix.length);
      const at = delimiter ? rest.indexOf(delimiter) : -1;
      if (at < 0) {
        entries.push({ kind: 'key', object });
        continue;
      }
      const common = object.key.slice(0, prefix.length + at + delimiter!.length);
      const last = entries[entries.length - 1];
      // The page after a common prefix starts after every key under it.
      if (common <= startAfter && startAfter.startsWith(common)) continue;
      if (!(last?.kind === 'prefix' && last.prefix === common)) entries.push({ kind: 'prefix', prefix: common });
    }
    const page = entries.slice(0, Math.min(maxKeys, MAX_KEYS_CAP));
    // MaxKeys 0 lists nothing and, with no key to continue after, is not truncated (as s3rver had it).
    const truncated = page.length > 0 && entries.length > page.length;
    const lastEntry = page[page.length - 1];
    const nextAfter = !lastEntry
      ? undefined
      : lastEntry.kind === 'key'
        ? lastEntry.object.key
        : `${lastEntry.prefix}\u{10FFFF}`;

    const encode = (text: string) => (encodingType === 'url' ? encodeURIComponent(text).replace(/%2F/g, '/') : text);
    const element = (name: string, value: string | number | boolean | undefined) =>
      value === undefined ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;
    const fetchOwner = query('fetch-owner') === 'true';
    const body = [
      element('Name', bucket),
      element('Prefix', encode(prefix)),
      startAfterGiven !== undefined ? element('StartAfter', encode(startAfterGiven)) : '',
      element('ContinuationToken', continuationToken),
      element('NextContinuationToken', truncated && nextAfter !== undefined ? tokenFor(bucket, nextAfter) : undefined),
      element('KeyCount', page.length),
      element('MaxKeys', maxKeys),
      delimiter ? element('Delimiter', encode(delimiter)) : '',
      encodingType ? element('EncodingType', encodingType) : '',
      element('IsTruncated', truncated),
      ...page.map((entry) =>
        entry.kind === 'prefix'
          ? `<CommonPrefixes>${element('Prefix', encode(entry.prefix))}</CommonPrefixes>`
          : [
              '<Contents>',
              element('Key', encode(entry.object.key)),
              element('LastModified', entry.object.lastModifiedDate.toISOString()),
              element('ETag', entry.object.metadata.etag),
              element('Size', entry.object.size),
              fetchOwner ? `<Owner>${element('ID', owner.id)}${element('DisplayName', owner.displayName)}</Owner>` : '',
              element('StorageClass', 'STANDARD'),
              '</Contents>',
            ].join(''),
      ),
    ].join('');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${body}</ListBucketResult>`;
  }
}

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
