import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand, type StackStatus } from '@aws-sdk/client-cloudformation';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_VERSION } from '../functions/src/adapters/payments/stripe-gateway';
import {
  WEBHOOK_EVENTS,
  endpointOfEvent,
  type GatewayEvent,
  type WebhookEndpoint,
} from '../functions/src/payments/payment-gateway';
import { startStripeEmulator, type StripeEmulator } from '../infra/local/stripe';
import { customAccount, sdk } from '../infra/local/stripe/testing';
import {
  awsReader,
  checkBootstrap,
  checkConnect,
  checkKeyMode,
  checkPayoutSchedule,
  checkSecrets,
  checkSesIdentity,
  checkSesSandbox,
  checkWebhookEndpoint,
  exitCode,
  parseArguments,
  requiredBootstrapVersion,
  runChecks,
  stripeReader,
  type CheckResult,
} from './deploy-check';
import { cdkArguments } from './deploy';

const SITE = 'd111abcdef8.cloudfront.net';
const PLATFORM_URL = `https://${SITE}/api/stripeWebhook`;
const CONNECT_URL = `https://${SITE}/api/stripeConnectWebhook`;
const REGION = 'us-east-1';
const arn = (name: string) => `arn:aws:secretsmanager:${REGION}:123456789012:secret:${name}-AbCdEf`;
const OUTPUTS = {
  SiteUrl: `https://${SITE}/`,
  TokenSigningKeyArn: arn('TokenSigningKey'),
  StripeSecretKeyArn: arn('StripeSecretKey'),
  StripePublishableKeyArn: arn('StripePublishableKey'),
  StripeWebhookSecretArn: arn('StripeWebhookSecret'),
  StripeConnectWebhookSecretArn: arn('StripeConnectWebhookSecret'),
};

describe('the events each endpoint is checked for', () => {
  it('are every kind the portal acts on, each on the endpoint its events arrive at', () => {
    type Listed = (typeof WEBHOOK_EVENTS)[WebhookEndpoint][number];
    // Fails to compile when a kind of GatewayEvent is in neither list.
    const exhaustive: [Exclude<Exclude<GatewayEvent['kind'], 'other'>, Listed>] extends [never] ? true : false = true;
    expect(exhaustive).toBe(true);
    for (const endpoint of ['platform', 'connect'] as const) {
      for (const event of WEBHOOK_EVENTS[endpoint]) expect(endpointOfEvent(event)).toBe(endpoint);
    }
    expect(API_VERSION).toBe(Stripe.API_VERSION);
  });
});

// ---- Stripe, against the emulator through the SDK ----------------------------------------------

