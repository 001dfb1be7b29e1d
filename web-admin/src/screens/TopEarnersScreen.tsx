import type { ResponseOf } from '@portal/shared/api/contract';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { DataTable, type DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { useTopEarners } from '../sales/queries';
import { BackLink, ListFrame } from '../sales/SalesUi';

type TopEarner = ResponseOf<'getTopEarners'>['items'][number];

const columns: DataColumn<TopEarner>[] = [
  { id: 'email', header: 'Member', value: (row) => row.email, minWidth: 200, flex: 2 },
  { id: 'count', header: 'Commissions', value: (row) => row.count, kind: 'count', minWidth: 130, hideOnPhone: true },
  { id: 'total', header: 'Total', value: (row) => row.totalCommisions, kind: 'money', minWidth: 120, sort: 'desc' },
];

/** '/admin/payouts/top_earners': members by their commissions' total, highest first. */
export function TopEarnersScreen() {
  const pages = useCursorPages(useTopEarners());
  return (
    <Page
      title="Top Earners"
      description="Members by the total of their commissions, highest first. A sale or a refund moves a place within seconds."
    >
      <BackLink to="/payouts" label="Payouts" />
      <ListFrame pages={pages} noun="members">
        <DataTable
          rows={pages.items}
          columns={columns}
          rowId={(row) => row.id}
          label="Top earners"
          emptyMessage="No earners yet."
          tableId="admin.topEarners"
        />
      </ListFrame>
    </Page>
  );
}
