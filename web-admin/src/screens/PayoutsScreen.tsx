import { useMemo, useState } from 'react';
import { formatCount, formatMoney } from '@portal/shared/domain/format';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { DataTable } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { SearchedList, emptySearch, type SearchValue } from '@portal/shared/ui/components/TableSearch';
import {
  COMMISSION_SEARCH_FIELDS,
  COMMISSION_STATUS_CHOICES,
  commissionColumns,
  commissionRowHeight,
  commissionSearchOf,
} from '../sales/commissionColumns';
import { MemberDebts } from '../sales/MemberDebts';
import { useCommissions } from '../sales/queries';
import { CountLink, ExportCsvButton, ListFrame, SuccessNotice, searchErrors } from '../sales/SalesUi';

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * '/admin/payouts': every commission, newest first, with their totals (kept with the commissions,
 * no scans), the ways on (to Stripe, to be paid, top earners) and the CSV export. The to-Stripe and
 * to-be-paid screens come back here with a notice of what they did.
 */
export function PayoutsScreen() {
  const [search, setSearch] = useState<SearchValue>(() => emptySearch('member'));
  const fields = useMemo(() => commissionSearchOf(search), [search]);
  const query = useCommissions('all', fields);
  const refused = searchErrors(query.error, ['member', 'status']);
  const pages = useCursorPages(query);
  const totals = query.data?.pages[0]?.totals ?? null;
  // While the first page loads: '…'; when it failed (the list says why): '—'.
  const waiting = query.isError ? '—' : '…';

  return (
    <Page
      title="Payouts"
      description="Member commissions: sent to the payment provider and paid out."
      actions={<ExportCsvButton kind="commissions" />}
    >
      <SuccessNotice />
      <dl className="sales-summary" aria-label="Commission totals">
        <div className="sales-summary__item">
          <dt>Commissions</dt>
          <dd data-testid="commissions-count">{totals ? formatCount(totals.count) : waiting}</dd>
        </div>
        <div className="sales-summary__item">
          <dt>Total</dt>
          <dd data-testid="commissions-total">
            {totals ? formatMoney(cents(totals.paid) + cents(totals.processing)) : waiting}
          </dd>
        </div>
        <div className="sales-summary__item">
          <dt>Paid</dt>
          <dd>{totals ? formatMoney(cents(totals.paid)) : waiting}</dd>
        </div>
        <div className="sales-summary__item">
          <dt>In processing</dt>
          <dd>{totals ? formatMoney(cents(totals.processing)) : waiting}</dd>
        </div>
      </dl>
      <nav className="sales-links" aria-label="Payout lists">
        <CountLink to="/payouts/to_stripe" label="To Stripe" count={null} hideCount />
        <CountLink to="/payouts/to_be_payed" label="To Be Payed" count={null} hideCount />
        <CountLink to="/payouts/top_earners" label="Top Earners" count={null} hideCount />
        <CountLink to="/payouts/held" label="Held for review" count={null} hideCount />
      </nav>
      <MemberDebts />
      <h2 className="sales-section-title">All commissions</h2>
      <SearchedList
        label="Search commissions"
        noun="commissions"
        fields={COMMISSION_SEARCH_FIELDS}
        statuses={COMMISSION_STATUS_CHOICES}
        value={search}
        onSearch={setSearch}
        refused={refused}
      >
        <ListFrame pages={pages} noun="commissions">
          <DataTable
            rows={pages.items}
            columns={commissionColumns}
            rowHeight={commissionRowHeight}
            rowId={(row) => row.id}
            label="All commissions"
            emptyMessage={fields ? 'No commissions match this search.' : 'No commissions yet.'}
            tableId="admin.commissions.all"
          />
        </ListFrame>
      </SearchedList>
    </Page>
  );
}
