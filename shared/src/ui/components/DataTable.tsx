import {
  CellStyleModule,
  ClientSideRowModelModule,
  ModuleRegistry,
  themeQuartz,
  type ColDef,
  type ICellRendererParams,
  type RowClickedEvent,
  type SortChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  compareValues,
  dollarsToCents,
  formatCell,
  isSortable,
  type CellKind,
  type PageSizeChoice,
  type TableSort,
} from './dataTableCells';

/**
 * The portal's tables (the admin's orders and payouts, the member's commissions) on a wide
 * screen: AG Grid Community with only the modules used here, in its own chunk. Screens import
 * <DataTable> from LazyDataTable.tsx, never this module, so no first screen of either app carries
 * the grid. That module owns the toolbar, the pager and the order (5, 7, 10, 15, 20, 25, 50 or
 * all of the loaded rows; 5 first) and hands the grid one page, in order; a header click here
 * changes that order (`onSort`). The server's cursor pages are loaded by the screen ('Load more').
 */

ModuleRegistry.registerModules([CellStyleModule, ClientSideRowModelModule]);

export { PAGE_SIZES, DEFAULT_PAGE_SIZE, dollarsToCents, formatCell };
export type { CellKind, PageSizeChoice };

export interface DataColumn<T> {
  id: string;
  header: string;
  /** The value the column sorts by (and shows, formatted by `kind`, unless `render` is given). */
  value?: (row: T) => string | number | null;
  kind?: CellKind;
  /** A custom cell (a button on the row it acts on). */
  render?: (row: T) => ReactNode;
  /** Sortable unless false; a column without a value never is. */
  sortable?: boolean;
  /** No longer used: a phone shows every column, as cards (kept so that column lists of before compile). */
  hideOnPhone?: boolean;
  minWidth?: number;
  flex?: number;
  /** Let the text wrap (give the table a `rowHeight` that fits it). */
  wrap?: boolean;
  /** The table's first order (the server's order otherwise). */
  sort?: 'asc' | 'desc';
}

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  rowId: (row: T) => string;
  /** The table's accessible name ('Orders'). */
  label: string;
  /** What an empty table says ('No orders yet.'). */
  emptyMessage: string;
  /** A row click, or Enter on a focused row, opens it. */
  onRowActivate?: (row: T) => void;
  /**
   * Rows taller than one line of text, for a cell holding a button and a reason under it. A fixed
   * height (rather than measuring each row) keeps the pages the same height as they turn.
   */
  rowHeight?: number | ((row: T) => number);
  /** The first page size when the person has not chosen one for this table (5 otherwise). */
  initialPageSize?: PageSizeChoice;
  /** Names the table whose page-size choice this browser keeps ('admin.orders.all'). */
  tableId?: string;
  /** Names a row for the Open button of its card on a phone ('order RP-7F3K9Q2M'). */
  rowLabel?: (row: T) => string;
}

/** What LazyDataTable.tsx hands the grid: one page of rows, in `sort`'s order. */
export type GridProps<T> = DataTableProps<T> & { sort: TableSort | null; onSort: (sort: TableSort | null) => void };

/** A row's height when the table gives none: two lines of wrapped text. */
const TWO_LINES = 56;

const theme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: 14,
  headerFontWeight: 600,
  spacing: 6,
  wrapperBorderRadius: 8,
  accentColor: '#2c56c9',
});

