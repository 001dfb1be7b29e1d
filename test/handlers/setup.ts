import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { functionEnvironment } from '../../infra/lib/bundling';
import { ensureTable, localAws } from '../../infra/local/dynamo';

/**
 * Runs before each handler test file is imported: a fresh table of its own, and the same
 * environment the stack gives the functions in AWS, pointed at the local engines.
 */
const tableName = `test-${randomBytes(6).toString('hex')}`;
// The money rules with their defaults (functions/src/config/money-settings.ts), whatever this
// process inherited: the browser tests' portal, started in the same vitest process, holds none.
for (const setting of ['COMMISSION_HOLD_DAYS', 'PAYOUT_MINIMUM_CENTS', 'INSTANT_FEE_PAID_BY', 'SELF_PURCHASE']) {
  delete process.env[setting];
}
Object.assign(process.env, {
  TABLE_NAME: tableName,
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
  ...functionEnvironment,
  ADDRESS_SEARCH: 'local',
  // Mail goes to an outbox folder of this file's own; links point at a stand-in portal origin.
  MAIL_OUTBOX_DIR: join(inject('engineDataDir'), `outbox-${tableName}`),
  MAIL_OUTBOX_QUIET: '1',
  SITE_URL: 'http://127.0.0.1:3999',
  POWERTOOLS_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'SILENT',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

await ensureTable(new DynamoDBClient({ ...localAws, endpoint: inject('dynamoEndpoint') }), tableName);
