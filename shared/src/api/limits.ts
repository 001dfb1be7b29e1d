/**
 * Limits the apps check before they call the API, in a module without zod: the admin app's first
 * script imports it, and zod loads with the API's schemas only (shared/src/api/client.ts).
 */

/** The largest supplier CSV the presigned upload accepts (products.ts checks it on the server). */
export const MAX_PRESIGNED_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * The largest file /api/products takes. Lambda takes at most 6 MB of request, and API Gateway sends
 * a file's body base64-encoded (4 bytes for every 3): a 4 MiB file with its multipart framing
 * arrives as about 5.7 MB, under that limit, where a 5 MB file would be about 7 MB and never reach
 * the function. Larger files go to S3 with a presigned POST (createProductUpload).
 */
export const MAX_DIRECT_UPLOAD_BYTES = 4 * 1024 * 1024;