describe('the Stripe checks', () => {
  let dataDir: string;
  let emulator: StripeEmulator;
  let stripe: Stripe;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    emulator = await startStripeEmulator({ dataDir: join(dataDir, 'ready'), log: () => undefined });
    stripe = sdk(emulator.port, emulator.secretKey);
  });

  afterAll(async () => {
    await emulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    for (const endpoint of await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })) {
      await stripe.webhookEndpoints.del(endpoint.id);
    }
  });

  const register = (
    url: string,
    endpoint: WebhookEndpoint,
    overrides: Partial<Stripe.WebhookEndpointCreateParams> = {},
  ) =>
    stripe.webhookEndpoints.create({
      url,
      enabled_events: [...WEBHOOK_EVENTS[endpoint]],
      api_version: API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
      ...(endpoint === 'connect' ? { connect: true } : {}),
      ...overrides,
    });

  describe('the key’s mode', () => {
    it('takes a test key for a test stage and a live key for a live one', () => {
      expect(checkKeyMode('sk_test_abc', 'test')).toMatchObject({ ok: true, message: 'A test key for a test stage.' });
      expect(checkKeyMode('sk_live_abc', 'live')).toMatchObject({ ok: true, message: 'A live key for a live stage.' });
    });

    it('refuses a live key for a test stage, a test key for a live one, and a restricted key, in words', () => {
      expect(checkKeyMode('sk_live_abc', 'test')).toEqual({
        name: 'Stripe key mode',
        ok: false,
        message: 'This is a live key (sk_live_…) for a test stage: it would take real payments and make real payouts.',
        fix: 'Use the test-mode keys (Dashboard in test mode → Developers → API keys), or deploy with --stage live.',
      });
      expect(checkKeyMode('sk_test_abc', 'live')).toMatchObject({
        ok: false,
        message: 'This is a test key (sk_test_…) for a live stage: no customer could pay.',
      });
      expect(checkKeyMode('rk_test_abc', 'test')).toMatchObject({
        ok: false,
        message: expect.stringContaining('This is a restricted key (rk_…)'),
      });
    });
  });

  describe('the webhook endpoints', () => {
    it('pass when each is registered with exactly the events the code handles and the SDK’s API version', async () => {
      await register(PLATFORM_URL, 'platform');
      await register(CONNECT_URL, 'connect');
      const reader = stripeReader(stripe);
      const platform = await checkWebhookEndpoint(reader, `https://${SITE}/`, 'platform');
      const connect = await checkWebhookEndpoint(reader, SITE, 'connect');
      expect(platform.ok).toBe(true);
      expect(platform.message).toContain(
        `at ${PLATFORM_URL}: enabled, ${WEBHOOK_EVENTS.platform.length} events, API version ${API_VERSION}`,
      );
      expect(connect.ok).toBe(true);
      expect(connect.message).toContain(`at ${CONNECT_URL}: enabled, ${WEBHOOK_EVENTS.connect.length} events`);
    });

    it('fails a missing endpoint, saying where to add it, with which events and version', async () => {
      await register(PLATFORM_URL, 'platform');
      const result = await checkWebhookEndpoint(
        stripeReader(stripe),
        SITE,
        'connect',
        OUTPUTS.StripeConnectWebhookSecretArn,
      );
      expect(result).toEqual({
        name: 'Stripe endpoint /api/stripeConnectWebhook',
        ok: false,
        message: `No webhook endpoint at ${CONNECT_URL}: the portal would never hear of account.updated, payout.paid, payout.failed.`,
        fix: `Dashboard → Developers → Webhooks → Add endpoint: ${CONNECT_URL}, "Events on Connected accounts", API version ${API_VERSION}, events account.updated, payout.paid, payout.failed; then aws secretsmanager put-secret-value --secret-id ${OUTPUTS.StripeConnectWebhookSecretArn} --secret-string 'whsec_…' with its signing secret.`,
      });
    });

    it('fails an endpoint with events missing and others extra, naming both', async () => {
      const lacking = ['charge.dispute.created', 'charge.dispute.closed'];
      const made = await register(PLATFORM_URL, 'platform', {
        enabled_events: [
          ...WEBHOOK_EVENTS.platform.filter((event) => !lacking.includes(event)),
          'customer.created',
        ] as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
      });
      const result = await checkWebhookEndpoint(stripeReader(stripe), SITE, 'platform');
      expect(result.ok).toBe(false);
      expect(result.message).toBe(
        `The endpoint ${made.id} at ${PLATFORM_URL}: it lacks ${lacking.join(', ')}; it also sends customer.created, which the portal does not act on (acknowledged and ignored, one request each).`,
      );
      expect(result.fix).toBe(
        `Dashboard → Developers → Webhooks → ${made.id} → Update details: select exactly ${WEBHOOK_EVENTS.platform.join(', ')}.`,
      );
    });

    it('fails an endpoint that takes every event (*) as sending extra', async () => {
      await register(CONNECT_URL, 'connect', { enabled_events: ['*'] });
      const result = await checkWebhookEndpoint(stripeReader(stripe), SITE, 'connect');
      expect(result.ok).toBe(false);
      expect(result.message).toContain('it also sends *, which the portal does not act on (every event: acknowledged');
    });

    it('fails an endpoint of another API version, or of the account’s default, and says a new one is needed', async () => {
      const old = await register(PLATFORM_URL, 'platform', { api_version: '2024-04-10' });
      const result = await checkWebhookEndpoint(stripeReader(stripe), SITE, 'platform');
      expect(result.ok).toBe(false);
      expect(result.message).toBe(
        `The endpoint ${old.id} at ${PLATFORM_URL}: its API version is 2024-04-10, not the SDK's ${API_VERSION}, so events come in a shape the code does not read.`,
      );
      expect(result.fix).toContain(`add a new one at ${PLATFORM_URL} with API version ${API_VERSION}`);
      expect(result.fix).toContain(`then delete ${old.id}`);
      await stripe.webhookEndpoints.del(old.id);
      await stripe.webhookEndpoints.create({ url: PLATFORM_URL, enabled_events: [...WEBHOOK_EVENTS.platform] });
      expect((await checkWebhookEndpoint(stripeReader(stripe), SITE, 'platform')).message).toContain(
        "its API version is the account's default, not the SDK's",
      );
    });

    it('fails a disabled endpoint and two endpoints at one URL', async () => {
      const made = await register(PLATFORM_URL, 'platform');
      await stripe.webhookEndpoints.update(made.id, { disabled: true });
      const disabled = await checkWebhookEndpoint(stripeReader(stripe), SITE, 'platform');
      expect(disabled.ok).toBe(false);
      expect(disabled.message).toBe(
        `The endpoint ${made.id} at ${PLATFORM_URL}: it is disabled, so nothing is sent to it.`,
      );
      expect(disabled.fix).toBe(`Dashboard → Developers → Webhooks → ${made.id} → Enable.`);
      await stripe.webhookEndpoints.update(made.id, { disabled: false });
      const second = await register(PLATFORM_URL, 'platform');
      const twice = await checkWebhookEndpoint(stripeReader(stripe), SITE, 'platform');
      expect(twice.ok).toBe(false);
      expect(twice.message).toContain(`2 webhook endpoints at ${PLATFORM_URL}`);
      expect(twice.message).toContain(second.id);
    });
  });

  describe('Connect and the payout schedule', () => {
    let bare: StripeEmulator;
    beforeAll(async () => {
      // A new Stripe account: not signed up for Connect, Stripe's default daily payouts.
      bare = await startStripeEmulator({
        dataDir: join(dataDir, 'bare'),
        log: () => undefined,
        platformConnect: false,
      });
    });
    afterAll(() => bare.stop());

    it('warns when no connected account shows Connect is set up, and fails when Stripe refuses Connect', async () => {
      const reader = stripeReader(sdk(bare.port, bare.secretKey));
      const unproven = await checkConnect(reader);
      expect(unproven).toMatchObject({ ok: true, warning: true });
      expect(unproven.message).toBe(
        'No connected accounts yet, so reading cannot tell whether Connect is set up (Stripe answers an empty list either way); the first member who sets up payouts will show it.',
      );
      // Making one (as stripe:check does) is what Stripe refuses: the check maps that refusal to words.
      const refusing = {
        ...reader,
        anyConnectedAccount: () =>
          sdk(bare.port, bare.secretKey)
            .accounts.create(customAccount)
            .then(() => true),
      };
      const refused = await checkConnect(refusing);
      expect(refused).toMatchObject({
        ok: false,
        message: 'This Stripe account has not signed up for Connect: no member could set up payouts.',
      });
      expect(refused.fix).toMatch(/^Dashboard → Connect → Get started/);
    });

    it('passes Connect once the platform has a connected account', async () => {
      await stripe.accounts.create(customAccount);
      expect(await checkConnect(stripeReader(stripe))).toEqual({
        name: 'Stripe Connect',
        ok: true,
        message: 'The platform has connected accounts: Connect is set up.',
      });
    });

    it('fails Stripe’s default daily payouts and passes manual ones', async () => {
      const daily = await checkPayoutSchedule(stripeReader(sdk(bare.port, bare.secretKey)));
      expect(daily).toEqual({
        name: 'Stripe payout schedule',
        ok: false,
        message:
          "The platform's payouts are daily (2 days): Stripe would pay its available balance out to its bank, leaving nothing for the commissions of orders entered by hand, which are paid from that balance.",
        fix: 'Dashboard → Settings → Payouts (Balances → Payout schedule): Manual.',
      });
      const manual = await startStripeEmulator({
        dataDir: join(dataDir, 'manual'),
        log: () => undefined,
        platformPayouts: 'manual',
      });
      try {
        expect(await checkPayoutSchedule(stripeReader(sdk(manual.port, manual.secretKey)))).toMatchObject({ ok: true });
      } finally {
        await manual.stop();
      }
    });
  });
});

