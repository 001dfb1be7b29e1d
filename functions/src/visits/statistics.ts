import { STATS_DAYS, type DailyCounts, type LinkStatistics } from '@portal/shared/api/visits';
import { DomainError } from '../errors';
import { COUNT_NAMES, type CountRow, type SeriesAsk, type VisitStore } from './visit-store';
import { dayOf } from './days';

/** The link statistics as members and admins read them: 90 days by day, the total and each product. */

export interface StatisticsDeps {
  store: Pick<VisitStore, 'read' | 'productNames' | 'memberOfEmail'>;
  now: () => number;
}

export const NO_SUCH_MEMBER = 'No member has this e-mail address.';
export const NO_SUCH_PRODUCT = 'There is no product with this id.';

/** The chart's days, oldest first: today (UTC) and the STATS_DAYS - 1 before it. */
export function chartDays(nowMs: number): string[] {
  return Array.from({ length: STATS_DAYS }, (_, index) => dayOf(nowMs - (STATS_DAYS - 1 - index) * 86_400_000));
}

const emptyCounts = (length: number): DailyCounts => ({
  visits: new Array<number>(length).fill(0),
  checkouts: new Array<number>(length).fill(0),
  sales: new Array<number>(length).fill(0),
  salesCents: new Array<number>(length).fill(0),
  earningsCents: new Array<number>(length).fill(0),
  paid: new Array<number>(length).fill(0),
});

/** The shards' rows summed by day: the total (the rows without a product) and each product's. */
function sum(rows: readonly CountRow[], days: readonly string[]) {
  const index = new Map(days.map((day, at) => [day, at]));
  const total = emptyCounts(days.length);
  const byProduct = new Map<string, DailyCounts>();
  for (const row of rows) {
    const at = index.get(row.day);
    if (at === undefined) continue;
    let target: DailyCounts | undefined;
    if (row.productId) {
      target = byProduct.get(row.productId);
      if (!target) byProduct.set(row.productId, (target = emptyCounts(days.length)));
    }
    for (const name of COUNT_NAMES) {
      const value = row.counts[name] ?? 0;
      if (target) target[name][at]! += value;
      if (!row.productId) total[name][at]! += value;
    }
  }
  return { total, byProduct };
}

async function statisticsOf(deps: StatisticsDeps, series: SeriesAsk, scope: (names: Map<string, string>) => string) {
  const days = chartDays(deps.now());
  const rows = await deps.store.read(series, days[0]!, days[days.length - 1]!);
  const { total, byProduct } = sum(rows, days);
  const ids = series.kind === 'product' ? [series.productId] : [...byProduct.keys()];
  const names = ids.length ? await deps.store.productNames(ids) : new Map<string, string>();
  const products = [...byProduct.entries()]
    .map(([productId, counts]) => ({ productId, name: names.get(productId) ?? productId, counts }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (series.kind === 'product') {
    if (!names.has(series.productId)) {
      throw new DomainError('not-found', NO_SUCH_PRODUCT, { fields: { productId: NO_SUCH_PRODUCT } });
    }
    products.push({ productId: series.productId, name: names.get(series.productId)!, counts: total });
  }
  return { days, total, products, scope: scope(names) } satisfies LinkStatistics;
}

/** A member's own links. */
export const memberStatistics = (deps: StatisticsDeps, memberId: string): Promise<LinkStatistics> =>
  statisticsOf(deps, { kind: 'member', memberId }, () => 'Your links');

/** The admin's: every link, one product's (over every member's links) or one member's (with each product). */
export async function adminStatistics(
  deps: StatisticsDeps,
  ask: { productId?: string | undefined; memberEmail?: string | undefined },
): Promise<LinkStatistics> {
  if (ask.memberEmail) {
    const memberId = await deps.store.memberOfEmail(ask.memberEmail);
    if (!memberId) throw new DomainError('not-found', NO_SUCH_MEMBER, { fields: { memberEmail: NO_SUCH_MEMBER } });
    const email = ask.memberEmail;
    return statisticsOf(deps, { kind: 'member', memberId }, () => `The links of ${email}`);
  }
  if (ask.productId) {
    const productId = ask.productId;
    return statisticsOf(deps, { kind: 'product', productId }, (names) => names.get(productId) ?? productId);
  }
  return statisticsOf(deps, { kind: 'all' }, () => 'All links');
}
