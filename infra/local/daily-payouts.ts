import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
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
/** Milliseconds from `now` to the next `hour:minute` UTC (the schedule's time of day). */
export const untilNext = (now: number, at: { hour: number; minute: number } = { hour: 0, minute: 0 }): number => {
  const offset = (at.hour * 60 + at.minute) * 60_000;
  return untilNextMidnight(now - offset);
};

/** The event EventBridge sends a scheduled rule's target. */
export function scheduledEvent(rule: string, time = new Date()) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: [`arn:aws:events:us-east-1:000000000000:rule/${rule}`],
    detail: {},
  };
}

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
  /** The schedule's time of day in UTC (the template's cron expression); 00:00 unless told. */
  at?: { hour: number; minute: number };
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
    const at = options.at ?? { hour: 0, minute: 0 };
    const time = `${String(at.hour).padStart(2, '0')}:${String(at.minute).padStart(2, '0')} UTC`;
    timer = setTimeout(() => void runOnce(time).then(schedule), untilNext(now(), at));
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
