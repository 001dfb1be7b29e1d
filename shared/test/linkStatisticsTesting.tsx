import type { DailyCounts, LinkStatistics } from '../src/api/visits';

/** 90 days ending 2026-12-02, as the statistics calls answer them. */
export const STATS_TEST_DAYS = Array.from({ length: 90 }, (_, at) =>
  new Date(Date.UTC(2026, 8, 4 + at)).toISOString().slice(0, 10),
);

/** Counts that are 0 but on the days given (index → [visits, checkouts, sales, salesCents, earningsCents, paid]). */
export function dailyCounts(on: Record<number, [number, number, number, number, number, number]> = {}): DailyCounts {
  const column = (part: number) => STATS_TEST_DAYS.map((_, at) => on[at]?.[part] ?? 0);
  return {
    visits: column(0),
    checkouts: column(1),
    sales: column(2),
    salesCents: column(3),
    earningsCents: column(4),
    paid: column(5),
  };
}

/** The answer with nothing counted yet. */
export const emptyLinkStatistics = (scope = 'Your links'): LinkStatistics => ({
  days: STATS_TEST_DAYS,
  total: dailyCounts(),
  products: [],
  scope,
});
