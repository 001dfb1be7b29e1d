import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { functionEnvironment } from '../lib/bundling';
import type { ApiHandler } from './api-event';
import { functionOfSessionToken, installFunctionEnvironments, lambdaEnvironment, type StandIns } from './function-env';
import { invokeEvent } from './invoker';
import { installReadOnlyFileSystem } from './read-only-fs';
import {
  dailyCronTime,
  localContexts,
  localEnvironment,
  synthesizeTemplates,
  templateFunctions,
  TEST_TEMPLATE_CACHE,
  templateQueues,
  withTrigger,
  type LocalFunction,
  type SynthesizedTemplates,
  type TemplateFunction,
} from './template';
import { buildWebApps, precompressApps } from './build-web';
import { ensureTable, localAws, startDynamo, tableStreamArn } from './dynamo';
import { checkpointFile, mappingSettings, onFailureMessage, pollStream } from './stream-events';
import { LOCAL_IMAGES_BUCKET, LOCAL_IMPORTS_BUCKET, localS3Credentials, startS3, type S3Credentials } from './s3';
import { startImageServer } from './image-server';
import { startStripeEmulator } from './stripe';
import { forwardObjectCreated, type EventForwarder } from './s3-events';
import { startSqs } from './sqs';
import { createTemplateQueues, pollQueue } from './sqs-events';
import type { DailyPayoutsResult } from '../../functions/src/handlers/scheduled/daily-payouts';
import { lockDataDir } from './data-lock';
import { privateUmask, secureDir, secureTree, writePrivateFile } from './files';
import { writePortalMarker } from './portal-marker';
import { createPortalServer, type HostedImage } from './server';
import { assemblyFromTemplates } from './iam/assembly';
import { deniedUpload, enforceIam } from './iam/enforce';

/**
 * The embedded default: everything the portal needs, on this machine, with no AWS account.
 * DynamoDB Local (Amazon's engine) and an S3 server hold the data under `.local/`; one HTTP
 * server serves both apps and runs the very handler modules Lambda runs.
 */

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TABLE_NAME = 'reseller-portal';
/** Where the emulator posts its events: the two webhook routes, once the route table has them. */
const STRIPE_WEBHOOK_PATH = '/api/stripeWebhook';
const STRIPE_CONNECT_WEBHOOK_PATH = '/api/stripeConnectWebhook';

export const demoAccounts = {
  admin: { email: 'admin@example.com', password: 'admin-demo-password' },
  member: { email: 'member@example.com', password: 'member-demo-password' },
};

export interface PortalOptions {
  port?: number;
  host?: string;
  /** Where the data lives; survives restarts. Defaults to `.local/` in the repository. */
  dataDir?: string;
  quiet?: boolean;
  /** Print every API request, not only failures and slow ones (LOG_LEVEL=debug). */
  logEveryRequest?: boolean;
  /**
   * Seeds the demo catalogue (36 products with pictures, demo-catalogue.ts) once per data
   * folder. `npm start` does; the browser tests start without it.
   */
  seedDemo?: boolean;
  /** Builds the apps when their sources changed (default); the engine tests start without. */
  buildWeb?: boolean;
  /**
   * Hosts the pictures of imports (issue 28): the images bucket, `/images/*`, and the test image
   * server the import may fetch from. On with the demo (npm start); the browser suite's shared
   * portal starts without, so its made-up supplier hosts stay the browser's (test/e2e/pictures.test.ts
   * starts one with it).
   */
  hostPictures?: boolean;
  /**
   * Where the synthesized template is cached (template.ts): `<dataDir>/template`, or under Vitest
   * (whose portals live in fresh temporary folders) the test setups' cdk.out/local-template.
   */
  templateCacheDir?: string;
}

export interface Portal {
  url: string;
  /** The local Stripe emulator the functions talk to (`STRIPE_API_URL`). */
  stripeUrl: string;
  /** Started with STRIPE_SECRET_KEY set and STRIPE_API_URL unset: the functions talk to Stripe itself. */
  ownStripeKey: boolean;
  accounts: typeof demoAccounts;
  /** The test image server's origin, when pictures are hosted: it serves `<dataDir>/demo-images/<name>.jpg`. */
  picturesOrigin?: string;
  stop(): Promise<void>;
}

