import type { Commission } from '@portal/shared/api/sales';
import type { DataColumn } from '@portal/shared/ui/LazyDataTable';

export const COMMISSION_STATE_LABEL: Record<Commission['state'], string> = {
  processing: 'In processing',
  in_stripe: 'In Stripe',
  paid: 'Paid',
};

export const commissionColumns: DataColumn<Commission>[] = [
  { id: 'created_at', header: 'Date', value: (row) => row.created_at, kind: 'date', minWidth: 200 },
  { id: 'orderID', header: 'Order ID', value: (row) => row.orderID, minWidth: 130, hideOnPhone: true },
  { id: 'member', header: 'Member', value: (row) => row.member.email, minWidth: 190, flex: 2 },
  { id: 'product', header: 'Product', value: (row) => row.product_name, minWidth: 180, flex: 2, hideOnPhone: true },
  { id: 'amount', header: 'Commission', value: (row) => row.amount, kind: 'money', minWidth: 120 },
  {
    id: 'state',
    header: 'Status',
    value: (row) => (row.payoutFailure ? `Payout failed: ${row.payoutFailure}` : COMMISSION_STATE_LABEL[row.state]),
    minWidth: 150,
    hideOnPhone: true,
  },
];
