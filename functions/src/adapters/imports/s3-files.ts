import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { env } from '../../config/env';
import { FileChangedError, type FileStore } from '../../imports/job-store';

const unquoted = (eTag: string | undefined) => (eTag ?? '').replace(/"/g, '');

/**
 * One client per environment object, as `env()` parses one: in Lambda that is once per container;
 * the local runtime runs many functions in one process, each with its own environment and so its
 * own credentials (the role's session a presigned POST is signed with).
 */
const clients = new WeakMap<object, S3Client>();
function s3(): S3Client {
  const source = process.env;
  let client = clients.get(source);
  if (!client) {
    const { S3_ENDPOINT, AWS_REGION } = env();
    client = new S3Client({
      region: AWS_REGION,
      ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
    });
    clients.set(source, client);
  }
  return client;
}

function importsBucket(): string {
  const bucket = env().IMPORTS_BUCKET;
  if (!bucket) throw new Error('Environment is incomplete: set IMPORTS_BUCKET');
  return bucket;
}

export const s3Files: FileStore = {
  bucket: importsBucket,

  async put(key, body, contentType) {
    await s3().send(new PutObjectCommand({ Bucket: importsBucket(), Key: key, Body: body, ContentType: contentType }));
  },

  async read(bucket, key, eTag, fromByte) {
    let result;
    try {
      result = await s3().send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ...(eTag ? { IfMatch: eTag } : {}),
          // A long import's later part reads from its checkpoint on.
          ...(fromByte ? { Range: `bytes=${fromByte}-` } : {}),
        }),
      );
    } catch (error) {
      // S3 refuses a GET whose If-Match no longer holds with 412 Precondition Failed.
      if (eTag && error instanceof Error && error.name === 'PreconditionFailed') throw new FileChangedError(key);
      throw error;
    }
    if (!result.Body) throw new Error(`s3://${bucket}/${key} has no body`);
    const body = result.Body as NodeJS.ReadableStream & AsyncIterable<Uint8Array> & { destroy?: () => void };
    // Checked here too: not every S3-compatible server honours If-Match (the local one ignores it).
    if (eTag && unquoted(result.ETag) !== unquoted(eTag)) {
      body.destroy?.();
      throw new FileChangedError(key);
    }
    return body;
  },

  async presignedPost(key, maxBytes) {
    const { url, fields } = await createPresignedPost(s3(), {
      Bucket: importsBucket(),
      Key: key,
      // S3 itself refuses an upload outside this range, whatever the browser sends.
      Conditions: [['content-length-range', 1, maxBytes]],
      Expires: 15 * 60,
    });
    return { url, fields };
  },
};