export interface LocalSecrets {
  tokenSigningKey: string;
  /** The only secret key the emulator accepts (any other is answered 401, as Stripe does); a random one per data folder. */
  stripeSecretKey: string;
  /** The emulator signs the platform's own events with it, `/api/stripeWebhook` verifies them with it. */
  stripeWebhookSecret: string;
  /** The emulator signs the connected accounts' events with it, `/api/stripeConnectWebhook` verifies them with it. */
  stripeConnectWebhookSecret: string;
  /** The pair's `pk_test_…` key: the browser makes card tokens at the emulator with it. */
  stripePublishableKey: string;
}

/**
 * Secrets made once per data folder, so sessions survive a restart but no two setups share one.
 * A folder from before the Stripe pair gets the pair added and keeps its signing key.
 */
export function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const secrets: LocalSecrets = {
    tokenSigningKey: stored.tokenSigningKey ?? randomBytes(48).toString('base64url'),
    stripeSecretKey: stored.stripeSecretKey ?? `sk_test_${randomBytes(24).toString('hex')}`,
    stripeWebhookSecret: stored.stripeWebhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`,
    stripeConnectWebhookSecret: stored.stripeConnectWebhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`,
    stripePublishableKey: stored.stripePublishableKey ?? `pk_test_${randomBytes(24).toString('hex')}`,
  };
  const changed = (Object.keys(secrets) as (keyof LocalSecrets)[]).some((name) => stored[name] !== secrets[name]);
  // Other entries of the file (the S3 key pair, s3.ts) are kept.
  if (changed) writePrivateFile(file, JSON.stringify({ ...stored, ...secrets }));
  return secrets;
}

/** LOG_LEVEL=debug: every request and every handler log line. */
const isDebug = (): boolean => (process.env.LOG_LEVEL ?? '').toLowerCase() === 'debug';

/** The environment Lambda gets from the stack, pointed at the local engines. */
export function configureEnvironment(settings: {
  dataDir: string;
  dynamoEndpoint: string;
  s3Endpoint?: string;
  stripeApiUrl?: string;
  /** The data folder's secrets, when the caller has read them already. */
  secrets?: LocalSecrets;
  /** The S3 server's key: the functions sign with it (DynamoDB Local takes any key). */
  s3Credentials?: S3Credentials;
  /**
   * The test image server's origin (image-server.ts): the import hosts pictures in the local
   * images bucket and may fetch from this loopback origin (issue 28). Absent: pictures not hosted.
   */
  picturesOrigin?: string;
}): void {
  const secrets = settings.secrets ?? localSecrets(settings.dataDir);
  Object.assign(process.env, {
    TABLE_NAME,
    DYNAMODB_ENDPOINT: settings.dynamoEndpoint,
    ...(settings.s3Endpoint ? { S3_ENDPOINT: settings.s3Endpoint } : {}),
    IMPORTS_BUCKET: LOCAL_IMPORTS_BUCKET,
    ...(settings.picturesOrigin
      ? { IMAGES_BUCKET: LOCAL_IMAGES_BUCKET, PICTURE_FETCH_ALLOWED_ORIGINS: settings.picturesOrigin }
      : {}),
    AWS_REGION: localAws.region,
    AWS_ACCESS_KEY_ID: (settings.s3Credentials ?? localAws.credentials).accessKeyId,
    AWS_SECRET_ACCESS_KEY: (settings.s3Credentials ?? localAws.credentials).secretAccessKey,
    TOKEN_SIGNING_KEY: secrets.tokenSigningKey,
    ...(settings.stripeApiUrl
      ? {
          STRIPE_API_URL: settings.stripeApiUrl,
          STRIPE_SECRET_KEY: secrets.stripeSecretKey,
          STRIPE_WEBHOOK_SECRET: secrets.stripeWebhookSecret,
          STRIPE_CONNECT_WEBHOOK_SECRET: secrets.stripeConnectWebhookSecret,
          STRIPE_PUBLISHABLE_KEY: secrets.stripePublishableKey,
        }
      : {}),
    ...functionEnvironment,
    // The embedded address search over the US ZIP database (Amazon Location in AWS).
    ADDRESS_SEARCH: 'local',
    // Mail is written to .local/outbox/ (0700, files 0600) and its link printed (SES in AWS).
    MAIL_OUTBOX_DIR: join(settings.dataDir, 'outbox'),
    // The administrators' mails (a payout failed, a dispute was opened) go to the demo admin.
    ADMIN_MAIL_TO: process.env.ADMIN_MAIL_TO ?? demoAccounts.admin.email,
    // The handlers log warnings and errors; LOG_LEVEL=debug shows everything they log.
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? (isDebug() ? 'DEBUG' : 'WARN'),
  });
}

