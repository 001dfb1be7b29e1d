import type { Call } from '../call';
import { UploadForm, UploadResult } from '../products';

/**
 * POST /api/products (admin): Multipart upload of a supplier CSV (a file up to
 * MAX_DIRECT_UPLOAD_BYTES, in the field `file`); the import runs from the S3 event. Larger files
 * go through createProductUpload.
 */
export const uploadProducts = {
  name: 'products',
  path: '/api/products',
  role: 'admin',
  body: 'multipart',
  request: UploadForm,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const uploadProductsResponse = UploadResult;
