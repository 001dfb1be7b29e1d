import type { Call } from '../call';
import { UploadUrl, UploadUrlRequest } from '../products';

/**
 * POST /api/createProductUpload (admin): A presigned S3 POST for files up to 100 MB, which then
 * import exactly like /api/products.
 */
export const createProductUpload = {
  name: 'createProductUpload',
  path: '/api/createProductUpload',
  role: 'admin',
  body: 'json',
  request: UploadUrlRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const createProductUploadResponse = UploadUrl;