// ---- AWS, with aws-sdk-client-mock --------------------------------------------------------------

const sts = mockClient(STSClient);
const cloudFormation = mockClient(CloudFormationClient);
const ses = mockClient(SESv2Client);
const secrets = mockClient(SecretsManagerClient);
const aws = () =>
  awsReader({
    sts: new STSClient({ region: REGION }),
    cloudFormation: new CloudFormationClient({ region: REGION }),
    ses: new SESv2Client({ region: REGION }),
    secrets: new SecretsManagerClient({ region: REGION }),
  });
const awsError = (name: string, message: string) => Object.assign(new Error(message), { name });
const where = { account: '123456789012', region: REGION };

afterEach(() => {
  sts.reset();
  cloudFormation.reset();
  ses.reset();
  secrets.reset();
});

const bootstrapStack = (version: string, status: StackStatus = 'UPDATE_COMPLETE') =>
  cloudFormation.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
    Stacks: [
      {
        StackName: 'CDKToolkit',
        StackStatus: status,
        CreationTime: new Date(),
        Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: version }],
      },
    ],
  });

describe('the CDK bootstrap check', () => {
  it('fails without a CDKToolkit stack, naming the account and region to bootstrap', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(awsError('ValidationError', 'Stack with id CDKToolkit does not exist'));
    expect(await checkBootstrap(aws(), where, 6)).toEqual({
      name: 'CDK bootstrap',
      ok: false,
      message:
        'The account 123456789012 is not bootstrapped for the CDK in us-east-1 (no CDKToolkit stack): the deploy has nowhere to upload its assets.',
      fix: 'npx cdk bootstrap aws://123456789012/us-east-1',
    });
  });

  it('fails a bootstrap older than the app needs, and passes one as new', async () => {
    bootstrapStack('5');
    expect(await checkBootstrap(aws(), where, 6)).toMatchObject({
      ok: false,
      message: 'The CDK bootstrap in us-east-1 is version 5; this app needs version 6 or later.',
      fix: 'npx cdk bootstrap aws://123456789012/us-east-1',
    });
    cloudFormation.reset();
    bootstrapStack('30');
    expect(await checkBootstrap(aws(), where, 6)).toMatchObject({ ok: true });
  });

  it('fails a bootstrap stack whose creation rolled back', async () => {
    bootstrapStack('30', 'ROLLBACK_COMPLETE');
    expect(await checkBootstrap(aws(), where, 6)).toMatchObject({
      ok: false,
      message: 'The CDKToolkit stack is ROLLBACK_COMPLETE: the last bootstrap did not finish.',
    });
  });

  it('fails a CDKToolkit stack without a BootstrapVersion output', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves({ Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() }] });
    expect(await checkBootstrap(aws(), where, 6)).toMatchObject({
      ok: false,
      message: 'The CDKToolkit stack has no BootstrapVersion output: it is not a CDK bootstrap stack.',
      fix: 'npx cdk bootstrap aws://123456789012/us-east-1',
    });
  });

  it('takes the version the synthesized manifest requires', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      expect(requiredBootstrapVersion(dir)).toBe(6);
      writeFileSync(
        join(dir, 'manifest.json'),
        JSON.stringify({
          artifacts: {
            'ResellerPortal.assets': { properties: { requiresBootstrapStackVersion: 6 } },
            ResellerPortal: { properties: { requiresBootstrapStackVersion: 22 } },
          },
        }),
      );
      expect(requiredBootstrapVersion(dir)).toBe(22);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the SES checks', () => {
  it('fails a sender identity SES does not have, or has not verified, and passes a verified one', async () => {
    ses.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException', 'Email identity example.com does not exist'));
    const mail = { from: 'Reseller Portal <no-reply@example.com>' };
    expect(await checkSesIdentity(aws(), mail, REGION)).toMatchObject({
      ok: false,
      message:
        'SES in us-east-1 has no identity example.com: the portal cannot send as Reseller Portal <no-reply@example.com>.',
      fix: expect.stringContaining('SES console (us-east-1) → Verified identities → Create identity: example.com'),
    });
    ses.reset();
    ses
      .on(GetEmailIdentityCommand, { EmailIdentity: 'no-reply@example.com' })
      .resolves({ VerifiedForSendingStatus: false, VerificationStatus: 'PENDING' });
    expect(
      await checkSesIdentity(aws(), { from: 'no-reply@example.com', identity: 'no-reply@example.com' }, REGION),
    ).toEqual({
      name: 'SES sender',
      ok: false,
      message:
        'The SES identity no-reply@example.com is not verified for sending in us-east-1 (PENDING): every mail the portal sends as no-reply@example.com is refused.',
      fix: 'SES console (us-east-1) → Verified identities → no-reply@example.com: finish its verification (the DKIM records in DNS for a domain, the link in the mail for an address).',
    });
    ses.reset();
    ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' });
    expect(await checkSesIdentity(aws(), mail, REGION)).toMatchObject({ ok: true });
  });

  it('warns without a sender, naming the context to deploy with', async () => {
    expect(await checkSesIdentity(aws(), {}, REGION)).toMatchObject({
      ok: true,
      warning: true,
      message:
        'No sender for e-mail: sign-up sends no verification link, and nobody gets the sale, payout or receipt mails.',
      fix: expect.stringContaining("-c mailFrom='Reseller Portal <no-reply@your-domain>'"),
    });
  });

  it('warns of the sandbox with its limits, fails paused sending, passes production access', async () => {
    ses.on(GetAccountCommand).resolves({
      ProductionAccessEnabled: false,
      SendingEnabled: true,
      SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 },
    });
    expect(await checkSesSandbox(aws(), REGION)).toEqual({
      name: 'SES production access',
      ok: true,
      warning: true,
      message:
        "SES in us-east-1 is in the sandbox: it sends only to verified addresses, at most 200 mails in 24 hours, 1 a second (this account: 200 in 24 hours). Members' and customers' mails reach only addresses verified in SES.",
      fix: 'SES console (us-east-1) → Account dashboard → Request production access.',
    });
    ses.reset();
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: false });
    expect(await checkSesSandbox(aws(), REGION)).toMatchObject({
      ok: false,
      message: "Sending is paused for this account's SES in us-east-1: no mail goes out.",
    });
    ses.reset();
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
    expect(await checkSesSandbox(aws(), REGION)).toMatchObject({
      ok: true,
      message: 'SES in us-east-1 is out of the sandbox.',
    });
  });
});

