import { describe, expect, it } from 'vitest';
import { updatedReport, type SectionRun } from './bench-report';

const order = ['bundles', 'import', 'lists', 'sales', 'web'];
const run = (name: string, lines: string[], overrides: Partial<SectionRun> = {}): SectionRun => ({
  name,
  description: `the ${name} section`,
  ok: true,
  lines,
  startedAt: new Date('2026-11-26T04:50:12.345Z'),
  seconds: 12.34,
  machine: { cores: 2, cpuModel: 'Test CPU', memoryGiB: 7.75, node: 'v24.21.0', platform: 'linux x64' },
  loadBefore: [1.5, 1.25, 1],
  loadAfter: [2, 1.5, 1.125],
  ...overrides,
});

describe('the bench report file', () => {
  it('starts with the header and holds a run with its date, machine, load average, verdict and table', () => {
    const report = updatedReport(undefined, run('bundles', ['a | b', '1 | 2']), order);
    expect(report.startsWith('# Bench report\n')).toBe(true);
    expect(report).toContain('## bundles: the bundles section');
    expect(report).toContain('- Run: 2026-11-26T04:50:12Z, 12.3 s, within budget');
    expect(report).toContain('- Machine: 2 cores (Test CPU), 7.8 GiB memory, Node v24.21.0, linux x64');
    expect(report).toContain('- Load average (1, 5, 15 min): 1.50, 1.25, 1.00 before, 2.00, 1.50, 1.13 after');
    expect(report).toContain('```text\na | b\n1 | 2\n```');
  });

  it("replaces only the run section's figures, keeps the others, and orders the sections as the bench lists them", () => {
    let report = updatedReport(undefined, run('web', ['web: old']), order);
    report = updatedReport(report, run('bundles', ['bundles: old']), order);
    report = updatedReport(report, run('web', ['web: new'], { ok: false }), order);
    expect(report).toContain('bundles: old');
    expect(report).toContain('web: new');
    expect(report).not.toContain('web: old');
    expect(report).toContain('OVER BUDGET');
    expect(report.indexOf('## bundles')).toBeLessThan(report.indexOf('## web'));
    expect(report.match(/## web/g)).toHaveLength(1);
    // A section the bench no longer has is kept, after the known ones.
    const withOld = updatedReport(report, run('retired', ['x']), order);
    expect(withOld.indexOf('## retired')).toBeGreaterThan(withOld.indexOf('## web'));
    expect(updatedReport(withOld, run('lists', ['y']), order)).toContain('## retired');
  });
});
