import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';

/**
 * The bench's report file, `docs/bench-report.md`: the latest figures of each section of
 * `npm run bench`, with when and where they were measured. A run of a section replaces that
 * section's part and leaves the others as they were, so the file holds the last run of every
 * section, in the order of the bench's list.
 */
export const REPORT_FILE = 'docs/bench-report.md';

const HEADER = [
  '# Bench report',
  '',
  'The latest figures of `npm run bench`, one part per bench section, each written by the run of',
  'that section (`npm run bench -- <section>` replaces its part only). Written by `scripts/bench.ts`;',
  'edits by hand are replaced by the next run. Other load on the machine moves every figure but the',
  'ratios: compare the load averages before reading a change.',
  '',
].join('\n');

export interface SectionRun {
  name: string;
  description: string;
  ok: boolean;
  lines: readonly string[];
  /** When the section started and how long it took. */
  startedAt: Date;
  seconds: number;
  machine: Machine;
  /** The 1, 5 and 15 minute load averages before and after the section. */
  loadBefore: readonly number[];
  loadAfter: readonly number[];
}

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

export const thisMachine = (): Machine => ({
  cores: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: totalmem() / 1024 ** 3,
  node: process.version,
  platform: `${platform()} ${arch()}`,
});

export const loadAverage = (): number[] => loadavg();

const BEGIN = (name: string) => `<!-- bench:${name} -->`;
const END = (name: string) => `<!-- /bench:${name} -->`;

/** The part of one section run, between its markers. */
export function sectionPart(run: SectionRun): string {
  const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const { machine } = run;
  return [
    BEGIN(run.name),
    // blank lines around the markers, as Prettier lays Markdown out (npm run lint checks the report)
    '',
    `## ${run.name}: ${run.description}`,
    '',
    `- Run: ${run.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')}, ${run.seconds.toFixed(1)} s, ${run.ok ? 'within budget' : 'OVER BUDGET'}`,
    `- Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB memory, Node ${machine.node}, ${machine.platform}`,
    `- Load average (1, 5, 15 min): ${load(run.loadBefore)} before, ${load(run.loadAfter)} after`,
    '',
    '```text',
    ...run.lines,
    '```',
    '',
    END(run.name),
  ].join('\n');
}

/**
 * The report with `run`'s section replaced (or added): sections keep the order of `order` (the
 * bench's list); parts of sections no longer in the list are kept at the end.
 */
export function updatedReport(existing: string | undefined, run: SectionRun, order: readonly string[]): string {
  const parts = new Map<string, string>();
  const pattern = /<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g;
  for (const match of (existing ?? '').matchAll(pattern)) parts.set(match[1]!, match[0]);
  parts.set(run.name, sectionPart(run));
  const names = [...order.filter((name) => parts.has(name)), ...[...parts.keys()].filter((n) => !order.includes(n))];
  return `${HEADER}\n${names.map((name) => parts.get(name)).join('\n\n')}\n`;
}

/** Writes `run`'s figures into the report file at `file`. */
export function writeSectionReport(file: string, run: SectionRun, order: readonly string[]): void {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  writeFileSync(file, updatedReport(existing, run, order));
}
