/**
 * One part of `npm run bench`. Each section measures something, prints its own table and says
 * whether its budgets held; the runner (scripts/bench.ts) runs the sections in order and exits
 * non-zero when any budget is over. Later sections (CSV import, ...) implement the same shape.
 */
export interface BenchSection {
  /** Short name, also the command-line filter: `npm run bench -- bundles`. */
  readonly name: string;
  readonly description: string;
  run(): Promise<SectionResult>;
}

export interface SectionResult {
  /** False when a budget is exceeded; the runner then exits with status 1. */
  readonly ok: boolean;
  /** Lines to print under the section heading (usually a table). */
  readonly lines: readonly string[];
}

export type Align = 'left' | 'right';

/** A plain-text table: one header row, a rule, then the rows; columns padded to their widest cell. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
): string[] {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
