/**
 * `npm run deploy:check` (and the first step of `npm run deploy`): reads the AWS account and the
 * Stripe account a deploy goes to, with read-only calls only, and prints one line per check: what
 * is missing, in words, and the command or console step that fixes it (docs/deploy.md). Exits 1
 * when anything is missing, 0 when all is well (warnings say what holds but limits the portal).
 *
 * AWS: region and credentials from the environment (as the CDK CLI takes them). Stripe: the secret
 * key from `STRIPE_SECRET_KEY`, else from the deployed stack's secret; `STRIPE_API_URL` points at
 * the local emulator, as for `npm run stripe:check`.
 *
 *   npm run deploy:check -- [--stage test|live] [-c mailFrom=… -c mailIdentity=…] [--site d123.cloudfront.net]
 *
 * Each check is a function of read-only ports (below) answering `{ name, ok, message, fix }`, so
 * the tests drive them against the Stripe emulator and mocked AWS clients.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import Stripe from 'stripe';
import { API_VERSION, connectionOptions } from '../functions/src/adapters/payments/stripe-gateway';
import { WEBHOOK_EVENTS, type WebhookEndpoint } from '../functions/src/payments/payment-gateway';

/** One check's result; `warning` marks a check that holds but limits the portal (it does not fail the deploy). */
export interface CheckResult {
  name: string;
  ok: boolean;
  warning?: boolean;
  message: string;
  /** The command or console step that fixes it (for a failure or a warning). */
  fix?: string;
}

export type Stage = 'test' | 'live';

export const PORTAL_STACK = 'ResellerPortal';
export const BOOTSTRAP_STACK = 'CDKToolkit';
/**
 * The bootstrap version a deploy needs when no synthesized manifest says more: aws-cdk-lib's
 * DefaultStackSynthesizer requires 6 for deploying (`MIN_BOOTSTRAP_STACK_VERSION`); the manifest
 * in cdk.out names what this app's stack requires (`requiresBootstrapStackVersion`).
 */
export const DEFAULT_REQUIRED_BOOTSTRAP_VERSION = 6;
/** SES's sandbox (docs.aws.amazon.com/ses/latest/dg/request-production-access.html). */
export const SANDBOX_LIMITS = 'it sends only to verified addresses, at most 200 mails in 24 hours, 1 a second';

const pass = (name: string, message: string): CheckResult => ({ name, ok: true, message });
const fail = (name: string, message: string, fix: string): CheckResult => ({ name, ok: false, message, fix });
const warn = (name: string, message: string, fix: string): CheckResult => ({
  name,
  ok: true,
  warning: true,
  message,
  fix,
});

// ---- Read-only ports ---------------------------------------------------------------------------

export interface AwsReader {
  /** The account and region the credentials reach (STS GetCallerIdentity). */
  whoAmI(): Promise<{ account: string; region: string }>;
  /** A CloudFormation stack's status and outputs, or `undefined` when there is none. */
  stack(name: string): Promise<{ status: string; outputs: Record<string, string> } | undefined>;
  /** SES (v2) account: out of the sandbox, sending enabled, its 24-hour quota. */
  sesAccount(): Promise<{ productionAccess: boolean; sendingEnabled: boolean; max24HourSend: number | undefined }>;
  /** An SES identity, or `undefined` when SES has none by that name in the region. */
  sesIdentity(name: string): Promise<{ verifiedForSending: boolean; status: string | undefined } | undefined>;
  /** A secret's current value: `missing` when it has none yet, `unreadable` with the reason when refused. */
  secret(arn: string): Promise<{ value: string } | { missing: true } | { unreadable: string }>;
}