export function DataTable<T>({
  rows,
  columns,
  rowId,
  label,
  // emptyMessage: an empty table is drawn by LazyDataTable.tsx, without loading the grid.
  onRowActivate,
  rowHeight,
  sort,
  onSort,
}: GridProps<T>) {
  const columnDefs = useMemo<ColDef<T>[]>(
    () =>
      columns.map((column) => {
        const kind = column.kind ?? 'text';
        const render = column.render;
        const value = column.value;
        return {
          colId: column.id,
          headerName: column.header,
          sortable: isSortable(column),
          // The order is LazyDataTable's: the rows come in it, and the header shows it.
          sort: sort?.columnId === column.id ? sort.direction : null,
          // The same comparison as the order the rows came in (empty values last both ways), so
          // sorting the page again keeps it as it is.
          comparator: (left: unknown, right: unknown, _a: unknown, _b: unknown, descending: boolean) => {
            const a = left as string | number | null;
            const b = right as string | number | null;
            const aEmpty = a === null || a === undefined || a === '';
            const bEmpty = b === null || b === undefined || b === '';
            if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : (aEmpty ? 1 : -1) * (descending ? -1 : 1);
            return compareValues(a, b);
          },
          minWidth: column.minWidth ?? 120,
          flex: column.flex ?? 1,
          // Text wraps (two lines fit the rows' height), so a long name or address is not cut.
          wrapText: true,
          valueGetter: value ? (params) => (params.data ? value(params.data) : null) : undefined,
          valueFormatter: (params) => formatCell(kind, params.value as string | number | null),
          cellRenderer: render
            ? (params: ICellRendererParams<T>) => (params.data ? render(params.data) : null)
            : undefined,
          // Numbers and their headers right-aligned, so that digits and headers line up.
          ...(kind === 'money' || kind === 'count'
            ? {
                cellClass: ['data-table__cell--number', 'ag-right-aligned-cell'],
                headerClass: 'ag-right-aligned-header',
              }
            : {}),
        } satisfies ColDef<T>;
      }),
    [columns, sort],
  );

  // The grid never scrolls sideways itself (its auto height would not leave room for the
  // scrollbar): it is at least as wide as its columns' minimum widths, and the card scrolls.
  const minWidth = useMemo(() => columnDefs.reduce((sum, column) => sum + (column.minWidth ?? 0), 0), [columnDefs]);
  const byId = useMemo(() => new Map(rows.map((row) => [rowId(row), row])), [rows, rowId]);

  const onRowClicked = (event: RowClickedEvent<T>) => {
    const target = event.event?.target;
    if (target instanceof Element && target.closest('button, a, input, select')) return;
    if (event.data && onRowActivate) onRowActivate(event.data);
  };

  // Enter on a focused row or cell: a cell holding the row's action presses it, otherwise the row opens.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter') return;
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.closest('button, a, input, select')) return;
    const rowElement = target.closest<HTMLElement>('.ag-row[row-id]');
    if (!rowElement) return;
    const button = target.getAttribute('role') === 'gridcell' ? target.querySelector('button') : null;
    if (button) {
      if (!button.disabled) button.click();
      event.preventDefault();
      return;
    }
    const row = byId.get(rowElement.getAttribute('row-id') ?? '');
    if (row !== undefined && onRowActivate) {
      event.preventDefault();
      onRowActivate(row);
    }
  };

  // A header click: the person's new order, handed up (the grid's own changes from `sort` are not).
  const onSortChanged = (event: SortChangedEvent<T>) => {
    if (event.source !== 'uiColumnSorted') return;
    // The columns the click changed: the one sorted now, and the one that was (unsorted now).
    const sorted = (event.columns ?? []).find((column) => column.getSort());
    const direction = sorted?.getSort();
    onSort(sorted && (direction === 'asc' || direction === 'desc') ? { columnId: sorted.getColId(), direction } : null);
  };

  return (
    <div className="data-table__grid" role="region" aria-label={label} onKeyDown={onKeyDown}>
      <div className="data-table__sizer" style={{ minWidth }}>
        <AgGridReact<T>
          theme={theme}
          rowData={rows as T[]}
          columnDefs={columnDefs}
          getRowId={(params) => rowId(params.data)}
          domLayout="autoHeight"
          rowHeight={typeof rowHeight === 'number' ? rowHeight : TWO_LINES}
          getRowHeight={
            typeof rowHeight === 'function' ? (params) => (params.data ? rowHeight(params.data) : undefined) : undefined
          }
          suppressColumnVirtualisation
          suppressRowVirtualisation
          onRowClicked={onRowClicked}
          onSortChanged={onSortChanged}
          suppressCellFocus={false}
          enableCellTextSelection
          ensureDomOrder
        />
      </div>
    </div>
  );
}
