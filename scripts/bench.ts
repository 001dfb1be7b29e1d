import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_FILE, loadAverage, thisMachine, writeSectionReport } from './bench-report';
import { bundles } from './bench/bundles';
import { localIam } from './bench/iam';
import { localSqs } from './bench/sqs';
import { catalogueImport, catalogueLists } from './bench/catalogue';
import { picturesBench } from './bench/pictures';
import { salesLists } from './bench/sales';
import type { BenchSection } from './bench/section';
import { webPages } from './bench/web';

/**
 * `npm run bench`: runs every bench section in order (or only the ones named on the command
 * line: `npm run bench -- bundles`), each in its own process when there are several, prints each
 * section's table, writes it into docs/bench-report.md (replacing that section's previous figures,
 * with the date, the machine and the load average: bench-report.ts), and exits with status 1
 * when any budget is over. A new section implements
 * BenchSection (scripts/bench/section.ts) and is added to this list.
 */
const sections: readonly BenchSection[] = [
  bundles,
  catalogueImport,
  catalogueLists,
  picturesBench,
  salesLists,
  webPages,
  localIam,
  localSqs,
];

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown bench section(s): ${unknown.join(', ')}. Known: ${sections.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const selected = sections.filter((s) => wanted.length === 0 || wanted.includes(s.name));
  if (selected.length > 1) return runEachInItsOwnProcess(selected);
  let failed = 0;
  for (const section of selected) {
    console.log(`\n== ${section.name}: ${section.description}\n`);
    const startedAt = new Date();
    const loadBefore = loadAverage();
    const started = performance.now();
    const result = await section.run();
    const seconds = (performance.now() - started) / 1000;
    for (const line of result.lines) console.log(line);
    console.log(`\n${section.name}: ${result.ok ? 'within budget' : 'OVER BUDGET'} (${seconds.toFixed(1)} s)`);
    const report = path.join(fileURLToPath(new URL('..', import.meta.url)), REPORT_FILE);
    writeSectionReport(
      report,
      {
        name: section.name,
        description: section.description,
        ok: result.ok,
        lines: result.lines,
        startedAt,
        seconds,
        machine: thisMachine(),
        loadBefore,
        loadAfter: loadAverage(),
      },
      sections.map((known) => known.name),
    );
    console.log(`Figures written to ${REPORT_FILE}.`);
    if (!result.ok) failed++;
  }
  return failed > 0 ? 1 : 0;
}

/**
 * Several sections: each runs in a fresh process (this script, with the same loader, given its
 * name). A section that serves the handlers in its own process leaves their modules loaded, with
 * the SDK clients they made at load pointed at its engines, which are gone when it ends: the web
 * section ran after the sales one met a closed DynamoDB port. Memory and JIT state stay apart too.
 */
async function runEachInItsOwnProcess(selected: readonly BenchSection[]): Promise<number> {
  let failed = 0;
  for (const section of selected) {
    const code = await new Promise<number>((resolve) => {
      spawn(process.execPath, [...process.execArgv, process.argv[1]!, section.name], { stdio: 'inherit' })
        .on('error', () => resolve(1))
        .on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    if (code !== 0) failed++;
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
