import type { Commission } from '@portal/shared/api/sales';
import type { DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import { commissionStatusText } from '@portal/shared/domain/sales-status';

export const COMMISSION_STATE_LABEL: Record<Commission['state'], string> = {
  processing: 'In processing',
  in_stripe: 'In Stripe',
  paid: 'Paid',
};

export const commissionColumns: DataColumn<Commission>[] = [
  { id: 'created_at', header: 'Date', value: (row) => row.created_at, kind: 'date', minWidth: 265, hideOnPhone: true },
  { id: 'orderID', header: 'Order ID', value: (row) => row.orderID, minWidth: 140, hideOnPhone: true },
  { id: 'member', header: 'Member', value: (row) => row.member.email, minWidth: 160, flex: 2 },
  { id: 'product', header: 'Product', value: (row) => row.product_name, minWidth: 140, flex: 2, hideOnPhone: true },
  { id: 'amount', header: 'Commission', value: (row) => row.amount, kind: 'money', minWidth: 110 },
  {
    id: 'state',
    header: 'Status',
    // Its one status: on hold until its date, available, …, clawed back or held for review with the reason.
    value: (row) => commissionStatusText(row),
    minWidth: 180,
    flex: 2,
    wrap: true,
    hideOnPhone: true,
  },
];