/** The AWS side through the SDK's clients: only Describe/Get calls. */
export function awsReader(clients: {
  sts: STSClient;
  cloudFormation: CloudFormationClient;
  ses: SESv2Client;
  secrets: SecretsManagerClient;
}): AwsReader {
  return {
    async whoAmI() {
      const identity = await clients.sts.send(new GetCallerIdentityCommand({}));
      return { account: identity.Account ?? '<account>', region: await clients.sts.config.region() };
    },
    async stack(name) {
      try {
        const answer = await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: name }));
        const stack = answer.Stacks?.[0];
        if (!stack) return undefined;
        return {
          status: stack.StackStatus ?? 'UNKNOWN',
          outputs: Object.fromEntries(
            (stack.Outputs ?? []).flatMap((output) =>
              output.OutputKey && output.OutputValue !== undefined ? [[output.OutputKey, output.OutputValue]] : [],
            ),
          ),
        };
      } catch (error) {
        // CloudFormation answers a stack that does not exist with a ValidationError saying so.
        if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message)) {
          return undefined;
        }
        throw error;
      }
    },
    async sesAccount() {
      const account = await clients.ses.send(new GetAccountCommand({}));
      return {
        productionAccess: account.ProductionAccessEnabled === true,
        sendingEnabled: account.SendingEnabled !== false,
        max24HourSend: account.SendQuota?.Max24HourSend,
      };
    },
    async sesIdentity(name) {
      try {
        const identity = await clients.ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
        return { verifiedForSending: identity.VerifiedForSendingStatus === true, status: identity.VerificationStatus };
      } catch (error) {
        if (error instanceof Error && error.name === 'NotFoundException') return undefined;
        throw error;
      }
    },
    async secret(arn) {
      try {
        const answer = await clients.secrets.send(new GetSecretValueCommand({ SecretId: arn }));
        return answer.SecretString === undefined ? { missing: true } : { value: answer.SecretString };
      } catch (error) {
        // A secret made without a value has no AWSCURRENT version: Secrets Manager answers ResourceNotFoundException.
        if (error instanceof Error && error.name === 'ResourceNotFoundException') return { missing: true };
        if (error instanceof Error && error.name === 'AccessDeniedException') return { unreadable: error.message };
        throw error;
      }
    },
  };
}

export interface StripeReader {
  /** The platform's own account (`GET /v1/account`). */
  platform(): Promise<Stripe.Account>;
  /** Whether any connected account is listed (`GET /v1/accounts?limit=1`); Stripe's refusal as thrown. */
  anyConnectedAccount(): Promise<boolean>;
  /** Every webhook endpoint of the account. */
  webhookEndpoints(): Promise<Stripe.WebhookEndpoint[]>;
}

export function stripeReader(stripe: Stripe): StripeReader {
  return {
    platform: () => stripe.accounts.retrieveCurrent(),
    anyConnectedAccount: async () => (await stripe.accounts.list({ limit: 1 })).data.length > 0,
    webhookEndpoints: () => stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 }),
  };
}

// ---- AWS checks --------------------------------------------------------------------------------

/** The bootstrap version the synthesized app requires (cdk.out/manifest.json), else aws-cdk-lib's minimum. */
export function requiredBootstrapVersion(cdkOut = 'cdk.out'): number {
  const file = `${cdkOut}/manifest.json`;
  if (!existsSync(file)) return DEFAULT_REQUIRED_BOOTSTRAP_VERSION;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
    artifacts?: Record<string, { properties?: { requiresBootstrapStackVersion?: number } }>;
  };
  const versions = Object.entries(manifest.artifacts ?? {})
    .filter(([id]) => id === PORTAL_STACK || id.startsWith(`${PORTAL_STACK}.`))
    .map(([, artifact]) => artifact.properties?.requiresBootstrapStackVersion ?? 0);
  return Math.max(DEFAULT_REQUIRED_BOOTSTRAP_VERSION, ...versions);
}

