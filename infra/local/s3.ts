import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type S3rver from 's3rver';
import { localAws } from './dynamo';
import { secureDir } from './files';
import { freePort } from './ports';
import { createS3Gate, gateOnly } from './s3-gate';

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
  /** The gate's endpoint (s3-gate.ts): the only one the portal, the SDK and the browser use. */
  endpoint: string;
  /** s3rver itself, for its ObjectCreated events; it listens on an internal loopback port. */
  server: S3rver;
  /** s3rver's own port, which refuses whatever does not come through the gate. */
  internalEndpoint: string;
  stop(): Promise<void>;
}

/**
 * An in-process S3-compatible server (s3rver) holding the imports bucket, on disk under `dataDir`,
 * behind a gate that checks every request as S3 does (s3-gate.ts). Both listen on 127.0.0.1 only.
 * Request bodies wait in `spoolDir` while they are checked (`<dataDir>.incoming` by default).
 */
export async function startS3(options: { dataDir: string; spoolDir?: string; port?: number }): Promise<LocalS3> {
  secureDir(options.dataDir);
  const spoolDir = options.spoolDir ?? `${options.dataDir}.incoming`;
  secureDir(spoolDir);
  const [port, internalPort] = await Promise.all([
    options.port ? Promise.resolve(options.port) : freePort(),
    freePort(),
  ]);
  // Loaded here rather than at the top: whoever imports this module for LOCAL_IMPORTS_BUCKET alone
  // (create-admin, the handler tests) does not pay the half second s3rver takes to load.
  const { default: S3rverServer } = await import('s3rver');
  const server = new S3rverServer({
    address: '127.0.0.1',
    port: internalPort,
    silent: true,
    directory: options.dataDir,
    configureBuckets: [{ name: LOCAL_IMPORTS_BUCKET, configs: [CORS] }],
  });
  // First in s3rver's middleware (Koa composes it when s3rver starts listening): only the gate,
  // which adds a token made for this start, gets through to s3rver.
  const token = randomBytes(24).toString('hex');
  (server as unknown as { middleware: unknown[] }).middleware.unshift(gateOnly(token));
  await server.run();
  const gate: Server = createS3Gate({
    upstream: { host: '127.0.0.1', port: internalPort },
    token,
    credentials: localAws.credentials,
    region: localAws.region,
    spoolDir,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      gate.once('error', reject);
      gate.listen(port, '127.0.0.1', resolve);
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    server,
    internalEndpoint: `http://127.0.0.1:${internalPort}`,
    stop: async () => {
      await new Promise<void>((resolve) => {
        gate.close(() => resolve());
        gate.closeAllConnections();
      });
      await server.close();
    },
  };
}