describe('the secrets check', () => {
  const values: Record<string, string> = {
    TokenSigningKey: 'k'.repeat(64),
    StripeSecretKey: 'sk_test_51Abc',
    StripePublishableKey: 'pk_test_51Abc',
    StripeWebhookSecret: 'whsec_one',
    StripeConnectWebhookSecret: 'whsec_two',
  };
  const setSecrets = (overrides: Record<string, string | Error>) => {
    for (const [name, value] of Object.entries({ ...values, ...overrides })) {
      const command = secrets.on(GetSecretValueCommand, { SecretId: arn(name) });
      if (value instanceof Error) command.rejects(value);
      else command.resolves({ SecretString: value });
    }
  };

  it('passes every secret present and shaped right, and gives the Stripe key', async () => {
    setSecrets({});
    const { results, stripeSecretKey } = await checkSecrets(aws(), OUTPUTS);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true, true]);
    expect(stripeSecretKey).toBe('sk_test_51Abc');
  });

  it('fails a secret with no value yet, with the put-secret-value that sets it', async () => {
    setSecrets({
      StripeConnectWebhookSecret: awsError(
        'ResourceNotFoundException',
        "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
      ),
    });
    const { results } = await checkSecrets(aws(), OUTPUTS);
    expect(results.filter((result) => !result.ok)).toEqual([
      {
        name: 'Secret StripeConnectWebhookSecret',
        ok: false,
        message:
          'The signing secret of /api/stripeConnectWebhook has no value yet: the functions that need it answer an error.',
        fix: `aws secretsmanager put-secret-value --secret-id ${OUTPUTS.StripeConnectWebhookSecretArn} --secret-string 'whsec_…'`,
      },
    ]);
  });

  it('fails misshaped values without printing them, and keys of two modes', async () => {
    setSecrets({
      StripeWebhookSecret: 'we_123',
      StripeSecretKey: 'sk_live_51Abc\n',
      StripePublishableKey: 'pk_test_51Abc',
    });
    const { results, stripeSecretKey } = await checkSecrets(aws(), OUTPUTS);
    const failed = results.filter((result) => !result.ok);
    expect(failed.map((result) => [result.name, result.message])).toEqual([
      [
        'Secret StripeSecretKey',
        'The Stripe secret key is not shaped as one (sk_test_…, without spaces or line breaks around it).',
      ],
      ['Secret StripeWebhookSecret', 'The signing secret of /api/stripeWebhook is not shaped as one (whsec_…).'],
    ]);
    expect(JSON.stringify(results)).not.toContain('we_123');
    expect(stripeSecretKey).toBeUndefined();

    secrets.reset();
    setSecrets({ StripeSecretKey: 'sk_live_51Abc' });
    const pair = (await checkSecrets(aws(), OUTPUTS)).results.find((result) => result.name === 'Stripe key pair');
    expect(pair).toMatchObject({
      ok: false,
      message:
        "The Stripe secret key is a live key and the publishable key a test one: the browser's card form would make tokens the functions cannot use.",
    });
  });

  it('fails a secret the stack has no output for, asking for a deploy of this version', async () => {
    setSecrets({});
    const { StripeConnectWebhookSecretArn: _, ...older } = OUTPUTS;
    const { results } = await checkSecrets(aws(), older);
    expect(results.filter((result) => !result.ok)).toEqual([
      {
        name: 'Secret StripeConnectWebhookSecret',
        ok: false,
        message: 'The stack has no StripeConnectWebhookSecretArn output: deploy this version of the stack first.',
        fix: 'npm run deploy',
      },
    ]);
  });

  it('fails a secret these credentials may not read, saying so', async () => {
    setSecrets({
      TokenSigningKey: awsError('AccessDeniedException', 'User is not authorized to perform GetSecretValue'),
    });
    const { results } = await checkSecrets(aws(), OUTPUTS);
    expect(results[0]).toMatchObject({
      ok: false,
      message:
        'The token signing key could not be read with these credentials (User is not authorized to perform GetSecretValue).',
    });
  });
});

