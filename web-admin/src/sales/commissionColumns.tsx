import type { Commission, CommissionStatus } from '@portal/shared/api/sales';
import { PRESENTED_COMMISSION_STATUSES } from '@portal/shared/api/commission-statuses';
import type { DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import type { SearchField, SearchValue } from '@portal/shared/ui/components/TableSearch';
import type { CommissionSearchFields } from './queries';
import { COMMISSION_STATUS_WORDS, commissionStatusText } from '@portal/shared/domain/sales-status';
import { EmailText } from '@portal/shared/ui/components/EmailText';

/** The commission tables' columns, defined here only (the action screens add their button column). */
export const commissionColumns: DataColumn<Commission>[] = [
  // Every column fits a 1280 px window beside the menu: the date and the e-mail wrap (at its '@' and dots).
  {
    id: 'created_at',
    header: 'Date',
    value: (row) => row.created_at,
    kind: 'date',
    minWidth: 160,
    wrap: true,
    hideOnPhone: true,
  },
  { id: 'orderID', header: 'Order ID', value: (row) => row.orderID, minWidth: 135, hideOnPhone: true },
  {
    id: 'member',
    header: 'Member',
    value: (row) => row.member.email,
    render: (row) => <EmailText email={row.member.email} />,
    minWidth: 130,
    flex: 2,
    wrap: true,
  },
  { id: 'product', header: 'Product', value: (row) => row.product_name, minWidth: 100, flex: 1, hideOnPhone: true },
  { id: 'amount', header: 'Amount', value: (row) => row.amount, kind: 'money', minWidth: 95 },
  {
    id: 'state',
    header: 'Status',
    // Its one status: on hold until its date, available, …, clawed back or held for review with the reason.
    value: (row) => commissionStatusText(row),
    minWidth: 150,
    flex: 3,
    wrap: true,
    hideOnPhone: true,
  },
];

/**
 * A row tall enough for its status's words (they wrap, about 30 characters a line in the Status
 * column at 1280 px): at least two lines, so no reason is cut.
 */
export const commissionRowHeight = (row: Commission): number =>
  16 + 20 * Math.max(2, Math.ceil(commissionStatusText(row).length / 30));

/** How All commissions is searched (on the server; getCommisions' search fields). */
export const COMMISSION_SEARCH_FIELDS: readonly SearchField[] = [
  { id: 'member', label: 'Member e-mail', hint: 'The e-mail address the member signed up with.', type: 'email' },
];

/** The All commissions search's statuses: every status a commission can be in, in the lists' words. */
export const COMMISSION_STATUS_CHOICES: readonly { value: CommissionStatus; label: string }[] =
  PRESENTED_COMMISSION_STATUSES.map((status) => ({ value: status, label: COMMISSION_STATUS_WORDS[status] }));

/** The search form's value as getCommisions' fields (none when the form is empty). */
export function commissionSearchOf(value: SearchValue): CommissionSearchFields | undefined {
  const text = value.text.trim();
  const search: CommissionSearchFields = {};
  if (text !== '') search.member = text;
  if (value.status !== '') search.status = value.status as CommissionStatus;
  return Object.keys(search).length > 0 ? search : undefined;
}
