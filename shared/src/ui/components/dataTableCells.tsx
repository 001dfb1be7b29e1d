import type { ReactNode } from 'react';
import { formatCount, formatDate, formatMoney } from '../../domain/format';

/**
 * What every form of a table shares (DataTable.tsx, the grid; LazyDataTable.tsx's plain table
 * shown until the grid is loaded, and its cards on a phone), without AG Grid: how a cell is
 * written, the page sizes, the order of the rows, the toolbar and the pager.
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

/** The rows' order: a column (one with a value) and its direction. */
export interface TableSort {
  columnId: string;
  direction: 'asc' | 'desc';
}

/** The column fields the order needs (DataColumn's, without its rendering). */
export interface SortableColumn<T> {
  id: string;
  header: string;
  value?: (row: T) => string | number | null;
  kind?: CellKind;
  sortable?: boolean;
  sort?: 'asc' | 'desc';
}

export const isSortable = <T,>(column: SortableColumn<T>): boolean =>
  column.sortable !== false && column.value !== undefined;

/**
 * Two cell values in ascending order: numbers by size, text as people read it (case and accents
 * aside, digits by number), ISO dates by time (their text order); an empty value last either way.
 * The grid is handed this comparator too, so both forms of a table agree on every order.
 */
export function compareValues(left: string | number | null, right: string | number | null): number {
  if (left === right) return 0;
  if (left === null || left === '') return 1;
  if (right === null || right === '') return -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return collator.compare(String(left), String(right));
}
const collator = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

/** The rows in `sort`'s order (a stable sort: equal rows keep the server's order), or as given. */
export function sortRows<T>(
  rows: readonly T[],
  columns: readonly SortableColumn<T>[],
  sort: TableSort | null,
): readonly T[] {
  const value = sort ? columns.find((column) => column.id === sort.columnId && isSortable(column))?.value : undefined;
  if (!sort || !value) return rows;
  const sign = sort.direction === 'desc' ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      // Empty values stay last in both directions.
      const aEmpty = a.key === null || a.key === '';
      const bEmpty = b.key === null || b.key === '';
      if (aEmpty !== bEmpty) return aEmpty ? 1 : -1;
      return sign * compareValues(a.key, b.key) || a.index - b.index;
    })
    .map((entry) => entry.row);
}

/** The first order of a table: the column marked `sort`, else the server's order. */
export function initialSortOf<T>(columns: readonly SortableColumn<T>[]): TableSort | null {
  const column = columns.find((candidate) => candidate.sort && isSortable(candidate));
  return column?.sort ? { columnId: column.id, direction: column.sort } : null;
}

/** The choices of the 'Sort by' menu: each sortable date, money or count column both ways, and the text ones A to Z. */
export function sortChoices<T>(
  columns: readonly SortableColumn<T>[],
): { value: string; label: string; sort: TableSort }[] {
  const choices: { value: string; label: string; sort: TableSort }[] = [];
  for (const column of columns.filter(isSortable)) {
    const words = SORT_WORDS[column.kind ?? 'text'];
    for (const direction of ['desc', 'asc'] as const) {
      choices.push({
        value: `${column.id}:${direction}`,
        label: `${column.header}: ${words[direction]}`,
        sort: { columnId: column.id, direction },
      });
    }
  }
  return choices;
}
const SORT_WORDS: Record<CellKind, Record<'asc' | 'desc', string>> = {
  date: { desc: 'newest first', asc: 'oldest first' },
  money: { desc: 'highest first', asc: 'lowest first' },
  count: { desc: 'most first', asc: 'fewest first' },
  text: { desc: 'Z to A', asc: 'A to Z' },
};

/** The rows of one page (all of them with 'all'). */
export function pageOf<T>(rows: readonly T[], pageSize: PageSizeChoice, page: number): readonly T[] {
  if (pageSize === 'all') return rows;
  return rows.slice(page * pageSize, (page + 1) * pageSize);
}

