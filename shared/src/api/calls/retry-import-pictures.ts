import type { Call } from '../call';
import { ImportJobRequest, RetryPicturesResult } from '../products';

/**
 * POST /api/retryImportPictures (admin): Tries the failed pictures of an import again (issue 38):
 * their products go back to the picture queue; the import's progress shows them as they pass.
 */
export const retryImportPictures = {
  name: 'retryImportPictures',
  path: '/api/retryImportPictures',
  role: 'admin',
  body: 'json',
  request: ImportJobRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const retryImportPicturesResponse = RetryPicturesResult;
