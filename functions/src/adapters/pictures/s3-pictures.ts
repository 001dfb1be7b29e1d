import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { HostedPicture } from '@portal/shared/domain/pictures';
import { env } from '../../config/env';
import type { PictureStore } from '../../pictures/picture-store';

/**
 * The images bucket: `images/<sha256>/original` and `images/<sha256>/<width>.webp` (served by
 * CloudFront at `/images/*`, cached a year: a key never gets other bytes), and `sources/<sha256 of
 * the address>.json`, which address gave which picture (outside `images/`, so never served).
 */

/** Content-addressed objects never change: browsers and CloudFront may keep them for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

let client: S3Client | undefined;
function s3(): S3Client {
  const { S3_ENDPOINT, AWS_REGION } = env();
  client ??= new S3Client({
    region: AWS_REGION,
    ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
  });
  return client;
}

export function imagesBucket(): string {
  const bucket = env().IMAGES_BUCKET;
  if (!bucket) throw new Error('Environment is incomplete: set IMAGES_BUCKET');
  return bucket;
}

const sourceKey = (addressHash: string) => `sources/${addressHash}.json`;

const isMissing = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

export const s3Pictures: PictureStore = {
  async sourceOf(addressHash) {
    try {
      const result = await s3().send(new GetObjectCommand({ Bucket: imagesBucket(), Key: sourceKey(addressHash) }));
      const text = await result.Body?.transformToString();
      return text ? (JSON.parse(text) as HostedPicture) : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },

  async rememberSource(addressHash, picture) {
    await s3().send(
      new PutObjectCommand({
        Bucket: imagesBucket(),
        Key: sourceKey(addressHash),
        Body: JSON.stringify(picture),
        ContentType: 'application/json',
      }),
    );
  },

  async hasOriginal(hash) {
    try {
      await s3().send(new HeadObjectCommand({ Bucket: imagesBucket(), Key: `images/${hash}/original` }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  },

  async put(key, body, contentType) {
    await s3().send(
      new PutObjectCommand({
        Bucket: imagesBucket(),
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: IMMUTABLE,
      }),
    );
  },
};