export async function checkBootstrap(
  aws: AwsReader,
  where: { account: string; region: string },
  required: number,
): Promise<CheckResult> {
  const name = 'CDK bootstrap';
  const fix = `npx cdk bootstrap aws://${where.account}/${where.region}`;
  const stack = await aws.stack(BOOTSTRAP_STACK);
  if (!stack) {
    return fail(
      name,
      `The account ${where.account} is not bootstrapped for the CDK in ${where.region} (no ${BOOTSTRAP_STACK} stack): the deploy has nowhere to upload its assets.`,
      fix,
    );
  }
  if (/FAILED|ROLLBACK_COMPLETE|DELETE/.test(stack.status) && !/UPDATE_ROLLBACK_COMPLETE$/.test(stack.status)) {
    return fail(name, `The ${BOOTSTRAP_STACK} stack is ${stack.status}: the last bootstrap did not finish.`, fix);
  }
  const version = Number(stack.outputs.BootstrapVersion);
  if (!Number.isInteger(version)) {
    return fail(
      name,
      `The ${BOOTSTRAP_STACK} stack has no BootstrapVersion output: it is not a CDK bootstrap stack.`,
      fix,
    );
  }
  if (version < required) {
    return fail(
      name,
      `The CDK bootstrap in ${where.region} is version ${version}; this app needs version ${required} or later.`,
      fix,
    );
  }
  return pass(name, `${BOOTSTRAP_STACK} in ${where.region} is version ${version} (this app needs ${required}).`);
}

/** The SES identity the functions send as: `mailIdentity`, else the domain of `mailFrom` (as the stack grants it). */
export function mailIdentityOf(mail: { from?: string; identity?: string }): string | undefined {
  if (mail.identity) return mail.identity;
  if (!mail.from) return undefined;
  const address = /<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from;
  return address.includes('@') ? address.slice(address.lastIndexOf('@') + 1).trim() : undefined;
}

export async function checkSesIdentity(
  aws: AwsReader,
  mail: { from?: string; identity?: string },
  region: string,
): Promise<CheckResult> {
  const name = 'SES sender';
  const identity = mailIdentityOf(mail);
  if (!mail.from || !identity) {
    return warn(
      name,
      'No sender for e-mail: sign-up sends no verification link, and nobody gets the sale, payout or receipt mails.',
      'Deploy with -c mailFrom=\'Reseller Portal <no-reply@your-domain>\' (docs/deploy.md, "E-mail (SES)").',
    );
  }
  const found = await aws.sesIdentity(identity);
  const verify = `SES console (${region}) → Verified identities → Create identity: ${identity} (a domain: publish its DKIM CNAME records; an address: open the link SES mails to it).`;
  if (!found)
    return fail(name, `SES in ${region} has no identity ${identity}: the portal cannot send as ${mail.from}.`, verify);
  if (!found.verifiedForSending) {
    return fail(
      name,
      `The SES identity ${identity} is not verified for sending in ${region} (${found.status ?? 'not verified'}): every mail the portal sends as ${mail.from} is refused.`,
      `SES console (${region}) → Verified identities → ${identity}: finish its verification (the DKIM records in DNS for a domain, the link in the mail for an address).`,
    );
  }
  return pass(name, `${identity} is verified for sending in ${region}.`);
}

export async function checkSesSandbox(aws: AwsReader, region: string): Promise<CheckResult> {
  const name = 'SES production access';
  const account = await aws.sesAccount();
  if (!account.sendingEnabled) {
    return fail(
      name,
      `Sending is paused for this account's SES in ${region}: no mail goes out.`,
      `SES console (${region}) → Account dashboard: read why sending was paused and resume it (aws sesv2 put-account-sending-attributes --sending-enabled once the cause is fixed).`,
    );
  }
  if (!account.productionAccess) {
    return warn(
      name,
      `SES in ${region} is in the sandbox: ${SANDBOX_LIMITS}${account.max24HourSend !== undefined ? ` (this account: ${account.max24HourSend} in 24 hours)` : ''}. Members' and customers' mails reach only addresses verified in SES.`,
      `SES console (${region}) → Account dashboard → Request production access.`,
    );
  }
  return pass(name, `SES in ${region} is out of the sandbox.`);
}

/** The stack's secrets (output names) and what each value looks like. */
const SECRETS: { output: string; what: string; shape: RegExp; example: string }[] = [
  { output: 'TokenSigningKeyArn', what: 'The token signing key', shape: /^.{64}$/s, example: '<64 characters>' },
  { output: 'StripeSecretKeyArn', what: 'The Stripe secret key', shape: /^sk_(test|live)_\w+$/, example: 'sk_test_…' },
  {
    output: 'StripePublishableKeyArn',
    what: 'The Stripe publishable key',
    shape: /^pk_(test|live)_\w+$/,
    example: 'pk_test_…',
  },
  {
    output: 'StripeWebhookSecretArn',
    what: 'The signing secret of /api/stripeWebhook',
    shape: /^whsec_\w+$/,
    example: 'whsec_…',
  },
  {
    output: 'StripeConnectWebhookSecretArn',
    what: 'The signing secret of /api/stripeConnectWebhook',
    shape: /^whsec_\w+$/,
    example: 'whsec_…',
  },
];