// ---- The whole run ------------------------------------------------------------------------------

describe('a run', () => {
  let dataDir: string;
  let emulator: StripeEmulator;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deploy-run-'));
    emulator = await startStripeEmulator({ dataDir, log: () => undefined, platformPayouts: 'manual' });
  });
  afterAll(async () => {
    await emulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ready = async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012' });
    bootstrapStack('30');
    cloudFormation.on(DescribeStacksCommand, { StackName: 'ResellerPortal' }).resolves({
      Stacks: [
        {
          StackName: 'ResellerPortal',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: new Date(),
          Outputs: Object.entries(OUTPUTS).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    });
    ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true });
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
    const stripe = sdk(emulator.port, emulator.secretKey);
    for (const [url, endpoint] of [
      [PLATFORM_URL, 'platform'],
      [CONNECT_URL, 'connect'],
    ] as const) {
      await stripe.webhookEndpoints.create({
        url,
        enabled_events: [...WEBHOOK_EVENTS[endpoint]],
        api_version: API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
        ...(endpoint === 'connect' ? { connect: true } : {}),
      });
    }
    await stripe.accounts.create(customAccount);
    for (const [name, value] of Object.entries({
      TokenSigningKey: 'k'.repeat(64),
      StripeSecretKey: emulator.secretKey,
      StripePublishableKey: 'pk_test_51Abc',
      StripeWebhookSecret: 'whsec_one',
      StripeConnectWebhookSecret: 'whsec_two',
    })) {
      secrets.on(GetSecretValueCommand, { SecretId: arn(name) }).resolves({ SecretString: value });
    }
  };
  const ports = () => ({ aws: aws(), stripe: (key: string) => stripeReader(sdk(emulator.port, key)) });

  it('prints one line per check and exits 0 when all is well, with the key from the stack’s secret', async () => {
    await ready();
    const lines: string[] = [];
    const results = await runChecks(
      ports(),
      parseArguments(['--stage', 'test', '-c', 'mailFrom=no-reply@example.com']),
      { cdkOut: join(dataDir, 'no-cdk-out') },
      (line) => lines.push(line),
    );
    expect(results.filter((result: CheckResult) => !result.ok)).toEqual([]);
    expect(results.map((result) => result.name)).toEqual([
      'CDK bootstrap',
      'SES sender',
      'SES production access',
      'Secret TokenSigningKey',
      'Secret StripeSecretKey',
      'Secret StripePublishableKey',
      'Secret StripeWebhookSecret',
      'Secret StripeConnectWebhookSecret',
      'Stripe key mode',
      'Stripe Connect',
      'Stripe endpoint /api/stripeWebhook',
      'Stripe endpoint /api/stripeConnectWebhook',
      'Stripe payout schedule',
    ]);
    expect(lines[0]).toBe('AWS account 123456789012, region us-east-1; stage test');
    expect(lines.slice(1).every((line) => line.startsWith('ok   '))).toBe(true);
    expect(exitCode(results)).toBe(0);
  });

  it('exits 1 on a live stage with a test key, printing the failure and its fix, and stops before reading Stripe', async () => {
    await ready();
    const lines: string[] = [];
    const results = await runChecks(
      {
        ...ports(),
        stripe: () => {
          throw new Error('Stripe was called');
        },
      },
      parseArguments(['--stage=live', '-c', 'mailFrom=no-reply@example.com']),
      {},
      (line) => lines.push(line),
    );
    expect(exitCode(results)).toBe(1);
    expect(lines).toContain(
      'FAIL Stripe key mode: This is a test key (sk_test_…) for a live stage: no customer could pay.',
    );
    expect(lines).toContain(
      '     fix: Use the live-mode keys (Dashboard → Developers → API keys, test mode off), or check with --stage test.',
    );
  });

  it('before the first deploy: warns that the secrets and endpoints come later, and checks the key it is given', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012' });
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(awsError('ValidationError', 'Stack with id CDKToolkit does not exist'));
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true });
    const lines: string[] = [];
    const results = await runChecks(ports(), parseArguments([]), { STRIPE_SECRET_KEY: emulator.secretKey }, (line) =>
      lines.push(line),
    );
    expect(results.filter((result) => !result.ok).map((result) => result.name)).toEqual(['CDK bootstrap']);
    expect(lines).toContain('     fix: npx cdk bootstrap aws://123456789012/us-east-1');
    expect(results.find((result) => result.name === 'Secrets')).toMatchObject({ warning: true });
    expect(results.find((result) => result.name === 'Stripe endpoint /api/stripeWebhook')).toMatchObject({
      warning: true,
    });
    expect(results.find((result) => result.name === 'Stripe payout schedule')).toMatchObject({ ok: true });
    expect(exitCode(results)).toBe(1);
  });

  it('reports a call that cannot be made as a failure in words instead of stopping', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012' });
    bootstrapStack('30');
    ses.on(GetAccountCommand).rejects(awsError('AccessDeniedException', 'not authorized to perform ses:GetAccount'));
    const results = await runChecks(ports(), parseArguments([]), {}, () => undefined);
    expect(results.find((result) => result.name === 'SES production access')).toMatchObject({
      ok: false,
      message: 'could not be read: AccessDeniedException: not authorized to perform ses:GetAccount',
    });
  });
});

describe('npm run deploy', () => {
  it('gives cdk deploy every argument but the preflight’s own', () => {
    expect(
      cdkArguments(['--stage', 'live', '-c', 'mailFrom=a@b.c', '--site=x.example', '--require-approval', 'never']),
    ).toEqual(['-c', 'mailFrom=a@b.c', '--require-approval', 'never']);
    expect(parseArguments(['-c', 'mailFrom=Portal <a@b.c>', '-c', 'mailIdentity=b.c'])).toEqual({
      stage: 'test',
      mail: { from: 'Portal <a@b.c>', identity: 'b.c' },
    });
    expect(() => parseArguments(['--stage', 'prod'])).toThrow('--stage is test or live, not prod.');
  });
});
