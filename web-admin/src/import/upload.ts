import { ApiError } from '@portal/shared/api/client';
import { formatBytes } from '@portal/shared/domain/format';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '@portal/shared/api/limits';
import type { ImportJob } from '@portal/shared/api/products';
import type { AuthView } from '@portal/shared/ui/hooks/AuthProvider';

/**
 * How a supplier CSV reaches the imports bucket. Files up to 4 MB go through /api/products as
 * multipart (one request; the API stays well inside the request-size limit of the gateway and
 * Lambda). Larger ones, up to 100 MB, go straight to the bucket with a presigned POST from
 * /api/createProductUpload. Either way the bucket's ObjectCreated event runs the import and the
 * screen follows the job.
 */

export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

/** The upload of a 4 MB file through the API may take longer than an ordinary call. */
const DIRECT_UPLOAD_TIMEOUT_MS = 120_000;

/** The columns of the supplier's CSV format (spec section 3, Imported product). */
export const SUPPLIER_COLUMNS = [
  'product_name',
  'brand',
  'msrp_us',
  'dropshipping_price_us',
  'product_images_1 … product_images_6',
  'additional_product_images',
  'html_description',
  'url',
  'spu_no',
] as const;

/** Why this file cannot be uploaded, in words, or null when it can. */
export function checkFile(file: File): string | null {
  if (!/\.csv$/i.test(file.name.trim())) {
    return `"${file.name}" is not a .csv file. Only the supplier's CSV format is accepted.`;
  }
  if (file.size === 0) return `"${file.name}" is empty.`;
  if (file.size > MAX_PRESIGNED_UPLOAD_BYTES) {
    return `"${file.name}" is ${formatBytes(file.size)}: larger than 100 MB, the largest supplier CSV accepted.`;
  }
  return null;
}

export interface UploadProgress {
  /** Which way the file travels. */
  route: 'api' | 'presigned';
  /** 0..1 while known (the presigned POST reports it); null while it is not. */
  fraction: number | null;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Sends the file and answers the job that will import it. Rejects with an ApiError in words. */
export async function uploadCsv(call: AuthView['call'], file: File, options: UploadOptions = {}): Promise<ImportJob> {
  const { onProgress, signal } = options;
  if (file.size <= DIRECT_UPLOAD_MAX_BYTES) {
    onProgress?.({ route: 'api', fraction: null });
    const form = new FormData();
    form.append('file', file, file.name);
    const answer = await call('products', form, { signal, timeoutMs: DIRECT_UPLOAD_TIMEOUT_MS });
    onProgress?.({ route: 'api', fraction: 1 });
    return answer.job;
  }
  onProgress?.({ route: 'presigned', fraction: 0 });
  const { job, url, fields } = await call('createProductUpload', { fileName: file.name, size: file.size }, { signal });
  await fileStore.post(url, fields, file, {
    signal,
    onProgress: (fraction) => onProgress?.({ route: 'presigned', fraction }),
  });
  onProgress?.({ route: 'presigned', fraction: 1 });
  return job;
}

/** S3 answers a refused POST with XML; its <Message> says why. */
export function s3ErrorMessage(body: string): string | null {
  const match = /<Message>([\s\S]*?)<\/Message>/.exec(body);
  return match?.[1]?.trim() || null;
}

/**
 * The presigned POST to the bucket: every field of `fields` first and the file last, as S3
 * requires. XMLHttpRequest rather than fetch, because only it reports upload progress, which a
 * 100 MB file needs. One object so tests can replace it.
 */
export const fileStore = {
  post(
    url: string,
    fields: Record<string, string>,
    file: File,
    options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', file, file.name);

      const request = new XMLHttpRequest();
      const onAbort = () => request.abort();
      const done = () => options.signal?.removeEventListener('abort', onAbort);
      request.open('POST', url);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
      };
      request.onload = () => {
        done();
        if (request.status >= 200 && request.status <= 299) {
          resolve();
          return;
        }
        const reason = s3ErrorMessage(request.responseText ?? '');
        reject(
          new ApiError(
            `The file store refused the upload${reason ? `: ${reason}` : ` (status ${request.status})`}. Try again.`,
            'http',
            request.status,
          ),
        );
      };
      request.onerror = () => {
        done();
        reject(
          new ApiError(
            'Network Error: the file could not be sent to the file store. Check your connection and try again.',
            'network',
          ),
        );
      };
      request.onabort = () => {
        done();
        reject(new ApiError('Request aborted', 'aborted'));
      };
      if (options.signal?.aborted) {
        reject(new ApiError('Request aborted', 'aborted'));
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      request.send(form);
    });
  },
};
