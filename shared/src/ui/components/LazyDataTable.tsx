import { Suspense, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { DataColumn, DataTableProps, GridProps } from './DataTable';
import {
  TablePager,
  TableToolbar,
  formatCell,
  initialSortOf,
  isSortable,
  pageOf,
  sortRows,
  type TableSort,
} from './dataTableCells';
import '../styles/dataTable.css';
import { lazyWithPreload } from '../hooks/preload';
import { useIsPhone } from '../hooks/useIsPhone';
import { useTableView } from '../hooks/useTableView';

export type { DataColumn, DataTableProps, CellKind } from './DataTable';

/**
 * The grid (AG Grid) is its own chunk: the screens import this, never DataTable.tsx, so neither
 * app's first route carries it.
 */
let gridLoaded = false;
const LoadedGrid = lazyWithPreload<GridProps<unknown>>(() =>
  import('./DataTable').then((module) => {
    gridLoaded = true;
    return module.DataTable as (props: GridProps<unknown>) => ReactNode;
  }),
);

export const preloadDataTable = (): Promise<unknown> => LoadedGrid.preload();

/**
 * A table, usable from its first paint at any width: the toolbar (rows per page, 5 first and the
 * choice kept per table; the order; which rows show) above it and the pager under it are ours, the
 * same in every form, and one state (useTableView) orders and pages the rows for all of them.
 *
 * - On a phone (under 640 px): cards, one per row, every column in it as a labelled line.
 * - On a wider screen: until the grid's chunk is loaded, a plain HTML table of the page with
 *   sortable headers; the grid (AG Grid, 758 KiB of script evaluated and built in one long task)
 *   loads when the pointer comes over the table or focus enters it, and takes its place showing the
 *   same page in the same order (issue 16 measured the long task a screen opened by its address
 *   would otherwise block on; decision 0038). Once the chunk is loaded, every table is the grid at once.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, columns, label, tableId, initialPageSize, onRowActivate } = props;
  const idPrefix = useId();
  const phone = useIsPhone();
  const [ready, setReady] = useState(gridLoaded);
  // A press on the plain table is not cut in two: the grid takes its place only once the button is
  // up and its click has run (a swap between pointerdown and pointerup lost the click under load).
  const pressed = useRef(false);
  const swapAfterPress = useRef(false);
  const view = useTableView({ tableId, initialPageSize, initialSort: initialSortOf(columns), rowCount: rows.length });
  const sorted = useMemo(() => sortRows(rows, columns, view.sort), [rows, columns, view.sort]);

  // An empty table says so at once, without loading the grid.
  if (rows.length === 0) {
    return (
      <div className="data-table data-table--empty card">
        <p className="data-table__empty" role="status">
          {props.emptyMessage}
        </p>
      </div>
    );
  }

  const pageRows = pageOf(sorted, view.pageSize, view.page);
  const wantGrid = () => {
    if (ready || phone) return;
    preloadDataTable().then(
      () => {
        if (pressed.current) swapAfterPress.current = true;
        else setReady(true);
      },
      () => undefined, // The plain table stays; the next hover tries again.
    );
  };
  const pressStarts = () => {
    pressed.current = true;
  };
  const pressEnds = () => {
    pressed.current = false;
    if (!swapAfterPress.current) return;
    swapAfterPress.current = false;
    // After this press's click event (dispatched after pointerup, in the same task).
    setTimeout(() => setReady(true), 0);
  };
  const bodyProps = { ...props, rows: pageRows, sort: view.sort, onSort: view.setSort };
  let body: ReactNode;
  if (phone) body = <TableCards {...bodyProps} />;
  else if (!ready) body = <PlainTable {...bodyProps} />;
  else
    body = (
      <Suspense fallback={<PlainTable {...bodyProps} />}>
        <LoadedGrid {...(bodyProps as unknown as GridProps<unknown>)} />
      </Suspense>
    );

  return (
    <div
      className={onRowActivate ? 'data-table data-table--clickable card' : 'data-table card'}
      data-testid="data-table"
      data-form={phone ? 'cards' : ready ? 'grid' : 'plain'}
      onPointerEnter={wantGrid}
      onFocus={wantGrid}
      onPointerDown={pressStarts}
      onPointerUp={pressEnds}
      onPointerCancel={pressEnds}
    >
      <TableToolbar
        idPrefix={idPrefix}
        columns={columns}
        pageSize={view.pageSize}
        onPageSize={view.setPageSize}
        sort={view.sort}
        onSort={view.setSort}
        rowCount={rows.length}
        page={view.page}
        clickable={Boolean(onRowActivate) && !phone}
      />
      {body}
      <TablePager
        label={label}
        rowCount={rows.length}
        pageSize={view.pageSize}
        page={view.page}
        onPage={view.setPage}
      />
    </div>
  );
}

type BodyProps<T> = DataTableProps<T> & { sort: TableSort | null; onSort: (sort: TableSort | null) => void };

const numeric = (column: DataColumn<unknown>) => column.kind === 'money' || column.kind === 'count';

function cellContent<T>(column: DataColumn<T>, row: T): ReactNode {
  return column.render
    ? column.render(row)
    : formatCell(column.kind ?? 'text', column.value ? column.value(row) : null);
}

/** Opens the row on a click or Enter, unless it landed on a control of its own. */
function activation<T>(onRowActivate: ((row: T) => void) | undefined, row: T) {
  return (event: MouseEvent | KeyboardEvent) => {
    if (!onRowActivate) return;
    if (event.target instanceof Element && event.target.closest('button, a, input, select')) return;
    if ('key' in event && event.key !== 'Enter') return;
    onRowActivate(row);
  };
}

/** The page as a plain table, until the grid is loaded: headers sort (a button each), rows open. */
function PlainTable<T>({ rows, columns, rowId, label, onRowActivate, sort, onSort }: BodyProps<T>) {
  const shown = columns;
  return (
    // Focusable, so that a keyboard reaches it (and so loads the grid).
    <div className="data-table__grid" role="region" aria-label={label} tabIndex={0} data-testid="plain-table">
      <table className="data-table__plain">
        <thead>
          <tr>
            {shown.map((column) => {
              const direction = sort?.columnId === column.id ? sort.direction : null;
              const className = numeric(column as DataColumn<unknown>) ? 'data-table__cell--number' : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  style={{ minWidth: column.minWidth ?? 120 }}
                  className={className}
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                >
                  {isSortable(column) ? (
                    <button
                      type="button"
                      className="data-table__sort"
                      onClick={() => onSort({ columnId: column.id, direction: nextDirection(column, direction) })}
                    >
                      {column.header}
                      <span className="data-table__sort-mark" aria-hidden="true">
                        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowId(row)} onClick={activation(onRowActivate, row)} onKeyDown={activation(onRowActivate, row)}>
              {shown.map((column) => (
                <td
                  key={column.id}
                  className={numeric(column as DataColumn<unknown>) ? 'data-table__cell--number' : undefined}
                >
                  {cellContent(column, row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A header's next order on a click: dates and amounts first newest / highest, text first A to Z; then the other way. */
function nextDirection<T>(column: DataColumn<T>, current: 'asc' | 'desc' | null): 'asc' | 'desc' {
  if (current) return current === 'asc' ? 'desc' : 'asc';
  return column.kind === 'text' || column.kind === undefined ? 'asc' : 'desc';
}

/**
 * The page as cards on a phone: each row a card listing every column (header, then value), so
 * nothing is hidden or cut; a row that opens has an Open button naming it.
 */
function TableCards<T>({ rows, columns, rowId, label, onRowActivate, rowLabel }: BodyProps<T>) {
  return (
    <ul className="data-table__cards" aria-label={label} data-testid="table-cards">
      {rows.map((row) => (
        <li key={rowId(row)} className="data-table__card">
          <dl className="data-table__fields">
            {columns.map((column) => (
              <div key={column.id} className="data-table__field">
                <dt>{column.header}</dt>
                <dd className={numeric(column as DataColumn<unknown>) ? 'data-table__cell--number' : undefined}>
                  {cellContent(column, row)}
                </dd>
              </div>
            ))}
          </dl>
          {onRowActivate ? (
            <button
              type="button"
              className="button button--secondary button--small data-table__open"
              aria-label={rowLabel ? `Open ${rowLabel(row)}` : undefined}
              onClick={() => onRowActivate(row)}
            >
              Open
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