/** The `handler` export of a module of functions/src, the one Lambda runs. */
export async function importHandler<H>(module: string): Promise<H> {
  return ((await import(pathToFileURL(join(root, 'functions', 'src', module)).href)) as { handler: H }).handler;
}

export const loadHandler = (route: { module: string }): Promise<ApiHandler> => importHandler(route.module);

/** The local bucket of each of the stack's buckets a function is configured with or started by (by construct id). */
const LOCAL_BUCKETS: Readonly<Record<string, string>> = {
  ImportsBucket: LOCAL_IMPORTS_BUCKET,
  ImagesBucket: LOCAL_IMAGES_BUCKET,
};
function localBucket(construct: string): string {
  const bucket = LOCAL_BUCKETS[construct];
  if (!bucket)
    throw new Error(`The stack's bucket ${construct} has no local bucket (infra/local/start.ts LOCAL_BUCKETS)`);
  return bucket;
}

/** A function of the template as the local runtime runs it: its whole environment (function-env.ts). */
export type RuntimeFunction = Omit<LocalFunction, 'environment'> & { environment: NodeJS.ProcessEnv };

/** Where a data folder keeps its synthesized template (template.ts: one file, by the hash of its inputs). */
export const templateCacheDir = (dataDir: string): string => join(dataDir, 'template');

/** The local synth's contexts for a portal: the administrators' mails go to ADMIN_MAIL_TO, or the demo admin. */
export const portalContexts = (): Record<string, unknown> =>
  localContexts({ adminMailTo: process.env.ADMIN_MAIL_TO ?? demoAccounts.admin.email });

/**
 * The portal's functions from the synthesized template, each with its environment: the stack's,
 * resolved to the local table, buckets, secrets and origin, and the local stand-ins (function-env.ts).
 */
export function runtimeFunctions(
  templates: SynthesizedTemplates,
  settings: {
    secrets: LocalSecrets;
    ownStripeKey: boolean;
    siteUrl: string;
    standIns: StandIns;
    /** The stack's queues on the local SQS, by construct id (sqs-events.ts createTemplateQueues). */
    queues?: Readonly<Record<string, { url: string; arn: string }>>;
    /** Only the functions this keeps (a script runs one: the others' queues need not exist). */
    only?: (fn: TemplateFunction) => boolean;
  },
): RuntimeFunction[] {
  const { secrets } = settings;
  // With your own key the Stripe values are yours, from this process's environment (as before the template).
  const stripe = settings.ownStripeKey
    ? {
        STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET,
        STRIPE_CONNECT_WEBHOOK_SECRET: process.env.STRIPE_CONNECT_WEBHOOK_SECRET,
        STRIPE_PUBLISHABLE_KEY: process.env.STRIPE_PUBLISHABLE_KEY,
      }
    : {
        STRIPE_SECRET_KEY: secrets.stripeSecretKey,
        STRIPE_WEBHOOK_SECRET: secrets.stripeWebhookSecret,
        STRIPE_CONNECT_WEBHOOK_SECRET: secrets.stripeConnectWebhookSecret,
        STRIPE_PUBLISHABLE_KEY: secrets.stripePublishableKey,
      };
  const local = {
    tableName: TABLE_NAME,
    buckets: LOCAL_BUCKETS,
    secrets: { TOKEN_SIGNING_KEY: secrets.tokenSigningKey, ...stripe },
    siteUrl: settings.siteUrl,
    region: localAws.region,
    queues: settings.queues,
  };
  return templateFunctions(templates)
    .filter(settings.only ?? (() => true))
    .map((fn) => ({ ...fn, environment: localEnvironment(templates, fn, local) }))
    .map((fn) => ({ ...fn, environment: lambdaEnvironment(fn, settings.standIns) }));
}

/** The one function the template starts with `kind` (the import, the schedule, the deploy trigger), or an error naming it. */
export function onlyWith<K extends 's3' | 'schedule' | 'afterDeploy'>(functions: readonly RuntimeFunction[], kind: K) {
  const found = withTrigger(functions, kind);
  if (found.length !== 1) {
    throw new Error(`The template has ${found.length} functions started by ${kind}; the local runtime runs one`);
  }
  return found[0]!;
}

