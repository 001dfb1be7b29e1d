/** The link statistics' time buckets: UTC days and hours, and how long the counts are kept. */

/** How long the counts by day are kept (the charts show 90 days). */
export const STATS_KEEP_DAYS = 400;
export const DAY_MS = 24 * 3600 * 1000;

/** `YYYY-MM-DD` (UTC). */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** `YYYY-MM-DDTHH` (UTC). */
export const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
/** A counts item's expiry (epoch seconds) for an event at `ms`. */
export const statsExpiry = (ms: number): number => Math.floor(ms / 1000) + STATS_KEEP_DAYS * 24 * 3600;