/** 'Rows 6–10 of 37', 'Rows 1–37 of 37', '1 row'. */
export function rangeText(rowCount: number, pageSize: PageSizeChoice, page: number): string {
  if (rowCount === 1) return '1 row';
  if (pageSize === 'all' || rowCount <= pageSize) return `${formatCount(rowCount)} rows`;
  const first = page * pageSize + 1;
  const last = Math.min(rowCount, first + pageSize - 1);
  return `Rows ${formatCount(first)}–${formatCount(last)} of ${formatCount(rowCount)}`;
}

/**
 * The toolbar above a table, the same in every form: rows per page (5, 7, 10, 15, 20, 25, 50,
 * all; 5 first) and the order, as menus a keyboard and a phone reach, and what the page shows.
 */
export function TableToolbar<T>({
  idPrefix,
  columns,
  pageSize,
  onPageSize,
  sort,
  onSort,
  rowCount,
  page,
  clickable,
}: {
  idPrefix: string;
  columns: readonly SortableColumn<T>[];
  pageSize: PageSizeChoice;
  onPageSize: (size: PageSizeChoice) => void;
  sort: TableSort | null;
  onSort: (sort: TableSort | null) => void;
  rowCount: number;
  page: number;
  clickable: boolean;
}) {
  const choices = sortChoices(columns);
  const current = sort ? `${sort.columnId}:${sort.direction}` : '';
  return (
    <div className="data-table__toolbar">
      <div className="data-table__control">
        <label htmlFor={`${idPrefix}-size`} className="data-table__control-label">
          Rows per page
        </label>
        <select
          id={`${idPrefix}-size`}
          className="data-table__select"
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
      </div>
      {choices.length > 0 ? (
        <div className="data-table__control">
          <label htmlFor={`${idPrefix}-sort`} className="data-table__control-label">
            Sort by
          </label>
          <select
            id={`${idPrefix}-sort`}
            className="data-table__select"
            value={current}
            onChange={(event) => onSort(choices.find((choice) => choice.value === event.target.value)?.sort ?? null)}
          >
            <option value="">As listed</option>
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <span className="data-table__count" role="status">
        {rangeText(rowCount, pageSize, page)}
        {clickable ? ' · select a row to open it' : ''}
      </span>
    </div>
  );
}

/**
 * The pager under a table: first, previous, 'Page 2 of 8', next, last. Buttons with words (their
 * icons are decorative), which wrap rather than leave the card on a phone.
 */
export function TablePager({
  label,
  rowCount,
  pageSize,
  page,
  onPage,
}: {
  label: string;
  rowCount: number;
  pageSize: PageSizeChoice;
  page: number;
  onPage: (page: number) => void;
}) {
  const pages = pageSize === 'all' ? 1 : Math.max(1, Math.ceil(rowCount / pageSize));
  const button = (text: ReactNode, name: string, target: number, disabled: boolean) => (
    <button
      type="button"
      className="button button--secondary button--small data-table__page-button"
      aria-label={name}
      disabled={disabled}
      onClick={() => onPage(target)}
    >
      {text}
    </button>
  );
  return (
    <nav className="data-table__pager" aria-label={`${label}: pages`}>
      {button(<span aria-hidden="true">«</span>, 'First page', 0, page === 0)}
      {button(
        <>
          <span aria-hidden="true">‹</span> Previous
        </>,
        'Previous page',
        page - 1,
        page === 0,
      )}
      <span className="data-table__page">
        Page {formatCount(page + 1)} of {formatCount(pages)}
      </span>
      {button(
        <>
          Next <span aria-hidden="true">›</span>
        </>,
        'Next page',
        page + 1,
        page >= pages - 1,
      )}
      {button(<span aria-hidden="true">»</span>, 'Last page', pages - 1, page >= pages - 1)}
    </nav>
  );
}
