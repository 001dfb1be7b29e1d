import { formatCount, formatDate, formatMoney } from '../../domain/format';

/**
 * What both forms of a table share (DataTable.tsx, the grid, and LazyDataTable.tsx's plain table
 * shown until the grid is loaded), without AG Grid: how a cell is written and the first page's size.
 */

export const PAGE_SIZES = [5, 7, 10, 15, 20, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 5;
export type PageSizeChoice = (typeof PAGE_SIZES)[number] | 'all';

/** How a column's value is written: dates, money (dollars at the API edge) and counts through the shared formatters. */
export type CellKind = 'text' | 'date' | 'money' | 'count';

export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

export function formatCell(kind: CellKind, value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'date':
      return formatDate(String(value));
    case 'money':
      return typeof value === 'number' ? formatMoney(dollarsToCents(value)) : String(value);
    case 'count':
      return typeof value === 'number' ? formatCount(value) : String(value);
    default:
      return String(value);
  }
}

/** The toolbar above a table, the same on the plain first page and on the grid: rows per page and the count. */
export function TableToolbar({
  selectId,
  pageSize,
  rowCount,
  clickable,
  onPageSize,
}: {
  selectId: string;
  pageSize: PageSizeChoice;
  rowCount: number;
  clickable: boolean;
  onPageSize: (size: PageSizeChoice) => void;
}) {
  return (
    <div className="data-table__toolbar">
      <label htmlFor={selectId} className="data-table__size-label">
        Rows per page
      </label>
      <select
        id={selectId}
        className="data-table__size"
        value={String(pageSize)}
        onChange={(event) =>
          onPageSize(event.target.value === 'all' ? 'all' : (Number(event.target.value) as PageSizeChoice))
        }
      >
        {PAGE_SIZES.map((size) => (
          <option key={size} value={String(size)}>
            {size}
          </option>
        ))}
        <option value="all">All</option>
      </select>
      <span className="data-table__count">
        {rowCount === 1 ? '1 row' : `${formatCount(rowCount)} rows`}
        {clickable ? ' · select a row to open it' : ''}
      </span>
    </div>
  );
}
