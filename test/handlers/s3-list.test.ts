import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { localAws } from '../../infra/local/dynamo';
import { LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';

/**
 * ListObjectsV2 on the local S3 server follows S3 (issue 35: MaxKeys=3 answered 500): pages of
 * MaxKeys with IsTruncated, NextContinuationToken and KeyCount, the ContinuationToken echoed,
 * StartAfter and Prefix; a MaxKeys that is not a number from 0 is S3's 400 InvalidArgument.
 * Through the real SDK client, against the run's S3 server.
 */
const credentials = {
  accessKeyId: process.env.AWS_ACCESS_KEY_ID!,
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY!,
};
const client = () =>
  new S3Client({ endpoint: process.env.S3_ENDPOINT, forcePathStyle: true, region: localAws.region, credentials });
/** A folder of its own per run: the bucket is the run's, shared with other tests. */
const prefix = `imports/list-${randomBytes(6).toString('hex')}/`;
const keys = Array.from({ length: 7 }, (_, index) => `${prefix}object-${index + 1}.csv`);
/** A tree under its own folder, for the delimiter. */
const tree = `${prefix.slice(0, -1)}-tree/`;
const treeKeys = ['a.csv', 'b/1.csv', 'b/2.csv', 'b/3.csv', 'c/1.csv', 'd.csv'].map((name) => `${tree}${name}`);

beforeAll(async () => {
  for (const key of [...keys, ...treeKeys, `imports/list-elsewhere-${randomBytes(4).toString('hex')}.csv`]) {
    await client().send(new PutObjectCommand({ Bucket: LOCAL_IMPORTS_BUCKET, Key: key, Body: 'a,b\n' }));
  }
});

const list = (input: Partial<ConstructorParameters<typeof ListObjectsV2Command>[0]>) =>
  client().send(new ListObjectsV2Command({ Bucket: LOCAL_IMPORTS_BUCKET, Prefix: prefix, ...input }));

describe('ListObjectsV2 on the local S3 server', () => {
  it('lists 7 objects 3 at a time: IsTruncated, NextContinuationToken, KeyCount, the token echoed', async () => {
    const first = await list({ MaxKeys: 3 });
    expect(first.$metadata.httpStatusCode).toBe(200);
    expect(first.Contents?.map((object) => object.Key)).toEqual(keys.slice(0, 3));
    expect([first.KeyCount, first.MaxKeys, first.IsTruncated, first.Prefix]).toEqual([3, 3, true, prefix]);
    expect(first.NextContinuationToken).toEqual(expect.any(String));
    expect(first.ContinuationToken).toBeUndefined();

    const second = await list({ MaxKeys: 3, ContinuationToken: first.NextContinuationToken });
    expect(second.Contents?.map((object) => object.Key)).toEqual(keys.slice(3, 6));
    expect([second.KeyCount, second.IsTruncated, second.ContinuationToken]).toEqual([
      3,
      true,
      first.NextContinuationToken,
    ]);

    const third = await list({ MaxKeys: 3, ContinuationToken: second.NextContinuationToken });
    expect(third.Contents?.map((object) => object.Key)).toEqual(keys.slice(6));
    expect([third.KeyCount, third.IsTruncated, third.NextContinuationToken]).toEqual([1, false, undefined]);
    for (const object of [...first.Contents!, ...second.Contents!, ...third.Contents!]) {
      expect(object.Size).toBe(4);
      expect(object.ETag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(object.LastModified).toBeInstanceOf(Date);
    }
  });

  it('pages exactly at the end: 7 objects 7 at a time are one page, not truncated', async () => {
    const all = await list({ MaxKeys: 7 });
    expect([all.KeyCount, all.IsTruncated, all.NextContinuationToken]).toEqual([7, false, undefined]);
    const more = await list({});
    expect([more.KeyCount, more.MaxKeys, more.IsTruncated]).toEqual([7, 1000, false]);
  });

  it('starts after a key (StartAfter echoed), and a continuation token wins over StartAfter', async () => {
    const after = await list({ StartAfter: keys[4], MaxKeys: 3 });
    expect(after.Contents?.map((object) => object.Key)).toEqual(keys.slice(5));
    expect([after.StartAfter, after.KeyCount, after.IsTruncated]).toEqual([keys[4], 2, false]);
    const first = await list({ MaxKeys: 2 });
    const next = await list({ MaxKeys: 2, StartAfter: keys[5], ContinuationToken: first.NextContinuationToken });
    expect(next.Contents?.map((object) => object.Key)).toEqual(keys.slice(2, 4));
  });

  it('with a delimiter, pages keys and common prefixes together, a common prefix counted once', async () => {
    const first = await list({ Prefix: tree, Delimiter: '/', MaxKeys: 2 });
    expect(first.Contents?.map((object) => object.Key)).toEqual([`${tree}a.csv`]);
    expect(first.CommonPrefixes?.map((common) => common.Prefix)).toEqual([`${tree}b/`]);
    expect([first.KeyCount, first.IsTruncated, first.Delimiter]).toEqual([2, true, '/']);
    const second = await list({
      Prefix: tree,
      Delimiter: '/',
      MaxKeys: 2,
      ContinuationToken: first.NextContinuationToken,
    });
    expect(second.CommonPrefixes?.map((common) => common.Prefix)).toEqual([`${tree}c/`]);
    expect(second.Contents?.map((object) => object.Key)).toEqual([`${tree}d.csv`]);
    expect([second.KeyCount, second.IsTruncated]).toEqual([2, false]);
  });

  it('MaxKeys 0 lists nothing and is not truncated (nothing to continue after)', async () => {
    const none = await list({ MaxKeys: 0 });
    expect([none.KeyCount, none.MaxKeys, none.IsTruncated, none.Contents]).toEqual([0, 0, false, undefined]);
  });

  it('refuses a MaxKeys that is negative or no number, and a made-up continuation token, with 400 InvalidArgument', async () => {
    const refusal = async (input: Parameters<typeof list>[0]) => {
      const error = await list(input).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(S3ServiceException);
      const s3Error = error as S3ServiceException;
      return [s3Error.$metadata.httpStatusCode, s3Error.name];
    };
    expect(await refusal({ MaxKeys: -1 })).toEqual([400, 'InvalidArgument']);
    expect(await refusal({ ContinuationToken: 'not-a-token' })).toEqual([400, 'InvalidArgument']);
    // The SDK sends only numbers: its request, changed before it is signed, sends what another client may.
    const raw = client();
    raw.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as { query?: Record<string, string> };
        if (request.query) request.query['max-keys'] = 'three';
        return next(args);
      },
      { step: 'build' },
    );
    const error = await raw.send(new ListObjectsV2Command({ Bucket: LOCAL_IMPORTS_BUCKET, Prefix: prefix })).then(
      () => undefined,
      (thrown: unknown) => thrown as S3ServiceException,
    );
    expect([error?.$metadata.httpStatusCode, error?.name]).toEqual([400, 'InvalidArgument']);
  });
});
