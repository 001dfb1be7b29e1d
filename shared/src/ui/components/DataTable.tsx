import {
  CellStyleModule,
  ClientSideRowModelModule,
  ModuleRegistry,
  PaginationModule,
  themeQuartz,
  type ColDef,
  type ICellRendererParams,
  type RowClickedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  TableToolbar,
  dollarsToCents,
  formatCell,
  type CellKind,
  type PageSizeChoice,
} from './dataTableCells';
import { useIsPhone } from '../hooks/useIsPhone';

/**
 * The portal's tables (the admin's orders and payouts, the member's commissions): AG Grid
 * Community with only the modules used here, in its own chunk. Screens import <DataTable> from
 * LazyDataTable.tsx, never this module, so no first screen of either app carries the grid.
 *
 * Rows are paged on the client (5, 7, 10, 15, 20, 25, 50 or all of the loaded rows; 5 first);
 * the server's cursor pages are loaded by the screen ('Load more'), which hands all loaded rows in.
 */

ModuleRegistry.registerModules([CellStyleModule, ClientSideRowModelModule, PaginationModule]);

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
  /** Hidden on a phone (under 640px) to keep the table readable; it scrolls sideways otherwise. */
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
  /** For tests: the first page size. */
  initialPageSize?: PageSizeChoice;
}

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
  initialPageSize = DEFAULT_PAGE_SIZE,
}: DataTableProps<T>) {
  const selectId = useId();
  const [pageSize, setPageSize] = useState<PageSizeChoice>(initialPageSize);
  const phone = useIsPhone();

  const columnDefs = useMemo<ColDef<T>[]>(
    () =>
      columns.map((column) => {
        const kind = column.kind ?? 'text';
        const render = column.render;
        const value = column.value;
        return {
          colId: column.id,
          headerName: column.header,
          sortable: column.sortable !== false && value !== undefined,
          hide: phone && column.hideOnPhone === true,
          minWidth: column.minWidth ?? 120,
          flex: column.flex ?? 1,
          wrapText: column.wrap === true,
          initialSort: column.sort,
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
    [columns, phone],
  );

  // The grid never scrolls sideways itself (its auto height would not leave room for the
  // scrollbar): it is at least as wide as its columns' minimum widths, and the card scrolls.
  const minWidth = useMemo(
    () => columnDefs.reduce((sum, column) => sum + (column.hide ? 0 : (column.minWidth ?? 0)), 0),
    [columnDefs],
  );
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

  const paged = pageSize !== 'all';
  return (
    <div className={onRowActivate ? 'data-table data-table--clickable card' : 'data-table card'}>
      <TableToolbar
        selectId={selectId}
        pageSize={pageSize}
        rowCount={rows.length}
        clickable={Boolean(onRowActivate)}
        onPageSize={setPageSize}
      />
      <div className="data-table__grid" role="region" aria-label={label} onKeyDown={onKeyDown}>
        <div className="data-table__sizer" style={{ minWidth }}>
          <AgGridReact<T>
            theme={theme}
            rowData={rows as T[]}
            columnDefs={columnDefs}
            getRowId={(params) => rowId(params.data)}
            domLayout="autoHeight"
            rowHeight={typeof rowHeight === 'number' ? rowHeight : undefined}
            getRowHeight={
              typeof rowHeight === 'function'
                ? (params) => (params.data ? rowHeight(params.data) : undefined)
                : undefined
            }
            suppressColumnVirtualisation
            suppressRowVirtualisation
            pagination={paged}
            paginationPageSize={paged ? pageSize : undefined}
            paginationPageSizeSelector={false}
            onRowClicked={onRowClicked}
            suppressCellFocus={false}
            enableCellTextSelection
            ensureDomOrder
          />
        </div>
      </div>
    </div>
  );
}
