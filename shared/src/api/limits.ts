/**
 * Limits the apps check before they call the API, in a module without zod: the admin app's first
 * script imports it, and zod loads with the API's schemas only (shared/src/api/client.ts).
 */

/** The largest supplier CSV the presigned upload accepts (products.ts checks it on the server). */
export const MAX_PRESIGNED_UPLOAD_BYTES = 100 * 1024 * 1024;