/** Creates the demo admin and member once; a second start finds them and changes nothing. */
async function seed(): Promise<void> {
  const { ensureAccount } = await import('./accounts');
  await ensureAccount(demoAccounts.admin.email, demoAccounts.admin.password, true);
  await ensureAccount(demoAccounts.member.email, demoAccounts.member.password, false);
}

/** Reads `images/…` keys of the local images bucket, as CloudFront's `/images/*` behaviour reads the bucket. */
export async function hostedImageReader(
  endpoint: string,
  credentials: S3Credentials,
): Promise<(key: string) => Promise<HostedImage | undefined>> {
  const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint, forcePathStyle: true, region: localAws.region, credentials });
  return async (key) => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: LOCAL_IMAGES_BUCKET, Key: key }));
      if (!object.Body) return undefined;
      return {
        body: await object.Body.transformToByteArray(),
        contentType: object.ContentType ?? 'application/octet-stream',
        etag: object.ETag,
        lastModified: object.LastModified,
      };
    } catch (error) {
      if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')) return undefined;
      throw error;
    }
  };
}

export async function startPortal(options: PortalOptions = {}): Promise<Portal> {
  const dataDir = resolve(options.dataDir ?? join(root, '.local'));
  // The data folder and everything in it are the owner's only: 0700 folders, 0600 files, also
  // those an older version (or a looser umask) made; while the portal runs, whatever it or its
  // engines create (s3rver's objects, DynamoDB Local's file) is made so by umask 077.
  secureTree(dataDir);
  // One portal per data folder (data-lock.ts): a second start stops here, before any engine.
  const unlock = lockDataDir(dataDir);
  const restoreUmask = privateUmask();
  const say = options.quiet ? () => undefined : (line: string) => console.log(line);
  // Your own Stripe key and no emulator URL: the functions use Stripe's API (test mode with sk_test_…).
  const ownStripeKey = Boolean(process.env.STRIPE_SECRET_KEY) && !process.env.STRIPE_API_URL;
  let secrets: LocalSecrets;
  let s3Credentials: S3Credentials;
  try {
    secrets = localSecrets(dataDir);
    s3Credentials = localS3Credentials(dataDir);
  } catch (error) {
    restoreUmask();
    unlock();
    throw error;
  }

  say(
    'Starting DynamoDB Local, the S3 server, the local SQS and the Stripe emulator, and building the apps if their sources changed (or the last build was the browser tests’)…',
  );
  // The emulator posts its signed events to the portal's two webhook routes once the portal listens.
  let webhookUrl: string | undefined;
  let connectWebhookUrl: string | undefined;
  // Held while the demo sales are seeded: their payments are recorded by the seed with its own
  // clock (a past date), not by the webhook with today's; events in that while are only listed.
  let holdWebhooks = false;
  const settled = await Promise.allSettled([
    startDynamo({ dataDir: join(dataDir, 'dynamodb') }),
    startS3({
      dataDir: join(dataDir, 's3'),
      spoolDir: join(dataDir, 's3-incoming'),
      credentials: s3Credentials,
      // A presigned POST is authorized as the function that signed it (its role's s3:PutObject on the key).
      authorizeUpload: async (token, bucket, key) => {
        const signer = functionOfSessionToken(token);
        return signer ? deniedUpload(signer, bucket, key) : undefined;
      },
    }),
    // The stack's queues (decision 0380) on 127.0.0.1, kept in the data folder across restarts.
    startSqs({ dataDir: join(dataDir, 'sqs') }),
    startStripeEmulator({
      dataDir: join(dataDir, 'stripe'),
      // The data folder's own key, and only it: no one else on the machine can read or move anything.
      secretKey: secrets.stripeSecretKey,
      webhooks: {
        account: { url: () => (holdWebhooks ? undefined : webhookUrl), secret: secrets.stripeWebhookSecret },
        connect: {
          url: () => (holdWebhooks ? undefined : connectWebhookUrl),
          secret: secrets.stripeConnectWebhookSecret,
        },
      },
      publishableKey: secrets.stripePublishableKey,
      // The portal's platform keeps its balance (manual payouts): orders entered by hand draw on it (decision 0280).
      platformPayouts: 'manual',
      log: say,
    }),
    options.buildWeb === false
      ? undefined
      : buildWebApps(root, { precompressLater: true }).then(
          (built) => built.length && say(`Built ${built.join(' and ')}.`),
        ),
    // What runs is read back from the stack: its template, synthesized once per change (template.ts).
    synthesizeTemplates({
      cacheDir:
        options.templateCacheDir ?? (process.env.VITEST === 'true' ? TEST_TEMPLATE_CACHE : templateCacheDir(dataDir)),
      contexts: portalContexts(),
    }).then((synth) => {
      if (synth.synthMs !== undefined) {
        say(`Synthesized the stack's template for the local runtime (${(synth.synthMs / 1000).toFixed(1)} s).`);
      }
      return synth.templates;
    }),
  ]);
  const [dynamoStart, s3Start, sqsStart, stripeStart, buildStart, templateStart] = settled;
  if (
    dynamoStart.status === 'rejected' ||
    s3Start.status === 'rejected' ||
    sqsStart.status === 'rejected' ||
    stripeStart.status === 'rejected' ||
    buildStart.status === 'rejected' ||
    templateStart.status === 'rejected'
  ) {
    // Stop what did start, so a failed start leaves no engine running.
    for (const started of [dynamoStart, s3Start, sqsStart, stripeStart]) {
      if (started.status === 'fulfilled') await started.value.stop().catch(() => undefined);
    }
    restoreUmask();
    unlock();
    throw [dynamoStart, s3Start, sqsStart, stripeStart, buildStart, templateStart].find(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    )?.reason;
  }
  const [dynamo, s3, sqs, stripe] = [dynamoStart.value, s3Start.value, sqsStart.value, stripeStart.value];
  // Each function runs with its own environment and a file system read-only outside /tmp (invoker.ts).
  const uninstallEnvironments = installFunctionEnvironments();
  installReadOnlyFileSystem();
  const stops: (() => Promise<void>)[] = [
    stripe.stop,
    dynamo.stop,
    s3.stop,
    sqs.stop,
    async () => uninstallEnvironments(),
    async () => restoreUmask(),
    async () => unlock(),
  ];
  const demoImagesDir = join(dataDir, 'demo-images');
  if (dynamo.exposedOn.length > 0) {
    say(
      `Note: DynamoDB Local cannot listen on 127.0.0.1 only; its port ${new URL(dynamo.endpoint).port} answers on ${dynamo.exposedOn.join(', ')} too, and it accepts any credentials. Keep that port closed to other machines (a firewall), or run the portal where no one else can reach it.`,
    );
  }
  try {
    // The demo's supplier host, on 127.0.0.1 (issue 28): the import fetches the demo's pictures from it.
    const images =
      (options.hostPictures ?? options.seedDemo ?? false) ? await startImageServer({ dir: demoImagesDir }) : undefined;
    if (images) stops.unshift(images.stop);
    // The stack's queues as it sets them up (the picture queue and its dead-letter queue, issue 38).
    const queues = await createTemplateQueues(sqs.client, templateQueues(templateStart.value));
    configureEnvironment({
      dataDir,
      dynamoEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      stripeApiUrl: ownStripeKey ? undefined : stripe.url,
      secrets,
      s3Credentials: s3.credentials,
      picturesOrigin: images?.origin,
    });
    // Quiet (the browser tests): mail still goes to the outbox, without its log line.
    if (options.quiet) process.env.MAIL_OUTBOX_QUIET = '1';
    // IAM as in AWS: each function's AWS calls are held to its role in the synthesized stack
    // (infra/local/iam), the same synth the functions' settings come from.
    enforceIam(assemblyFromTemplates(templateStart.value));
    await ensureTable(dynamo.client, TABLE_NAME);
    const functions = runtimeFunctions(templateStart.value, {
      secrets,
      ownStripeKey,
      siteUrl: `http://localhost:${options.port || 3000}`,
      queues,
      standIns: {
        region: localAws.region,
        credentials: s3.credentials,
        dynamoEndpoint: dynamo.endpoint,
        s3Endpoint: s3.endpoint,
        sqsEndpoint: sqs.endpoint,
        stripeApiUrl: ownStripeKey ? undefined : stripe.url,
        mailOutboxDir: join(dataDir, 'outbox'),
        mailOutboxQuiet: options.quiet,
        picturesOrigin: images?.origin,
        logLevel: process.env.POWERTOOLS_LOG_LEVEL ?? (isDebug() ? 'DEBUG' : 'WARN'),
      },
    });
    // The deploy trigger's function (the table upgrade), as CloudFormation runs it after a deploy.
    const upgrade = onlyWith(functions, 'afterDeploy').fn;
    await invokeEvent(upgrade, await importHandler<() => Promise<unknown>>(upgrade.module), {}, () => undefined);

    // The bucket notification: every object created in the imports bucket runs the import function.
    const forwarders: EventForwarder[] = [];
    for (const { fn, trigger } of withTrigger(functions, 's3')) {
      const handler = await importHandler<(event: S3Event) => Promise<void>>(fn.module);
      forwarders.push(
        forwardObjectCreated(s3.server, (event) => invokeEvent(fn, handler, event, say), say, undefined, {
          bucket: localBucket(trigger.bucket),
          events: trigger.events,
          prefix: trigger.prefix,
          suffix: trigger.suffix,
        }),
      );
    }
    // The stack's event source mappings: each function on its queue, batch by batch, as many batches
    // at a time as its reserved concurrency (and the mapping's maximum), each batch one invocation.
    for (const { fn, trigger } of withTrigger(functions, 'sqs')) {
      const queue = queues[trigger.queue];
      if (!queue) throw new Error(`The stack's queue ${trigger.queue} has no local queue`);
      const handler = await importHandler<(event: SQSEvent) => Promise<SQSBatchResponse>>(fn.module);
      const poller = pollQueue({
        client: sqs.client,
        queueUrl: queue.url,
        queueArn: queue.arn,
        handler: (event) => invokeEvent(fn, handler, event, say),
        batchSize: trigger.batchSize,
        concurrency: Math.min(fn.reservedConcurrency ?? 10, trigger.maxConcurrency ?? 1000),
        reportBatchItemFailures: trigger.reportBatchItemFailures,
        log: say,
      });
      // Stopped before the engine it polls.
      stops.splice(stops.indexOf(sqs.stop), 0, poller.stop);
      forwarders.push({ idle: () => poller.idle() });
    }
    // The table's stream (decision 0481): each mapping's function on its filtered records, shard
    // by shard, a batch at a time; a batch given up on goes to its on-failure queue, as Lambda sends it.
    const streamsDir = join(dataDir, 'streams');
    secureDir(streamsDir);
    for (const { fn, trigger } of withTrigger(functions, 'dynamodb')) {
      const handler = await importHandler<(event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>>(fn.module);
      const failureQueue = trigger.onFailureQueue ? queues[trigger.onFailureQueue] : undefined;
      if (trigger.onFailureQueue && !failureQueue)
        throw new Error(`The stack's queue ${trigger.onFailureQueue} has no local queue`);
      const poller = pollStream({
        streams: new DynamoDBStreamsClient({ ...localAws, endpoint: dynamo.endpoint }),
        streamArn: await tableStreamArn(dynamo.client, TABLE_NAME),
        handler: (event) => invokeEvent(fn, handler, event, say),
        ...mappingSettings(trigger),
        region: localAws.region,
        log: say,
        // Where the mapping was left, kept in the data folder: a restart goes on from there.
        checkpoints: checkpointFile(join(streamsDir, `${trigger.mappingLogicalId}.json`)),
        ...(failureQueue
          ? {
              onFailure: async (failure) => {
                await sqs.client.send(
                  new SendMessageCommand({
                    QueueUrl: failureQueue.url,
                    MessageBody: onFailureMessage(failure, fn.name),
                  }),
                );
              },
            }
          : {}),
      });
      // Stopped before the engine it reads.
      stops.splice(stops.indexOf(dynamo.stop), 0, poller.stop);
      forwarders.push({ idle: () => poller.idle() });
    }
    const routes = withTrigger(functions, 'api').map(({ fn, trigger }) => ({
      ...fn,
      path: trigger.path,
      method: trigger.method,
    }));
    const readHostedImage = await hostedImageReader(s3.endpoint, s3.credentials);
    const server = createPortalServer({
      routes,
      loadHandler,
      memberDist: join(root, 'web-member', 'dist'),
      adminDist: join(root, 'web-admin', 'dist'),
      demoImagesDir,
      readHostedImage,
      uploadOrigins: [new URL(s3.endpoint).origin],
      // The browser's two Stripe calls reach the emulator through the portal's own origin.
      stripeEmulatorUrl: ownStripeKey ? undefined : stripe.url,
      log: options.quiet ? undefined : say,
      logEveryRequest: options.logEveryRequest ?? isDebug(),
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, host, resolvePromise);
    });
    stops.unshift(
      () =>
        new Promise<void>((resolvePromise) => {
          server.close(() => resolvePromise());
          server.closeAllConnections();
        }),
    );
    const { port } = server.address() as AddressInfo;
    const webhookRoute = routes.find((route) => route.path === STRIPE_WEBHOOK_PATH);
    if (webhookRoute) webhookUrl = `http://127.0.0.1:${port}${webhookRoute.path}`;
    const connectRoute = routes.find((route) => route.path === STRIPE_CONNECT_WEBHOOK_PATH);
    if (connectRoute) connectWebhookUrl = `http://127.0.0.1:${port}${connectRoute.path}`;
    const displayHost = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
    const url = `http://${displayHost}:${port}`;
    // The origin of the links in e-mails (read per send: the port is known only now).
    process.env.SITE_URL = url;
    for (const fn of functions) if (fn.environment.SITE_URL !== undefined) fn.environment.SITE_URL = url;
    // The first page is served from here on (decision 0370): the build's brotli files and the demo
    // data come after it, and startPortal answers once both are there.
    const precompressing =
      options.buildWeb === false
        ? Promise.resolve()
        : precompressApps(root).then(
            (written) => void (written > 0 && say(`Compressed ${written} scripts and styles with brotli.`)),
            (error: unknown) =>
              say(
                `The apps' scripts are sent compressed as they go: writing their brotli files failed (${String(error)}).`,
              ),
          );
    say('Seeding the demo data (once per data folder)…');
    await seed();
    if (options.seedDemo) {
      const { seedDemoCatalogue } = await import('./demo-catalogue');
      const seeded = await seedDemoCatalogue({
        origin: url,
        picturesOrigin: images?.origin,
        imagesDir: demoImagesDir,
        afterUpload: async () => void (await Promise.all(forwarders.map((forwarder) => forwarder.idle()))),
      });
      if (seeded.seeded) say('Seeded the demo catalogue (36 products).');
      else if (!seeded.hosted && seeded.origin !== url) {
        say(
          `The demo catalogue's pictures were seeded for ${seeded.origin}: start on that port to see them, or npm run reset to seed again.`,
        );
      }
    }
    if (options.seedDemo) {
      const { seedDemoMember } = await import('./demo-member');
      const member = await seedDemoMember({
        email: demoAccounts.member.email,
        stripeApiUrl: ownStripeKey ? undefined : stripe.url,
        stripeSecretKey: secrets.stripeSecretKey,
      });
      if (member.seeded) {
        say(
          member.reseeded
            ? `The Stripe emulator no longer held the demo member's payout account (its state was cleared): seeded a new one, ${member.accountId}, with a debit card.`
            : `Seeded the demo member's payout account ${member.accountId} with a debit card and a verified e-mail.`,
        );
      } else if (member.reason === 'own-stripe-key') {
        say(
          "The demo member's payout account is not seeded: STRIPE_SECRET_KEY is your own key at api.stripe.com, and seeding would create objects in your Stripe account. Onboard the demo member in the app.",
        );
      }
    }
    if (options.seedDemo) {
      const { seedDemoSales, describeDemoSales } = await import('./demo-sales');
      // Events so far (the demo member's account) are delivered first; the sales' own are held.
      await stripe.idle();
      holdWebhooks = true;
      const started = Date.now();
      const sales = await seedDemoSales({
        memberEmail: demoAccounts.member.email,
        stripeApiUrl: ownStripeKey ? undefined : stripe.url,
        stripeSecretKey: secrets.stripeSecretKey,
      }).finally(() => (holdWebhooks = false));
      const line = describeDemoSales(sales);
      if (line) say(sales.seeded ? `${line} (${((Date.now() - started) / 1000).toFixed(1)} s)` : line);
    }
    if (options.seedDemo) {
      // After the sales: a product withdrawn or banned can no longer be bought, but its sales stand.
      const { seedDemoCatalogueMoves } = await import('./demo-admin-catalogue');
      if (await seedDemoCatalogueMoves()) say('Seeded the catalogue lists: two products banned, one withdrawn.');
    }
    if (options.seedDemo) {
      // The customer's order page: carriers on the shipped demo orders, and one page's link (every start).
      const { seedDemoOrderPage, describeDemoOrderPage } = await import('./demo-order-page');
      const orderPage = describeDemoOrderPage(await seedDemoOrderPage(), url);
      if (orderPage) say(orderPage);
      const { seedDemoPayouts, describeDemoPayouts } = await import('./demo-payouts');
      const line = describeDemoPayouts(
        await seedDemoPayouts({
          memberEmail: demoAccounts.member.email,
          stripeApiUrl: ownStripeKey ? undefined : stripe.url,
        }),
      );
      if (line) say(line);
    }
    if (options.seedDemo) {
      // The money rules' abuse section: a self-purchase whose commission is held for review (demo-abuse.ts).
      const { seedDemoAbuse, describeDemoAbuse } = await import('./demo-abuse');
      const abuse = describeDemoAbuse(
        await seedDemoAbuse({
          memberEmail: demoAccounts.member.email,
          stripeApiUrl: ownStripeKey ? undefined : stripe.url,
          stripeSecretKey: secrets.stripeSecretKey,
        }),
      );
      if (abuse) say(abuse);
      // Members' discount codes (issue 39): DANA10 with a few uses, DANA5OFF turned off (demo-codes.ts).
      const { seedDemoCodes, describeDemoCodes } = await import('./demo-codes');
      const codes = describeDemoCodes(
        await seedDemoCodes({
          memberEmail: demoAccounts.member.email,
          stripeApiUrl: ownStripeKey ? undefined : stripe.url,
          stripeSecretKey: secrets.stripeSecretKey,
        }),
      );
      if (codes) say(codes);
    }
    if (options.seedDemo) {
      // The commission rules (issue 39): after the demo sales, which keep the 10 % they were recorded at.
      const { seedDemoRules, describeDemoRules } = await import('./demo-rules');
      const rules = describeDemoRules(
        await seedDemoRules({ adminEmail: demoAccounts.admin.email, memberEmail: demoAccounts.member.email }),
      );
      if (rules) say(rules);
    }
    if (options.seedDemo) {
      // The link statistics (issue 39): 90 days of visits on the demo member's links, the demo orders as sales.
      const { seedDemoVisits, describeDemoVisits } = await import('./demo-visits');
      const visits = describeDemoVisits(await seedDemoVisits({ memberEmail: demoAccounts.member.email }));
      if (visits) say(visits);
    }
    // The daily payouts (EventBridge at 00:00 UTC in AWS): a timer, and a run now if one was missed.
    const { startDailyPayouts, scheduledEvent } = await import('./daily-payouts');
    const daily = onlyWith(functions, 'schedule');
    const dailyPayouts = startDailyPayouts({
      dataDir,
      say,
      at: dailyCronTime(daily.trigger.expression),
      run: async () =>
        invokeEvent(
          daily.fn,
          await importHandler<() => Promise<DailyPayoutsResult>>(daily.fn.module),
          scheduledEvent(daily.trigger.ruleLogicalId),
          say,
        ),
    });
    stops.unshift(async () => dailyPayouts.stop());
    await dailyPayouts.started;
    await precompressing;
    writePortalMarker(dataDir, { pid: process.pid, dynamoEndpoint: dynamo.endpoint, stripeEmulator: stripe.url, url });
    return {
      url,
      stripeUrl: stripe.url,
      ownStripeKey,
      accounts: demoAccounts,
      ...(images ? { picturesOrigin: images.origin } : {}),
      stop: async () => {
        for (const stop of stops) await stop().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const stop of stops) await stop().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const portal = await startPortal({ port, host: process.env.HOST, seedDemo: true });
  console.log(
    [
      '',
      `Reseller portal is running at ${portal.url} (Node ${process.version}, ${process.execPath})`,
      `  member app  ${portal.url}/`,
      `  admin app   ${portal.url}/admin/`,
      portal.ownStripeKey
        ? 'Stripe: your STRIPE_SECRET_KEY at api.stripe.com (the emulator is not used)'
        : `Stripe emulator: ${portal.stripeUrl}`,
      '',
      'Demo accounts:',
      `  admin   ${portal.accounts.admin.email} / ${portal.accounts.admin.password}`,
      `  member  ${portal.accounts.member.email} / ${portal.accounts.member.password}`,
      '',
      'Data is kept in .local/ (npm run reset clears it). Press Ctrl-C to stop.',
      isDebug()
        ? 'LOG_LEVEL=debug: every request is printed.'
        : 'From here on only errors and requests slower than 1 s are printed (LOG_LEVEL=debug prints every request).',
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    void portal.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
