import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureAccount } from './accounts';
import { secureDir } from './files';
import { ensureTable, startDynamo, type LocalDynamo } from './dynamo';
import { TABLE_NAME, configureEnvironment, root } from './start';
import { runningPortal } from './portal-marker';

/**
 * `npm run create-admin -- <email> [--password <password>]`: makes <email> an administrator in
 * the local portal, creating the account when it does not exist.
 * `npm run create-admin -- <email> --table <TableName> [--region <region>]` does the same
 * against a deployed stack's table (TableName is a stack output), with your AWS credentials.
 */
const usage =
  'Usage: npm run create-admin -- <email> [--password <password>] [--table <TableName> [--region <region>]]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { password: { type: 'string' }, table: { type: 'string' }, region: { type: 'string' } },
  });
  const email = positionals[0];
  if (!email || positionals.length > 1) throw new Error(usage);
  const generated = values.password ? undefined : randomBytes(12).toString('base64url');
  const password = values.password ?? generated;

  let local: LocalDynamo | undefined;
  if (values.table) {
    Object.assign(process.env, { TABLE_NAME: values.table, ...(values.region ? { AWS_REGION: values.region } : {}) });
  } else {
    const dataDir = join(root, '.local');
    process.umask(0o077);
    secureDir(dataDir);
    let endpoint = runningPortal(dataDir)?.dynamoEndpoint;
    if (!endpoint) {
      local = await startDynamo({ dataDir: join(dataDir, 'dynamodb') });
      endpoint = local.endpoint;
      await ensureTable(local.client, TABLE_NAME);
    }
    configureEnvironment({ dataDir, dynamoEndpoint: endpoint });
  }
  try {
    const outcome = await ensureAccount(email, password, true);
    if (outcome === 'created') {
      console.log(`Created administrator ${email}.`);
      if (generated) console.log(`Its password is: ${generated}\nKeep it somewhere safe; it is not shown again.`);
    } else {
      console.log(`${email} is an administrator now (the account already existed; its password is unchanged).`);
    }
  } finally {
    await local?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
