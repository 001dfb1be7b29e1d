import { mkdirSync } from 'node:fs';
import type S3rver from 's3rver';
import { freePort } from './ports';

/** The imports bucket's name locally; in AWS the stack names it and passes it in the environment. */
export const LOCAL_IMPORTS_BUCKET = 'reseller-portal-imports';

/**
 * The browser posts large CSVs straight to the bucket with a presigned POST, from the portal's
 * origin: the bucket allows that cross-origin POST, as the deployed bucket's CORS rule does.
 */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export interface LocalS3 {
  endpoint: string;
  server: S3rver;
  stop(): Promise<void>;
}

/** An in-process S3-compatible server (s3rver) holding the imports bucket, on disk under `dataDir`. */
export async function startS3(options: { dataDir: string; port?: number }): Promise<LocalS3> {
  mkdirSync(options.dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  // Loaded here rather than at the top: whoever imports this module for LOCAL_IMPORTS_BUCKET alone
  // (create-admin, the handler tests) does not pay the half second s3rver takes to load.
  const { default: S3rverServer } = await import('s3rver');
  const server = new S3rverServer({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: options.dataDir,
    configureBuckets: [{ name: LOCAL_IMPORTS_BUCKET, configs: [CORS] }],
  });
  await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, server, stop: () => server.close() };
}