const modeOf = (key: string): Stage | undefined =>
  /^[sp]k_live_/.test(key) ? 'live' : /^[sp]k_test_/.test(key) ? 'test' : undefined;

/**
 * Every secret the stack's outputs name has a value of its shape, and the two Stripe keys are of
 * one mode. Answers the results and the Stripe secret key when it is there.
 */
export async function checkSecrets(
  aws: AwsReader,
  outputs: Record<string, string>,
): Promise<{ results: CheckResult[]; stripeSecretKey: string | undefined }> {
  const results: CheckResult[] = [];
  const values: Record<string, string> = {};
  for (const secret of SECRETS) {
    const name = `Secret ${secret.output.replace(/Arn$/, '')}`;
    const arn = outputs[secret.output];
    const put = `aws secretsmanager put-secret-value --secret-id ${arn ?? `<${secret.output}>`} --secret-string '${secret.example}'`;
    if (!arn) {
      results.push(
        fail(
          name,
          `The stack has no ${secret.output} output: deploy this version of the stack first.`,
          'npm run deploy',
        ),
      );
      continue;
    }
    const read = await aws.secret(arn);
    if ('unreadable' in read) {
      results.push(
        fail(
          name,
          `${secret.what} could not be read with these credentials (${read.unreadable}).`,
          'Run the check with credentials allowed secretsmanager:GetSecretValue on the stack’s secrets (the deploying role is).',
        ),
      );
    } else if ('missing' in read) {
      results.push(fail(name, `${secret.what} has no value yet: the functions that need it answer an error.`, put));
    } else if (!secret.shape.test(read.value.trim()) || read.value !== read.value.trim()) {
      // Never print a secret: only what it should look like.
      results.push(
        fail(
          name,
          `${secret.what} is not shaped as one (${secret.example}${read.value !== read.value.trim() ? ', without spaces or line breaks around it' : ''}).`,
          put,
        ),
      );
    } else {
      values[secret.output] = read.value;
      results.push(pass(name, `${secret.what} is set and shaped right.`));
    }
  }
  const secretKey = values.StripeSecretKeyArn;
  const publishable = values.StripePublishableKeyArn;
  if (secretKey && publishable && modeOf(secretKey) !== modeOf(publishable)) {
    results.push(
      fail(
        'Stripe key pair',
        `The Stripe secret key is a ${modeOf(secretKey)} key and the publishable key a ${modeOf(publishable)} one: the browser's card form would make tokens the functions cannot use.`,
        `aws secretsmanager put-secret-value --secret-id ${outputs.StripePublishableKeyArn} --secret-string 'pk_${modeOf(secretKey)}_…' (the pair from the same Dashboard mode)`,
      ),
    );
  }
  return { results, stripeSecretKey: secretKey };
}

// ---- Stripe checks -----------------------------------------------------------------------------

export function checkKeyMode(key: string, stage: Stage): CheckResult {
  const name = 'Stripe key mode';
  const mode = key.startsWith('sk_live_') ? 'live' : key.startsWith('sk_test_') ? 'test' : undefined;
  if (key.startsWith('rk_')) {
    return fail(
      name,
      'This is a restricted key (rk_…): the portal makes accounts, transfers, payouts and refunds, which needs the secret key.',
      'Dashboard → Developers → API keys: the Secret key (sk_…).',
    );
  }
  if (!mode)
    return fail(
      name,
      'This is not a Stripe secret key (sk_test_… or sk_live_…).',
      'Dashboard → Developers → API keys: the Secret key.',
    );
  if (mode !== stage) {
    return fail(
      name,
      stage === 'test'
        ? 'This is a live key (sk_live_…) for a test stage: it would take real payments and make real payouts.'
        : 'This is a test key (sk_test_…) for a live stage: no customer could pay.',
      stage === 'test'
        ? 'Use the test-mode keys (Dashboard in test mode → Developers → API keys), or deploy with --stage live.'
        : 'Use the live-mode keys (Dashboard → Developers → API keys, test mode off), or check with --stage test.',
    );
  }
  return pass(name, `A ${mode} key for a ${stage} stage.`);
}

