import { join } from 'node:path';
import { ReconcileRequest } from '@portal/shared/api/calls/reconcile';
import type { Reconciliation } from '../../functions/src/reconciliation/reconcile';
import { runningPortal } from './portal-marker';

/**
 * `npm run reconcile -- --from YYYY-MM-DD --to YYYY-MM-DD`: compares our ledger with Stripe's over
 * the period (the admin's Reconciliation screen, functions/src/reconciliation/reconcile.ts) and
 * prints every difference in words.
 *
 * - Against the running local portal (its table and its Stripe emulator), as `npm run payouts:run`.
 * - Against a deployed portal with `--table <TableName> --stripe-secret-arn <StripeSecretKeyArn>`
 *   (the stack's outputs), AWS credentials and `AWS_REGION` from the environment, as the AWS CLI
 *   takes them: the same reads the `reconcile` function makes, from this machine.
 *
 * Exit code 0: no difference; 2: differences listed; 1: the command could not run (said why).
 */

export interface ReconcileArgs {
  from: string;
  to: string;
  table?: string;
  stripeSecretArn?: string;
}

const USAGE =
  'Usage: npm run reconcile -- --from YYYY-MM-DD --to YYYY-MM-DD [--table <TableName> --stripe-secret-arn <StripeSecretKeyArn>]';
const FLAGS: Record<string, keyof ReconcileArgs> = {
  '--from': 'from',
  '--to': 'to',
  '--table': 'table',
  '--stripe-secret-arn': 'stripeSecretArn',
};

/** The command's arguments, checked as the call checks its body: every problem in words. */
export function parseReconcileArgs(argv: readonly string[]): ReconcileArgs {
  const given: Partial<Record<keyof ReconcileArgs, string>> = {};
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = argv[index]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = FLAGS[flag];
    if (!name) throw new Error(`Unknown argument ${flag}. ${USAGE}`);
    const value = inline ?? argv[++index];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value. ${USAGE}`);
    given[name] = value;
  }
  const checked = ReconcileRequest.safeParse({ from: given.from ?? '', to: given.to ?? '' });
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`${problems.join('\n')}\n${USAGE}`);
  }
  if (Boolean(given.table) !== Boolean(given.stripeSecretArn)) {
    throw new Error(`A deployed portal needs both --table and --stripe-secret-arn (the stack's outputs). ${USAGE}`);
  }
  return {
    ...checked.data,
    ...(given.table ? { table: given.table } : {}),
    ...(given.stripeSecretArn ? { stripeSecretArn: given.stripeSecretArn } : {}),
  };
}

/** The report as the command prints it: what was compared, then each difference on its own line. */
export function formatReconciliation(result: Reconciliation): string {
  const { checked } = result;
  const lines = [
    `Reconciliation ${result.from} to ${result.to}: compared ${checked.charges} charges, ${checked.refunds} refunds, ${checked.transfers} transfers with ${checked.reversals} reversals, ${checked.payouts} payouts on ${checked.accounts} connected accounts, ${checked.orders} orders and ${checked.commissions} commissions.`,
  ];
  if (result.differences.length === 0) lines.push('No differences: our ledger and Stripe agree.');
  else {
    lines.push(`${result.differences.length} difference${result.differences.length === 1 ? '' : 's'}:`);
    for (const difference of result.differences) lines.push(`  - ${difference.text}`);
  }
  return lines.join('\n');
}

/** Reconciliation over the period, with the composition the functions use (loaded with the environment set). */
async function runReconcile(from: string, to: string): Promise<Reconciliation> {
  const { reconciliation } = await import('../../functions/src/composition');
  const { reconcile } = await import('../../functions/src/reconciliation/reconcile');
  return reconcile(reconciliation, from, to);
}

async function main(): Promise<number> {
  const args = parseReconcileArgs(process.argv.slice(2));
  if (args.table && args.stripeSecretArn) {
    if (!process.env.AWS_REGION && !process.env.AWS_DEFAULT_REGION) {
      throw new Error(
        'Set AWS_REGION to the deployed portal’s region (and AWS credentials as the AWS CLI takes them).',
      );
    }
    process.env.AWS_REGION ??= process.env.AWS_DEFAULT_REGION;
    // AWS's own DynamoDB and Stripe's own API, with the key the deployed functions use: a local
    // endpoint or a key in this shell (npm run stripe:check's) must not stand in for them.
    for (const name of ['DYNAMODB_ENDPOINT', 'STRIPE_API_URL', 'STRIPE_SECRET_KEY']) delete process.env[name];
    Object.assign(process.env, { TABLE_NAME: args.table, STRIPE_SECRET_KEY_ARN: args.stripeSecretArn });
  } else {
    const { root } = await import('./start');
    const dataDir = join(root, '.local');
    const portal = runningPortal(dataDir);
    if (!portal) {
      throw new Error(
        'The portal is not running: start it with npm start (reconciliation reads its table and its Stripe emulator), then run this again. For a deployed portal, give --table and --stripe-secret-arn.',
      );
    }
    // Locally the code runs as the stack's reconcile function: its environment from the template,
    // its AWS calls held to its role, its memory and timeout (script-functions.ts, invoker.ts).
    const { functionNamed, portalFunctions } = await import('./script-functions');
    const { invokeEvent } = await import('./invoker');
    const fn = functionNamed(await portalFunctions(dataDir, portal, ({ name }) => name === 'reconcile'), 'reconcile');
    const result = await invokeEvent(
      fn,
      () => runReconcile(args.from, args.to),
      {},
      (line) => console.log(line),
    );
    console.log(formatReconciliation(result));
    return result.differences.length === 0 ? 0 : 2;
  }
  // Deployed: the operator's own AWS credentials, as the AWS CLI takes them (IAM is AWS's there).
  const result = await runReconcile(args.from, args.to);
  console.log(formatReconciliation(result));
  return result.differences.length === 0 ? 0 : 2;
}

if (process.argv[1] && /run-reconcile\.ts$/.test(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
