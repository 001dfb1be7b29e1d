import type { HostedPicture } from '@portal/shared/domain/pictures';

/**
 * Where hosted pictures live: the images bucket (S3 in AWS, the local S3 server under npm start).
 * Keys under `images/` are what CloudFront serves at `/images/*`; the record of which supplier
 * address gave which picture is kept outside that prefix, so it is never served.
 */
export interface PictureStore {
  /** What was hosted for a supplier address, by the SHA-256 of the address; undefined when never. */
  sourceOf(addressHash: string): Promise<HostedPicture | undefined>;
  /** Records what an address gave, after its variants and original are stored. */
  rememberSource(addressHash: string, picture: HostedPicture): Promise<void>;
  /** True when the original of this content hash is stored (its variants were stored before it). */
  hasOriginal(hash: string): Promise<boolean>;
  /** Stores one object for good (the keys are content-addressed: a key never gets other bytes). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}