export async function checkConnect(stripe: StripeReader): Promise<CheckResult> {
  const name = 'Stripe Connect';
  const fix =
    'Dashboard → Connect → Get started, then Connect → Settings → Platform profile: the platform collects the requirements and covers the losses (docs/deploy.md, "Stripe").';
  try {
    if (await stripe.anyConnectedAccount())
      return pass(name, 'The platform has connected accounts: Connect is set up.');
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && /signed up for Connect/i.test(error.message)) {
      return fail(name, 'This Stripe account has not signed up for Connect: no member could set up payouts.', fix);
    }
    throw error;
  }
  // Stripe lists no connected accounts before Connect is set up as after: only making one proves it.
  return warn(
    name,
    'No connected accounts yet, so reading cannot tell whether Connect is set up (Stripe answers an empty list either way); the first member who sets up payouts will show it.',
    `${fix} To try it before a member does: STRIPE_SECRET_KEY=sk_test_… npm run stripe:check (test mode).`,
  );
}

const ENDPOINT_PATH: Record<WebhookEndpoint, string> = {
  platform: '/api/stripeWebhook',
  connect: '/api/stripeConnectWebhook',
};

/** The site's host from a `SiteUrl` output (`https://d123.cloudfront.net/`) or a bare host. */
export const siteHost = (site: string): string => site.replace(/^https?:\/\//, '').replace(/\/.*$/, '');

export async function checkWebhookEndpoint(
  stripe: StripeReader,
  site: string,
  endpoint: WebhookEndpoint,
  secretArn?: string,
): Promise<CheckResult> {
  const url = `https://${siteHost(site)}${ENDPOINT_PATH[endpoint]}`;
  const name = `Stripe endpoint ${ENDPOINT_PATH[endpoint]}`;
  const wanted: readonly string[] = WEBHOOK_EVENTS[endpoint];
  const kind = endpoint === 'connect' ? 'Events on Connected accounts' : 'Events on your account';
  const add = `Dashboard → Developers → Webhooks → Add endpoint: ${url}, "${kind}", API version ${API_VERSION}, events ${wanted.join(', ')}; then aws secretsmanager put-secret-value --secret-id ${secretArn ?? `<Stripe${endpoint === 'connect' ? 'Connect' : ''}WebhookSecretArn>`} --secret-string 'whsec_…' with its signing secret.`;
  const found = (await stripe.webhookEndpoints()).filter((one) => one.url === url);
  if (found.length === 0)
    return fail(name, `No webhook endpoint at ${url}: the portal would never hear of ${wanted.join(', ')}.`, add);
  if (found.length > 1) {
    return fail(
      name,
      `${found.length} webhook endpoints at ${url} (${found.map((one) => one.id).join(', ')}): each signs with its own secret, so only one verifies and the other's deliveries fail.`,
      'Dashboard → Developers → Webhooks: delete all but the one whose signing secret is stored.',
    );
  }
  const [registered] = found as [Stripe.WebhookEndpoint];
  const problems: string[] = [];
  const fixes: string[] = [];
  if (registered.status !== 'enabled') {
    problems.push(`it is ${registered.status}, so nothing is sent to it`);
    fixes.push(`Dashboard → Developers → Webhooks → ${registered.id} → Enable`);
  }
  const events = registered.enabled_events;
  const missing = events.includes('*') ? [] : wanted.filter((event) => !events.includes(event));
  const extra = events.filter((event) => !wanted.includes(event));
  if (missing.length) problems.push(`it lacks ${missing.join(', ')}`);
  if (extra.length) {
    problems.push(
      `it also sends ${extra.join(', ')}, which the portal does not act on (${events.includes('*') ? 'every event: ' : ''}acknowledged and ignored, one request each)`,
    );
  }
  if (missing.length || extra.length) {
    fixes.push(
      `Dashboard → Developers → Webhooks → ${registered.id} → Update details: select exactly ${wanted.join(', ')}`,
    );
  }
  if (registered.api_version !== API_VERSION) {
    problems.push(
      `its API version is ${registered.api_version ?? "the account's default"}, not the SDK's ${API_VERSION}, so events come in a shape the code does not read`,
    );
    fixes.push(
      `an endpoint keeps the API version it was made with: add a new one at ${url} with API version ${API_VERSION} (as above), store its signing secret, then delete ${registered.id}`,
    );
  }
  if (problems.length)
    return fail(name, `The endpoint ${registered.id} at ${url}: ${problems.join('; ')}.`, `${fixes.join('; ')}.`);
  return pass(
    name,
    `${registered.id} at ${url}: enabled, ${wanted.length} events, API version ${API_VERSION} (that it receives ${endpoint === 'connect' ? 'connected accounts’' : 'the account’s own'} events is not shown by Stripe's API: made as "${kind}").`,
  );
}

/**
 * The platform's own payouts are manual: orders entered by hand are paid to members from the
 * balance the platform keeps at Stripe (docs/deploy.md, "Stripe"), which a daily schedule would
 * pay out to the platform's bank every day.
 */
export async function checkPayoutSchedule(stripe: StripeReader): Promise<CheckResult> {
  const name = 'Stripe payout schedule';
  const schedule = (await stripe.platform()).settings?.payouts?.schedule;
  const interval = schedule?.interval ?? 'unknown';
  if (interval !== 'manual') {
    return fail(
      name,
      `The platform's payouts are ${interval}${schedule?.delay_days ? ` (${schedule.delay_days} days)` : ''}: Stripe would pay its available balance out to its bank, leaving nothing for the commissions of orders entered by hand, which are paid from that balance.`,
      'Dashboard → Settings → Payouts (Balances → Payout schedule): Manual.',
    );
  }
  return pass(name, 'The platform pays out manually: its available balance stays for commissions.');
}

// ---- The run -----------------------------------------------------------------------------------

export interface Options {
  stage: Stage;
  mail: { from?: string; identity?: string };
  site?: string;
}

/** `--stage test|live`, `--site <host>` and the CDK contexts `-c mailFrom=… -c mailIdentity=…` (as `npm run deploy` takes them). */
export function parseArguments(argv: readonly string[]): Options {
  const options: Options = { stage: 'test', mail: {} };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes('=') && argument.startsWith('--') ? argument.split(/=(.*)/s) : [argument];
    const value = () => inline ?? argv[++index];
    if (flag === '--stage') {
      const stage = value();
      if (stage !== 'test' && stage !== 'live') throw new Error(`--stage is test or live, not ${stage ?? 'nothing'}.`);
      options.stage = stage;
    } else if (flag === '--site') {
      options.site = value();
    } else if (flag === '-c' || flag === '--context') {
      const [key, contextValue] = (value() ?? '').split(/=(.*)/s);
      if (key === 'mailFrom') options.mail.from = contextValue;
      if (key === 'mailIdentity') options.mail.identity = contextValue;
    }
  }
  return options;
}

