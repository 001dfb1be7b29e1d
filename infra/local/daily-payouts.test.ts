import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDailyPayouts, untilNext, untilNextMidnight } from './daily-payouts';
import { invokeEvent } from './invoker';

const result = {
  batchId: 'daily',
  paid: 1,
  settled: 0,
  belowMinimum: 0,
  attention: [],
  remaining: 0,
  summary: '1 member done.',
};

describe('the local daily payouts timer', () => {
  const dirs: string[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), 'daily-payouts-'));
    dirs.push(made);
    return made;
  };
  afterEach(() => {
    vi.useRealTimers();
    for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it('counts the time to the next 00:00 UTC', () => {
    expect(untilNextMidnight(Date.parse('2026-11-26T23:59:00Z'))).toBe(60_000);
    expect(untilNextMidnight(Date.parse('2026-11-26T00:00:00Z'))).toBe(24 * 3600 * 1000);
  });

  it('does not run on a fresh data folder, runs at 00:00 UTC, and remembers the day (0600)', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-26T23:00:00Z') });
    const dataDir = dir();
    const run = vi.fn(async () => result);
    const lines: string[] = [];
    const timer = startDailyPayouts({ dataDir, run, say: (line) => lines.push(line) });
    await timer.started;
    expect(run).not.toHaveBeenCalled();
    expect(JSON.parse(readFileSync(join(dataDir, 'daily-payouts.json'), 'utf8'))).toEqual({ lastRun: '2026-11-26' });
    await vi.advanceTimersByTimeAsync(3600 * 1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(JSON.parse(readFileSync(join(dataDir, 'daily-payouts.json'), 'utf8'))).toEqual({ lastRun: '2026-11-27' });
    expect(statSync(join(dataDir, 'daily-payouts.json')).mode & 0o777).toBe(0o600);
    expect(lines).toEqual(['Daily payouts (00:00 UTC): 1 member done.']);
    await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
    expect(run).toHaveBeenCalledTimes(2);
    timer.stop();
  });

  it('runs at start when a 00:00 passed while stopped, and says when a run stops', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-26T08:00:00Z') });
    const dataDir = dir();
    writeFileSync(join(dataDir, 'daily-payouts.json'), JSON.stringify({ lastRun: '2026-11-24' }));
    const lines: string[] = [];
    const run = vi.fn(async () => {
      throw new Error('Stripe did not answer');
    });
    const timer = startDailyPayouts({ dataDir, run, say: (line) => lines.push(line) });
    await timer.started;
    expect(run).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      "Daily payouts (missed since 2026-11-24) stopped: Stripe did not answer. The next run continues the day's batch.",
    ]);
    // Not remembered: the next start runs it again.
    expect(JSON.parse(readFileSync(join(dataDir, 'daily-payouts.json'), 'utf8'))).toEqual({ lastRun: '2026-11-24' });
    timer.stop();
  });

  it('counts the time to the schedule’s time of day', () => {
    expect(untilNext(Date.parse('2026-11-26T05:00:00Z'), { hour: 6, minute: 30 })).toBe(90 * 60_000);
    expect(untilNext(Date.parse('2026-11-26T06:30:00Z'), { hour: 6, minute: 30 })).toBe(24 * 3600 * 1000);
  });

  it('stops a run at its function’s timeout, with Lambda’s line and the REPORT line, and says so', async () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, 'daily-payouts.json'), JSON.stringify({ lastRun: '2020-01-01' }));
    const lines: string[] = [];
    const say = (line: string) => lines.push(line);
    // The daily payouts function as the template makes it, with a timeout of 1 s (900 s in the stack).
    const dailyPayouts = { name: 'dailyPayouts', memoryMb: 512, timeoutSeconds: 1 };
    const timer = startDailyPayouts({
      dataDir,
      say,
      run: () => invokeEvent(dailyPayouts, () => new Promise<typeof result>(() => undefined), {}, say),
    });
    await timer.started;
    timer.stop();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^dailyPayouts [0-9a-f-]{36} Task timed out after 1\.00 seconds$/);
    expect(lines[1]).toMatch(/^dailyPayouts REPORT RequestId: .*\tMemory Size: 512 MB\tMax Memory Used: \d+ MB$/);
    expect(lines[2]).toBe(
      "Daily payouts (missed since 2020-01-01) stopped: Task timed out after 1.00 seconds. The next run continues the day's batch.",
    );
  });
});
