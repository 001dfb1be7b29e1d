import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DailyPayoutsResult } from '../../functions/src/handlers/scheduled/daily-payouts';
import { writePrivateFile } from './files';

/**
 * The daily payouts in `npm start`: what EventBridge does in AWS (every day at 00:00 UTC), plus a
 * run at start when a day's 00:00 passed while the portal was stopped. `.local/daily-payouts.json`
 * keeps the last day run; a fresh data folder starts it at today (nothing was missed yet). A run is
 * the deployed function's handler, so a second run the same day continues the day's batch and
 * pays no one twice.
 */

const DAY_MS = 24 * 3600 * 1000;
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Milliseconds from `now` to the next 00:00 UTC. */
export const untilNextMidnight = (now: number): number => DAY_MS - (now % DAY_MS);

export interface DailyPayoutsTimer {
  /** Resolves when the run at start (if one was due) has finished. */
  started: Promise<void>;
  stop(): void;
}

export function startDailyPayouts(options: {
  dataDir: string;
  run: () => Promise<DailyPayoutsResult>;
  say: (line: string) => void;
  now?: () => number;
}): DailyPayoutsTimer {
  const now = options.now ?? Date.now;
  const file = join(options.dataDir, 'daily-payouts.json');
  const lastRun = (): string | undefined =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { lastRun?: string }).lastRun : undefined;
  const remember = (day: string) => writePrivateFile(file, JSON.stringify({ lastRun: day }));
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const runOnce = async (why: string) => {
    const day = dayOf(now());
    try {
      const result = await options.run();
      remember(day);
      options.say(`Daily payouts (${why}): ${result.summary}`);
      for (const problem of result.attention) options.say(`  ${problem.memberEmail}: ${problem.message}`);
    } catch (error) {
      options.say(
        `Daily payouts (${why}) stopped: ${error instanceof Error ? error.message : String(error)}. The next run continues the day's batch.`,
      );
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void runOnce('00:00 UTC').then(schedule), untilNextMidnight(now()));
    timer.unref();
  };

  const last = lastRun();
  const today = dayOf(now());
  let started: Promise<void> = Promise.resolve();
  if (last === undefined) remember(today);
  else if (last < today) started = runOnce(`missed since ${last}`);
  schedule();
  return {
    started,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