export async function runChecks(
  ports: { aws: AwsReader; stripe: (key: string) => StripeReader },
  options: Options,
  env: { STRIPE_SECRET_KEY?: string; cdkOut?: string },
  print: (line: string) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    const mark = !result.ok ? 'FAIL' : result.warning ? 'WARN' : 'ok  ';
    print(`${mark} ${result.name}: ${result.message}`);
    if (result.fix && (!result.ok || result.warning)) print(`     fix: ${result.fix}`);
  };
  const guarded = async (name: string, check: () => Promise<CheckResult | CheckResult[]>) => {
    try {
      const answer = await check();
      for (const result of Array.isArray(answer) ? answer : [answer]) report(result);
    } catch (error) {
      report(
        fail(
          name,
          `could not be read: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
          'Check the credentials and network for this account, then run npm run deploy:check again.',
        ),
      );
    }
  };

  const where = await ports.aws.whoAmI();
  print(`AWS account ${where.account}, region ${where.region}; stage ${options.stage}`);
  await guarded('CDK bootstrap', () => checkBootstrap(ports.aws, where, requiredBootstrapVersion(env.cdkOut)));
  await guarded('SES sender', () => checkSesIdentity(ports.aws, options.mail, where.region));
  await guarded('SES production access', () => checkSesSandbox(ports.aws, where.region));

  let outputs: Record<string, string> | undefined;
  let stackKey: string | undefined;
  await guarded('Secrets', async () => {
    const stack = await ports.aws.stack(PORTAL_STACK);
    if (!stack || !stack.outputs.StripeSecretKeyArn) {
      return warn(
        'Secrets',
        `The ${PORTAL_STACK} stack is not deployed yet: its secrets come with the first deploy.`,
        'After the first deploy put the Stripe values (docs/deploy.md, "Stripe", step 3) and run npm run deploy:check again.',
      );
    }
    outputs = stack.outputs;
    const { results: secretResults, stripeSecretKey } = await checkSecrets(ports.aws, stack.outputs);
    stackKey = stripeSecretKey;
    return secretResults;
  });

  const key = env.STRIPE_SECRET_KEY || stackKey;
  if (!key) {
    report(
      warn(
        'Stripe',
        'No Stripe key to check with (no STRIPE_SECRET_KEY, no value in the stack’s secret yet): Stripe was not checked.',
        'STRIPE_SECRET_KEY=sk_test_… npm run deploy:check, or put the key in the stack’s secret after the first deploy.',
      ),
    );
    return results;
  }
  const modeResult = checkKeyMode(key, options.stage);
  report(modeResult);
  if (!modeResult.ok) return results;
  const stripe = ports.stripe(key);
  await guarded('Stripe Connect', () => checkConnect(stripe));
  const site = options.site ?? outputs?.SiteUrl;
  for (const endpoint of ['platform', 'connect'] as const) {
    const name = `Stripe endpoint ${ENDPOINT_PATH[endpoint]}`;
    if (!site) {
      report(
        warn(
          name,
          'The site address is not known before the first deploy (its SiteUrl output), so the endpoint was not checked.',
          'After the first deploy register it (docs/deploy.md, "Stripe", step 2) and run npm run deploy:check again.',
        ),
      );
      continue;
    }
    const secretArn = outputs?.[endpoint === 'connect' ? 'StripeConnectWebhookSecretArn' : 'StripeWebhookSecretArn'];
    await guarded(name, () => checkWebhookEndpoint(stripe, site, endpoint, secretArn));
  }
  await guarded('Stripe payout schedule', () => checkPayoutSchedule(stripe));
  return results;
}

/** Exit code of a run: 1 when any check failed (warnings do not fail it). */
export const exitCode = (results: readonly CheckResult[]): number => (results.some((result) => !result.ok) ? 1 : 0);

/** The preflight against the accounts the environment names; prints each check and answers the exit code. */
export async function preflight(argv: readonly string[], print: (line: string) => void = console.log): Promise<number> {
  let options: Options;
  try {
    options = parseArguments(argv);
  } catch (error) {
    print(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const aws = awsReader({
    sts: new STSClient({}),
    cloudFormation: new CloudFormationClient({}),
    ses: new SESv2Client({}),
    secrets: new SecretsManagerClient({}),
  });
  const stripe = (key: string) =>
    stripeReader(new Stripe(key, { apiVersion: API_VERSION, ...connectionOptions(process.env.STRIPE_API_URL) }));
  try {
    const results = await runChecks({ aws, stripe }, options, process.env, print);
    const failed = results.filter((result) => !result.ok).length;
    print(failed ? `${failed} thing(s) to fix before deploying (docs/deploy.md).` : 'The accounts are ready.');
    return exitCode(results);
  } catch (error) {
    print(`The preflight could not run: ${error instanceof Error ? error.message : String(error)}`);
    print(
      'Set AWS credentials and a region for the target account (AWS_PROFILE, or AWS_ACCESS_KEY_ID… and AWS_REGION).',
    );
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void preflight(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
