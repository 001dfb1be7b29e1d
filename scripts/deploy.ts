/**
 * `npm run deploy`: the preflight first (`npm run deploy:check`, scripts/deploy-check.ts), and
 * only when it passes the apps' build and `cdk deploy` with the same arguments (the CDK contexts
 * such as `-c mailFrom=…`; `--stage` and `--site` are the preflight's own).
 *
 *   npm run deploy -- [--stage test|live] [-c mailFrom=…] [other cdk deploy options]
 */
import { spawnSync } from 'node:child_process';
import { preflight } from './deploy-check';

/** The arguments for `cdk deploy`: all but the preflight's own `--stage`/`--site` (and their values). */
export function cdkArguments(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--stage' || argument === '--site') index++;
    else if (!argument.startsWith('--stage=') && !argument.startsWith('--site=')) kept.push(argument);
  }
  return kept;
}

const run = (command: string, args: string[]): number => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const code = await preflight(argv);
  if (code !== 0) {
    console.error('Not deploying: fix what the preflight names above, then run npm run deploy again.');
    process.exitCode = code;
  } else {
    process.exitCode = run('npm', ['run', 'build:web']) || run('npx', ['cdk', 'deploy', ...cdkArguments(argv)]);
  }
}
