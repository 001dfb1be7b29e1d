import type { CommissionPage, CommissionTotals, CommissionsRequest } from '@portal/shared/api/sales';
import { DomainError } from '../errors';
import { dollars } from '@portal/shared/domain/money';
import { clock } from '../config/clock';
import { DEFAULT_LIST_LIMIT, memberIdOf } from '../orders/manage';
import type { CommissionCounts, CommissionListName, CommissionStore, Earnings } from './commission-store';
import { toCommission } from './present';

const now = () => clock.now();

/** A caller as the commission reads judge them. */
export interface Reader {
  id: string;
  isAdmin: boolean;
}

const totals = (paidCents: number, processingCents: number, count: number): CommissionTotals => ({
  paid: dollars(paidCents),
  processing: dollars(processingCents),
  count,
});

/** The totals of a list's whole set, from the counter shards kept in the same transactions (no scans). */
function listTotals(list: CommissionListName, counts: CommissionCounts): CommissionTotals {
  if (list === 'to_stripe') return totals(0, counts.toStripeCents, counts.toStripeCount);
  if (list === 'to_be_paid') return totals(0, counts.toBePaidCents, counts.toBePaidCount);
  return totals(counts.paidCents, counts.processingCents, counts.count);
}

/**
 * One page of a commission list, newest first. Each item says why it cannot move on yet
 * (`blockedReason`): the members' payout facts are read in one BatchGet per page.
 */
export async function commissionsPage(
  sales: CommissionStore,
  list: Exclude<CommissionListName, { memberId: string }>,
  cursor: string | undefined,
  limit: number | undefined,
): Promise<CommissionPage> {
  const [page, counts] = await Promise.all([
    // The To Stripe list holds only what can be sent now (fulfilled, past its hold).
    sales.commissionsPage(list, cursor, limit ?? DEFAULT_LIST_LIMIT, now()),
    sales.commissionCounts(),
  ]);
  const members = await sales.members(page.items.map((item) => item.memberId));
  return {
    items: page.items.map((item) => toCommission(item, members.get(item.memberId))),
    nextCursor: page.nextCursor,
    totals: listTotals(list, counts),
  };
}

/**
 * getCommisions: a page of every commission, or of those a search finds (a member's, by their
 * e-mail: their index partition; and/or one state: its stage list, paid ones from all of them),
 * newest first. The totals stay those of every commission; the member's own are their screen's.
 */
export async function searchedCommissionsPage(
  sales: CommissionStore,
  request: Pick<CommissionsRequest, 'cursor' | 'limit' | 'member' | 'status'>,
): Promise<CommissionPage> {
  const { cursor, limit, member, status } = request;
  if (member === undefined && status === undefined) return commissionsPage(sales, 'all', cursor, limit);
  const memberId = member === undefined ? undefined : (await memberIdOf(sales, member)).id;
  const [page, counts] = await Promise.all([
    sales.searchCommissions({ memberId, status, now: now() }, cursor, limit ?? DEFAULT_LIST_LIMIT),
    sales.commissionCounts(),
  ]);
  const members = await sales.members(page.items.map((item) => item.memberId));
  return {
    items: page.items.map((item) => toCommission(item, members.get(item.memberId))),
    nextCursor: page.nextCursor,
    totals: listTotals('all', counts),
  };
}

export const NO_SUCH_MEMBER = 'There are no commissions of this member for you to see.';

/**
 * A member's own commissions (an admin may name anyone): another member's id is a 404 that says
 * nothing of whether they exist. Totals from their EARNINGS item: paid is "Commissions You Made",
 * processing "Commissions in Processing".
 */
export async function commissionsOf(
  sales: CommissionStore,
  reader: Reader,
  memberId: string,
  cursor: string | undefined,
  limit: number | undefined,
): Promise<CommissionPage> {
  if (!reader.isAdmin && reader.id !== memberId) {
    throw new DomainError('not-found', NO_SUCH_MEMBER, { fields: { id: NO_SUCH_MEMBER } });
  }
  const [page, earnings, members] = await Promise.all([
    sales.commissionsPage({ memberId }, cursor, limit ?? DEFAULT_LIST_LIMIT),
    sales.earnings(memberId),
    sales.members([memberId]),
  ]);
  const mine: Earnings | undefined = earnings;
  return {
    items: page.items.map((item) => toCommission(item, members.get(memberId))),
    nextCursor: page.nextCursor,
    totals: totals(mine?.paidCents ?? 0, mine?.processingCents ?? 0, mine?.count ?? 0),
  };
}

/** Members by their total commissions, highest first (gsi1 TOP_EARNERS read descending). */
export async function topEarners(sales: CommissionStore, cursor: string | undefined, limit: number | undefined) {
  const page = await sales.topEarners(cursor, limit ?? DEFAULT_LIST_LIMIT);
  return {
    items: page.items.map((earner) => ({
      id: earner.memberId,
      email: earner.memberEmail,
      count: earner.count,
      totalCommisions: dollars(earner.totalCents),
    })),
    nextCursor: page.nextCursor,
  };
}
