/**
 * `npx tsx scripts/reset-timing.ts [rounds]`: the medians of /api/requestPasswordReset's answer
 * time for an address with an account and for one without (issue 35; decision 0241), against a
 * DynamoDB Local of its own and the local mail outbox, the handler called as Lambda calls it.
 * Each round asks for both, from fresh client addresses, an hour later on the injected clock than
 * the one before (so the account's own limit never stops its mail). Prints the two medians; a
 * measurement for the decision record, not a test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { functionEnvironment } from '../infra/lib/bundling';
import { ensureTable, localAws, startDynamo } from '../infra/local/dynamo';
import { lambdaContext, toApiEvent, type ApiHandler } from '../infra/local/api-event';

const rounds = Number(process.argv[2] ?? 200);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const dir = mkdtempSync(join(tmpdir(), 'reset-timing-'));
const dynamo = await startDynamo();
try {
  const table = `timing-${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, {
    TABLE_NAME: table,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: localAws.region,
    AWS_ACCESS_KEY_ID: localAws.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: localAws.credentials.secretAccessKey,
    ...functionEnvironment,
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    MAIL_OUTBOX_QUIET: '1',
    SITE_URL: 'http://127.0.0.1:3999',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  await ensureTable(dynamo.client, table);
  const { ensureAccount } = await import('../infra/local/accounts');
  const { clock } = await import('../functions/src/config/clock');
  const { handler } = (await import('../functions/src/handlers/request-password-reset')) as { handler: ApiHandler };
  const known = 'timing-member@example.com';
  await ensureAccount(known, 'a long enough password for timing', false);

  let ip = 0;
  const ask = async (email: string): Promise<number> => {
    ip++;
    const event = toApiEvent({
      method: 'POST',
      path: '/api/requestPasswordReset',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ email })),
      sourceIp: `198.18.${(ip >> 8) & 255}.${ip & 255}`,
    });
    const started = performance.now();
    const result = await handler(event, lambdaContext('requestPasswordReset', 10_000));
    const elapsed = performance.now() - started;
    if (result.statusCode !== 200) throw new Error(`answered ${result.statusCode}: ${result.body}`);
    return elapsed;
  };

  const base = Date.now();
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let round = -20; round < rounds; round++) {
    clock.now = () => base + (round + 20) * 60 * 60 * 1000;
    const pair = round % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const which of pair) {
      const elapsed = await ask(which === 'known' ? known : `nobody-${round}@example.com`);
      if (round >= 0) times[which].push(elapsed);
    }
  }
  console.log(
    `${rounds} rounds: registered ${median(times.known).toFixed(1)} ms, unknown ${median(times.unknown).toFixed(1)} ms (medians)`,
  );
} finally {
  await dynamo.stop();
  rmSync(dir, { recursive: true, force: true });
}
