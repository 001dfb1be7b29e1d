import { useId, useState } from 'react';
import type { Commission } from '@portal/shared/api/sales';
import { formatDate, formatMoney } from '@portal/shared/domain/format';
import { centsOf } from './useMyCommissions';
import '@portal/shared/ui/catalogue.css';

/** The page sizes of the portal's tables (the admin's DataTable offers the same); 0 is "All". */
export const PAGE_SIZES = [5, 7, 10, 15, 20, 25, 50, 0] as const;
export const DEFAULT_PAGE_SIZE = 5;

/** A commission's state in the member's words. */
export const STATE_WORDS: Record<Commission['state'], string> = {
  processing: 'In processing',
  in_stripe: 'Sent to Stripe',
  paid: 'Paid',
};

/**
 * The member's own commissions: date, product, order ID, amount and state (with the payout's
 * failure reason when the last payout failed). A plain semantic table, paged on the screen with
 * the portal's page sizes; on a phone each row is a card.
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
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(0);
  const sizeId = useId();
  const pages = pageSize === 0 ? 1 : Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(page, pages - 1);
  const shown = pageSize === 0 ? items : items.slice(current * pageSize, current * pageSize + pageSize);
  const first = items.length === 0 ? 0 : pageSize === 0 ? 1 : current * pageSize + 1;
  const last = pageSize === 0 ? items.length : Math.min(items.length, (current + 1) * pageSize);

  return (
    <div className="commission-table">
      <div className="table-scroll">
        <table className="issues-table issues-table--cards" data-testid="commission-table">
          <caption className="visually-hidden">Your commissions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Product</th>
              <th scope="col">Order ID</th>
              <th scope="col">Amount</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((commission) => (
              <tr key={commission.id}>
                <td data-label="Date">{formatDate(commission.created_at)}</td>
                <td data-label="Product">{commission.product_name}</td>
                <td data-label="Order ID">{commission.orderID}</td>
                <td data-label="Amount" className="commission-table__amount">
                  {formatMoney(centsOf(commission.amount))}
                </td>
                <td data-label="State">
                  {STATE_WORDS[commission.state]}
                  {commission.payoutFailure ? (
                    <span className="commission-table__failure">Payout failed: {commission.payoutFailure}</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="commission-table__pager">
        <label className="commission-table__size" htmlFor={sizeId}>
          Rows per page
          <select
            id={sizeId}
            className="field__input field__select"
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size === 0 ? 'All' : size}
              </option>
            ))}
          </select>
        </label>
        <p className="commission-table__range" aria-live="polite">
          {first}–{last} of {items.length}
          {hasMore ? '+' : ''}
        </p>
        <div className="commission-table__buttons">
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            Previous
          </button>
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Next
          </button>
        </div>
      </div>
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
