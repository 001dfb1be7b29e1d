import type { TestProject } from 'vitest/node';
import { startDynamo, type LocalDynamo } from '../../infra/local/dynamo';
import { newS3Credentials, startS3, type LocalS3, type S3Credentials } from '../../infra/local/s3';
import { demoAccounts } from '../../infra/local/start';
import { startStripeEmulator, type StripeEmulator } from '../../infra/local/stripe';
import {
  localContexts,
  synthesizeTemplates,
  TEST_TEMPLATE_CACHE,
  type SynthesizedTemplates,
} from '../../infra/local/template';
import { startSqs, type LocalSqs } from '../../infra/local/sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One DynamoDB Local (in memory), one S3 server and one Stripe emulator for the whole handler run;
 * each file gets its own table, and the environment the synthesized stack sets on every function
 * (infra/local/template.ts; synthesized once per change of the stack, cached in cdk.out/). The emulator posts no webhooks here: a test file that needs them
 * starts its own emulator pointed at its webhook handler.
 */
let dynamo: LocalDynamo | undefined;
let s3: LocalS3 | undefined;
let stripe: StripeEmulator | undefined;
let sqs: LocalSqs | undefined;
let s3Dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  s3Dir = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  // A key pair of this run's own, as npm start makes one per data folder: every S3 client signs with it.
  const s3Credentials = newS3Credentials();
  let templates: SynthesizedTemplates;
  [dynamo, s3, stripe, templates, sqs] = await Promise.all([
    startDynamo(),
    startS3({ dataDir: join(s3Dir, 's3'), spoolDir: join(s3Dir, 's3-incoming'), credentials: s3Credentials }),
    // It makes a key of this run's own and accepts no other: every handler test's Stripe client uses it.
    // The platform as the portal needs it set up (manual payouts, decision 0280).
    startStripeEmulator({ dataDir: join(s3Dir, 'stripe'), platformPayouts: 'manual', log: () => undefined }),
    // The money settings at their defaults, whatever this process holds (setup.ts clears them too);
    // the contexts a portal started by a handler test synthesizes with (start.ts portalContexts), so both share one.
    synthesizeTemplates({
      cacheDir: TEST_TEMPLATE_CACHE,
      contexts: localContexts({ adminMailTo: demoAccounts.admin.email, env: {} }),
    }).then((synth) => synth.templates),
    // The local SQS (decision 0380): each file makes queues of its own.
    startSqs(),
  ]);
  project.provide('templates', templates);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('sqsEndpoint', sqs.endpoint);
  project.provide('s3Credentials', s3Credentials);
  project.provide('stripeApiUrl', stripe.url);
  project.provide('stripeSecretKey', stripe.secretKey);
  project.provide('stripeDataDir', join(s3Dir, 'stripe'));
  project.provide('engineDataDir', s3Dir);
}

export async function teardown(): Promise<void> {
  await Promise.all([dynamo?.stop(), s3?.stop(), stripe?.stop(), sqs?.stop()]);
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    s3Credentials: S3Credentials;
    s3Endpoint: string;
    /** The local SQS (infra/local/sqs.ts); a file creates its own queues. */
    sqsEndpoint: string;
    stripeApiUrl: string;
    /** The only secret key the emulator accepts (the functions' STRIPE_SECRET_KEY). */
    stripeSecretKey: string;
    /** The emulator's own state (the one place a tax ID may be kept: it stands for Stripe). */
    stripeDataDir: string;
    /** The folder holding the S3 server's files and the emulator's state. */
    engineDataDir: string;
    /**
     * The synthesized stack (infra/local/template.ts): the functions' settings are read from it, and
     * their roles (infra/local/iam: IAM is enforced in every handler test).
     */
    templates: SynthesizedTemplates;
  }
}
