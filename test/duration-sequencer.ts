import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order Vitest hands test files to its workers: the longest first, across every project, from
 * the times a CI run measured (`test/file-durations.json`, `project:path` → ms), so that the three
 * workers end together instead of one long file (the 1,000-checkout ban, the demo start, the stack
 * synth) starting last and running alone (decision 0404). Vitest's own sequencer orders by project
 * name first and, on a clean clone with no results cache, by file size. A file the list does not
 * know goes by its size, as Vitest would; the browser project keeps its group (fileParallelism off).
 */
const DURATIONS = join(import.meta.dirname, 'file-durations.json');
const known: Record<string, number> = existsSync(DURATIONS)
  ? (JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>)
  : {};
/** About how many milliseconds a byte of an unknown test file takes (the list's median file: 10 KB in 2 s). */
const MS_PER_BYTE = 0.2;

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      return known[key] ?? statSync(spec.moduleId).size * MS_PER_BYTE;
    };
    const estimates = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return estimates.get(b)! - estimates.get(a)!;
    });
  }
}
