import type { Reporter, TestModule } from 'vitest/node';

interface Span {
  first: number;
  last: number;
  files: number;
  tests: number;
  busyMs: number;
}

/**
 * Prints, at the end of a run, each project's wall time (its first file's start to its last
 * file's end), its files and tests, and the files' summed time, so that CI's log says where its
 * minutes went. Global setups (the e2e portal, the bundles build) run before a project's first file
 * and are not in its span. Added beside the default reporter; it changes no result.
 */
export class ProjectTimesReporter implements Reporter {
  private readonly spans = new Map<string, Span>();
  private runStart = Date.now();

  onTestRunStart(): void {
    this.runStart = Date.now();
  }

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name || 'default';
    const span = this.spans.get(name) ?? { first: Date.now(), last: Date.now(), files: 0, tests: 0, busyMs: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name || 'default');
    if (!span) return;
    span.last = Date.now();
    span.files += 1;
    span.tests += [...module.children.allTests()].length;
    span.busyMs += module.diagnostic().duration;
  }

  onTestRunEnd(): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const lines = [...this.spans.entries()]
      .sort(([, a], [, b]) => a.first - b.first)
      .map(
        ([name, span]) =>
          `  ${name.padEnd(8)} ${seconds(span.last - span.first).padStart(6)} wall  ${seconds(span.busyMs).padStart(6)} in files  ${span.files} files, ${span.tests} tests`,
      );
    console.log(`\nTime per project (whole run ${seconds(Date.now() - this.runStart)}):\n${lines.join('\n')}`);
  }
}
