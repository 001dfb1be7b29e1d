import { exportList } from '../orders/manage';
import type { CommissionRecord } from '../orders/sales-store';
import type { CommissionStore } from './commission-store';
import { toCommission } from './present';

const COMMISSION_HEADER = [
  'id',
  'created_at',
  'orderID',
  'product_name',
  'member_email',
  'amount',
  'state',
  'isInCustomersAccount',
  'isPayed',
];

const commissionRow = (record: CommissionRecord) => {
  const commission = toCommission(record);
  return [
    commission.id,
    commission.created_at,
    commission.orderID,
    commission.product_name,
    commission.member.email,
    commission.amount.toFixed(2),
    commission.state,
    commission.isInCustomersAccount,
    commission.isPayed,
  ];
};

/** All commissions as CSV, newest first, capped (orders/manage.ts exportList). */
export const exportCommissions = (store: Pick<CommissionStore, 'commissionsPage'>, now: number) =>
  exportList<CommissionRecord>(
    {
      kind: 'commissions',
      header: COMMISSION_HEADER,
      row: commissionRow,
      page: (cursor, limit) => store.commissionsPage('all', cursor, limit),
    },
    now,
  );
