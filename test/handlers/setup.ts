import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { ensureTable, localAws } from '../../infra/local/dynamo';
import { installFunctionEnvironments } from '../../infra/local/function-env';
import { installReadOnlyFileSystem } from '../../infra/local/read-only-fs';
import { LOCAL_IMAGES_BUCKET, LOCAL_IMPORTS_BUCKET } from '../../infra/local/s3';
import { commonEnvironment, localFunctions, templateQueues } from '../../infra/local/template';
import { assemblyFromTemplates } from '../../infra/local/iam/assembly';
import { enforceIam } from '../../infra/local/iam/enforce';
import { freshFile } from '../fresh-file';

/**
 * Runs before each handler test file is imported: a fresh table of its own, and the environment the
 * synthesized stack sets on every one of its functions (the table, the token's issuer and audience,
 * the service name: infra/local/template.ts commonEnvironment), pointed at the local engines. The
 * variables only some functions get (a bucket, a secret, the sender) are set here or by the file on
 * the process; each invoked handler sees only those its function's template sets
 * (function-environment.ts), as npm start gives each function only its own.
 */
// The files of a worker share it (vitest.config.ts, `isolate: false`): this file's modules are its
// own and its environment starts as the worker's first (test/fresh-file.ts); what the local runtime
// installs in the process (the read-only file system, each function's environment, the IAM check)
// is installed once and keeps its state per process (infra/local/process-wide.ts).
freshFile();
const tableName = `test-${randomBytes(6).toString('hex')}`;
const stackEnvironment = commonEnvironment(
  localFunctions(inject('templates'), {
    tableName,
    buckets: { ImportsBucket: LOCAL_IMPORTS_BUCKET, ImagesBucket: LOCAL_IMAGES_BUCKET },
    secrets: {},
    siteUrl: 'http://127.0.0.1:3999',
    region: localAws.region,
    // A file that sends to a queue makes its own (picture-queue.test.ts) and sets its URL; no function shares one.
    queues: Object.fromEntries(
      templateQueues(inject('templates')).map((queue) => [
        queue.name,
        {
          url: `${inject('sqsEndpoint')}/000000000000/${tableName}-${queue.name}`,
          arn: `arn:aws:sqs:${localAws.region}:000000000000:${tableName}-${queue.name}`,
        },
      ]),
    ),
  }),
);
if (stackEnvironment.TABLE_NAME !== tableName)
  throw new Error('The synthesized stack sets no TABLE_NAME on a function');
// The money rules with their defaults (functions/src/config/money-settings.ts), whatever this
// process inherited: the browser tests' portal, started in the same vitest process, holds none.
for (const setting of ['COMMISSION_HOLD_DAYS', 'PAYOUT_MINIMUM_CENTS', 'INSTANT_FEE_PAID_BY', 'SELF_PURCHASE']) {
  delete process.env[setting];
}
Object.assign(process.env, {
  ...stackEnvironment,
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  S3_ENDPOINT: inject('s3Endpoint'),
  SQS_ENDPOINT: inject('sqsEndpoint'),
  AWS_REGION: localAws.region,
  // The S3 server's key (global-setup.ts); DynamoDB Local takes any.
  AWS_ACCESS_KEY_ID: inject('s3Credentials').accessKeyId,
  AWS_SECRET_ACCESS_KEY: inject('s3Credentials').secretAccessKey,
  TOKEN_SIGNING_KEY: randomBytes(48).toString('base64url'),
  STRIPE_API_URL: inject('stripeApiUrl'),
  // The emulator's own key (global-setup.ts): it accepts no other.
  STRIPE_SECRET_KEY: inject('stripeSecretKey'),
  STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  STRIPE_CONNECT_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  STRIPE_PUBLISHABLE_KEY: `pk_test_${randomBytes(24).toString('hex')}`,
  ADDRESS_SEARCH: 'local',
  // Mail goes to an outbox folder of this file's own; links point at a stand-in portal origin.
  MAIL_OUTBOX_DIR: join(inject('engineDataDir'), `outbox-${tableName}`),
  MAIL_OUTBOX_QUIET: '1',
  SITE_URL: 'http://127.0.0.1:3999',
  POWERTOOLS_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'SILENT',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

// Without its stream: a file that reads a top-earners place turns it on (places.ts withTableStream),
// as DynamoDB Local's writes slow down with every stream-enabled table of its process (0481).
await ensureTable(new DynamoDBClient({ ...localAws, endpoint: inject('dynamoEndpoint') }), tableName, {
  stream: false,
});
// Each call() runs its handler with the file system read-only outside /tmp, as Lambda does (helpers.ts).
installReadOnlyFileSystem();

// Each handler a test invokes (helpers.ts `call`, `asFunction`) sees its own function's environment
// (function-environment.ts) and is held to its synthesized role.
installFunctionEnvironments();
enforceIam(assemblyFromTemplates(inject('templates')));
