import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type S3rver from 's3rver';
import { localAws } from './dynamo';
import { secureDir, writePrivateFile } from './files';
import { freePort } from './ports';
import { createS3Gate, gateOnly, type S3GateOptions } from './s3-gate';
import { listObjectsV2 } from './s3-list';

/** The imports bucket's name locally; in AWS the stack names it and passes it in the environment. */
export const LOCAL_IMPORTS_BUCKET = 'reseller-portal-imports';

/** The hosted pictures' bucket locally (issue 28); the portal serves its `images/` keys at `/images/*`. */
export const LOCAL_IMAGES_BUCKET = 'reseller-portal-images';

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

/** s3rver's account of its (untyped) lib/models/account.js. */
interface S3rverAccount {
  id: string;
  displayName: string;
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}

/** The key pair the S3 gate checks every signature against. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * A new key pair: `npm start` makes one per data folder (kept in `.local/secrets.json` with the
 * other local secrets), the tests one per start. Nothing else on the machine knows it, so no other
 * user can list, read or upload imports (the gate refuses every other key, s3rver's well-known
 * `S3RVER` pair among them).
 */
export const newS3Credentials = (): S3Credentials => ({
  accessKeyId: `LOCAL${randomBytes(10).toString('hex').toUpperCase()}`,
  secretAccessKey: randomBytes(30).toString('base64url'),
});

/**
 * The data folder's key pair, kept in `<dataDir>/secrets.json` (0600) beside the other local
 * secrets as `s3AccessKeyId` and `s3SecretAccessKey`; made on the first start.
 */
export function localS3Credentials(dataDir: string): S3Credentials {
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (typeof stored.s3AccessKeyId === 'string' && typeof stored.s3SecretAccessKey === 'string') {
    return { accessKeyId: stored.s3AccessKeyId, secretAccessKey: stored.s3SecretAccessKey };
  }
  const made = newS3Credentials();
  writePrivateFile(
    file,
    JSON.stringify({ ...stored, s3AccessKeyId: made.accessKeyId, s3SecretAccessKey: made.secretAccessKey }),
  );
  return made;
}

export interface LocalS3 {
  /** The gate's endpoint (s3-gate.ts): the only one the portal, the SDK and the browser use. */
  endpoint: string;
  /** The key the gate accepts: every S3 client of the portal and the tests signs with it. */
  credentials: S3Credentials;
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
export async function startS3(options: {
  dataDir: string;
  spoolDir?: string;
  port?: number;
  /** The key to accept; a new one (newS3Credentials) when not given. */
  credentials?: S3Credentials;
  /** POST uploads authorized as their signer (s3-gate.ts `authorizeUpload`). */
  authorizeUpload?: S3GateOptions['authorizeUpload'];
}): Promise<LocalS3> {
  const credentials = options.credentials ?? newS3Credentials();
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
  // s3rver looks the request's key up in its own registry (behind the gate, which has checked the
  // signature): it knows this key pair, and no longer its built-in S3RVER pair.
  const s3rverAccounts = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: S3rverAccount;
  };
  s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  const server = new S3rverServer({
    address: '127.0.0.1',
    port: internalPort,
    silent: true,
    directory: options.dataDir,
    configureBuckets: [
      { name: LOCAL_IMPORTS_BUCKET, configs: [CORS] },
      { name: LOCAL_IMAGES_BUCKET, configs: [] },
    ],
  });
  // First in s3rver's middleware (Koa composes it when s3rver starts listening): only the gate,
  // which adds a token made for this start, gets through to s3rver.
  const token = randomBytes(24).toString('hex');
  // Then ListObjectsV2, answered as S3 does (s3-list.ts: s3rver's own fails on every truncated page).
  const owner = s3rverAccounts.DUMMY_ACCOUNT;
  (server as unknown as { middleware: unknown[] }).middleware.unshift(
    gateOnly(token),
    listObjectsV2({ id: owner.id, displayName: owner.displayName }),
  );
  await server.run();
  const gate: Server = createS3Gate({
    upstream: { host: '127.0.0.1', port: internalPort },
    token,
    credentials,
    region: localAws.region,
    spoolDir,
    authorizeUpload: options.authorizeUpload,
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
    credentials,
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
