import type { Commission } from '@portal/shared/api/sales';
import { commissionStatusText } from '@portal/shared/domain/sales-status';
import { DataTable, type DataColumn } from '@portal/shared/ui/components/LazyDataTable';

/** Its one status in words: on hold until its date, available, in Stripe, paid, or a side exit with its reason. */
const stateText = (commission: Commission): string => commissionStatusText(commission);
const needsRoom = (commission: Commission) => Boolean(commission.payoutFailure || commission.statusReason);

const COLUMNS: readonly DataColumn<Commission>[] = [
  { id: 'created_at', header: 'Date', value: (row) => row.created_at, kind: 'date', minWidth: 230 },
  { id: 'product', header: 'Product', value: (row) => row.product_name, minWidth: 160, flex: 2, hideOnPhone: true },
  { id: 'orderID', header: 'Order ID', value: (row) => row.orderID, minWidth: 140, hideOnPhone: true },
  { id: 'amount', header: 'Amount', value: (row) => row.amount, kind: 'money', minWidth: 110 },
  { id: 'state', header: 'Status', value: stateText, minWidth: 150, flex: 3, wrap: true },
];

/**
 * The member's own commissions: date, product, order ID, amount and status (on hold until its
 * date, available, in Stripe, paid; cancelled, reversed, clawed back or held for review with the
 * reason; the payout's failure reason when the last payout failed), in the portal's table (AG Grid, its own chunk;
 * page sizes 5 to 50 and all, 5 first). The server's further pages load with 'Load more'.
 */
export function CommissionTable({
  items,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  items: Commission[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  return (
    <div className="commission-table" data-testid="commission-table">
      <DataTable
        rows={items}
        columns={COLUMNS}
        rowId={(commission) => commission.id}
        label="Your commissions, newest first"
        emptyMessage="No commissions yet."
        tableId="member.commissions"
        rowHeight={(commission) => (needsRoom(commission) ? 96 : commission.status === 'on_hold' ? 64 : 48)}
      />
      {hasMore ? (
        <button
          type="button"
          className="button button--secondary button--small commission-table__more"
          onClick={onLoadMore}
          aria-disabled={loadingMore ? true : undefined}
        >
          {loadingMore ? 'Loading more…' : 'Load more commissions'}
        </button>
      ) : null}
    </div>
  );
}
