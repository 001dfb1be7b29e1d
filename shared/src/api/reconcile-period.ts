/**
 * The period a reconciliation compares (issue 27): whole UTC days, both ends included, at most
 * RECONCILE_MAX_DAYS. Free of zod, so the admin screen can name the limit without loading it.
 */

/** The longest period one run compares: a quarter. */
export const RECONCILE_MAX_DAYS = 92;

const DAY_MS = 86_400_000;

/** Epoch ms of a YYYY-MM-DD day's start (UTC), or NaN when it is not a real date (2026-02-30). */
export function dayStart(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return Number.NaN;
  const time = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day ? Number.NaN : time;
}

/** The days a period covers, both ends counted (2026-11-01 to 2026-11-01 is 1 day). */
export const periodDays = (from: string, to: string): number =>
  Math.round((dayStart(to) - dayStart(from)) / DAY_MS) + 1;

/** The UTC day `days` before the day of `now` (0: that day), as YYYY-MM-DD. */
export const dayBefore = (now: number, days: number): string =>
  new Date(now - days * DAY_MS).toISOString().slice(0, 10);
