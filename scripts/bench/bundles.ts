import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { eventFunctions, routes, secretEnv, type Route } from '../../functions/src/routes';
import { functionBundling, functionEnvironment, functionNodeOptions } from '../../infra/lib/bundling';
import { formatTable, median, type BenchSection } from './section';

/** What a bundle is made from: a route or an event-started function. */
type FunctionEntry = Pick<Route, 'module' | 'access'> & { name: string };

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Budget per function bundle (minified index.js, source map not counted). */
const BUNDLE_BUDGET_KIB = 250;
/**
 * The functions that call Stripe carry the `stripe` SDK (about 241 KiB minified) and get their own
 * budget; every other function keeps the one above and must not carry it.
 */
const STRIPE_BUNDLE_BUDGET_KIB = 420;
/** Goal for the Stripe-carrying functions' median cold import (reported; a later issue lowers it). */
const STRIPE_IMPORT_GOAL_MS = 100;

/** Whether a bundle holds the `stripe` SDK. */
const carriesStripe = (metafile: Metafile): boolean =>
  Object.values(metafile.outputs).some((output) =>
    Object.keys(output.inputs).some((input) => /node_modules\/stripe\//.test(input)),
  );
/** Fresh processes per bundle; the median import time is reported. */
const IMPORT_RUNS = 5;

/**
 * Bundles one function the way the CDK stack's NodejsFunction does (same entry and the options of
 * infra/lib/bundling.ts: esbuild --bundle --platform=node --format=cjs --target=node22 --minify
 * --sourcemap --sources-content=false --external:@aws-sdk/*, run from the repository root).
 */
async function bundle(entry: FunctionEntry, outDir: string): Promise<{ file: string; metafile: Metafile }> {
  const file = path.join(outDir, entry.name, 'index.js');
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [path.resolve(repoRoot, 'functions', 'src', entry.module)],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: functionBundling.format,
    target: functionBundling.target,
    minify: functionBundling.minify,
    sourcemap: functionBundling.sourceMap,
    sourcesContent: functionBundling.sourcesContent,
    external: [...functionBundling.externalModules],
    metafile: true,
    logLevel: 'warning',
  });
  return { file, metafile: result.metafile };
}

/** The environment the function gets in AWS (values are placeholders; nothing is called at import). */
function lambdaEnvironment(entry: FunctionEntry): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The bundle lives outside the repository: resolve @aws-sdk/* as the functions workspace does.
    NODE_PATH: [path.join(repoRoot, 'functions', 'node_modules'), path.join(repoRoot, 'node_modules')].join(
      path.delimiter,
    ),
    NODE_OPTIONS: functionNodeOptions,
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'bench',
    ...functionEnvironment,
    ...(entry.access.importsBucket ? { IMPORTS_BUCKET: 'bench-imports' } : {}),
  };
  for (const name of entry.access.secrets) {
    env[`${secretEnv[name]}_ARN`] = `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}`;
  }
  return env;
}

/** Prints the wall time and the process's CPU time (user + system, every thread) of requiring the bundle. */
const IMPORT_PROBE = [
  "const { performance } = require('node:perf_hooks');",
  'const cpu = process.cpuUsage();',
  'const start = performance.now();',
  'require(process.argv[1]);',
  'const ms = performance.now() - start;',
  'const used = process.cpuUsage(cpu);',
  "process.stdout.write(ms + ' ' + (used.user + used.system) / 1000, () => process.exit(0));",
].join(' ');

/**
 * Milliseconds to require the bundle in a fresh Node process (median of IMPORT_RUNS): wall time,
 * and CPU time, which says more on a shared machine (other work stretches the wall time, not it).
 */
async function importTime(entry: FunctionEntry, file: string): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < IMPORT_RUNS; i++) {
    const { stdout } = await run(process.execPath, ['-e', IMPORT_PROBE, file], {
      cwd: repoRoot,
      env: lambdaEnvironment(entry),
    });
    const [wall, cpu] = stdout.trim().split(' ').map(Number);
    walls.push(wall!);
    cpus.push(cpu!);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

/** The biggest contributors to a bundle, by package (or by directory for our own code). */
function topInputs(metafile: Metafile, count: number): string {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = match ? match[1]! : path.dirname(input);
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)}`)
    .join(', ');
}

export const bundles: BenchSection = {
  name: 'bundles',
  description: `Function bundles: minified size (budget ${BUNDLE_BUDGET_KIB} KiB) and cold import time (median of ${IMPORT_RUNS} fresh Node ${process.versions.node} processes, NODE_OPTIONS=${functionNodeOptions})`,
  async run() {
    const outDir = await mkdtemp(path.join(tmpdir(), 'portal-bench-bundles-'));
    try {
      const rows: string[][] = [];
      const notes: string[] = [];
      const stripeTimes: number[] = [];
      const stripeCpu: number[] = [];
      const otherTimes: number[] = [];
      const otherCpu: number[] = [];
      let ok = true;
      // Every function the stack deploys: the routes, then the event-started ones.
      for (const entry of [...routes, ...eventFunctions] as FunctionEntry[]) {
        const { file, metafile } = await bundle(entry, outDir);
        const kib = (await stat(file)).size / 1024;
        const { wall: ms, cpu } = await importTime(entry, file);
        const stripe = carriesStripe(metafile);
        const callsStripe = entry.access.secrets.includes('stripeSecretKey');
        const budget = stripe ? STRIPE_BUNDLE_BUDGET_KIB : BUNDLE_BUDGET_KIB;
        const over = kib > budget;
        if (over) {
          ok = false;
          notes.push(`  ${entry.name}: largest inputs (KiB): ${topInputs(metafile, 6)}`);
        }
        if (stripe !== callsStripe) {
          ok = false;
          notes.push(
            `  ${entry.name}: ${stripe ? 'carries the stripe SDK without' : 'lacks the stripe SDK despite'} the stripeSecretKey grant`,
          );
        }
        (stripe ? stripeTimes : otherTimes).push(ms);
        (stripe ? stripeCpu : otherCpu).push(cpu);
        const verdict = `${over ? 'OVER' : 'ok'} (${budget} KiB)`;
        rows.push([
          entry.name,
          stripe ? 'stripe' : '',
          entry.module,
          kib.toFixed(1),
          ms.toFixed(1),
          cpu.toFixed(1),
          verdict,
        ]);
      }
      const lines = formatTable(['function', 'SDK', 'module', 'KiB', 'import ms', 'CPU ms', 'budget'], rows, [
        'left',
        'left',
        'left',
        'right',
        'right',
        'right',
        'left',
      ]);
      if (stripeTimes.length > 0) {
        const stripeMedian = median(stripeTimes);
        lines.push(
          '',
          `Functions marked stripe carry the stripe SDK (budget ${STRIPE_BUNDLE_BUDGET_KIB} KiB); median of their cold imports ${stripeMedian.toFixed(1)} ms (goal ≤ ${STRIPE_IMPORT_GOAL_MS} ms: ${stripeMedian <= STRIPE_IMPORT_GOAL_MS ? 'met' : 'not met'}), CPU ${median(stripeCpu).toFixed(1)} ms; the other functions in this run: ${median(otherTimes).toFixed(1)} ms, CPU ${median(otherCpu).toFixed(1)} ms.`,
        );
      }
      if (notes.length > 0) lines.push('', 'Over budget or misplaced SDK:', ...notes);
      return { ok, lines };
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  },
};
