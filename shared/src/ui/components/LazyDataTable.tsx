import { Suspense, useId, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { DataColumn, DataTableProps } from './DataTable';
import { DEFAULT_PAGE_SIZE, TableToolbar, formatCell, type PageSizeChoice } from './dataTableCells';
import '../styles/dataTable.css';
import { lazyWithPreload } from '../hooks/preload';
import { useIsPhone } from '../hooks/useIsPhone';

export type { DataColumn, DataTableProps, CellKind } from './DataTable';

/**
 * The grid (AG Grid) is its own chunk: the screens import this, never DataTable.tsx, so neither
 * app's first route carries it.
 */
let gridLoaded = false;
const LoadedTable = lazyWithPreload<DataTableProps<unknown>>(() =>
  import('./DataTable').then((module) => {
    gridLoaded = true;
    return module.DataTable as (props: DataTableProps<unknown>) => ReactNode;
  }),
);

export const preloadDataTable = (): Promise<unknown> => LoadedTable.preload();

/**
 * A table: until the grid's chunk is loaded, a plain HTML table of the first page (the grid's
 * first page size, in the columns' first order), which the grid replaces when the pointer comes
 * over the table, focus enters it or the page size changes, that is before anyone sorts or pages
 * it. AG Grid (758 KiB of script) is evaluated and builds its grid in one long task; on a screen
 * opened by its address (the admin's Orders) that task would block the page as it first shows
 * (issue 16). Once the chunk is loaded, every table is the grid at once.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const [ready, setReady] = useState(gridLoaded);
  const [chosenSize, setChosenSize] = useState<PageSizeChoice | null>(null);
  // An empty table says so at once, without loading the grid.
  if (props.rows.length === 0) {
    return (
      <div className="data-table data-table--empty card">
        <p className="data-table__empty" role="status">
          {props.emptyMessage}
        </p>
      </div>
    );
  }
  const pageSize = chosenSize ?? props.initialPageSize ?? DEFAULT_PAGE_SIZE;
  if (!ready) {
    // The plain table stays (the same elements, so a click that began on it ends on it) until
    // the grid's chunk is in.
    const wantGrid = (size?: PageSizeChoice) => {
      if (size) setChosenSize(size);
      preloadDataTable().then(
        () => setReady(true),
        () => undefined, // The plain table stays; the next hover tries again.
      );
    };
    return <PlainTable {...props} initialPageSize={pageSize} onWantGrid={wantGrid} />;
  }
  return (
    <Suspense fallback={<PlainTable {...props} initialPageSize={pageSize} />}>
      <LoadedTable {...({ ...props, initialPageSize: pageSize } as unknown as DataTableProps<unknown>)} />
    </Suspense>
  );
}

/** The rows in the columns' first order (the grid's `initialSort`), else the server's. */
function firstOrder<T>(rows: readonly T[], columns: readonly DataColumn<T>[]): readonly T[] {
  const column = columns.find((candidate) => candidate.sort && candidate.value);
  const value = column?.value;
  if (!column || !value) return rows;
  const direction = column.sort === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const left = value(a);
    const right = value(b);
    if (left === right) return 0;
    if (left === null) return 1;
    if (right === null) return -1;
    return (left < right ? -1 : 1) * direction;
  });
}

/** The first page as a plain table, with the grid's toolbar; `onWantGrid` asks for the grid. */
function PlainTable<T>({
  rows,
  columns,
  rowId,
  label,
  onRowActivate,
  initialPageSize = DEFAULT_PAGE_SIZE,
  onWantGrid,
}: DataTableProps<T> & { onWantGrid?: (size?: PageSizeChoice) => void }) {
  const selectId = useId();
  const phone = useIsPhone();
  const shown = columns.filter((column) => !(phone && column.hideOnPhone));
  const size = initialPageSize === 'all' ? rows.length : initialPageSize;
  const firstPage = firstOrder(rows, columns).slice(0, size);
  const want = () => onWantGrid?.();
  const activate = (row: T) => (event: MouseEvent | KeyboardEvent) => {
    if (event.target instanceof Element && event.target.closest('button, a, input, select')) return;
    if ('key' in event && event.key !== 'Enter') return;
    onRowActivate?.(row);
  };
  return (
    <div
      className={onRowActivate ? 'data-table data-table--clickable card' : 'data-table card'}
      onPointerEnter={want}
      onTouchStart={want}
      onFocus={want}
    >
      <TableToolbar
        selectId={selectId}
        pageSize={initialPageSize}
        rowCount={rows.length}
        clickable={Boolean(onRowActivate)}
        onPageSize={(size) => onWantGrid?.(size)}
      />
      {/* Focusable, so that a keyboard reaches it (and so loads the grid). */}
      <div className="data-table__grid" role="region" aria-label={label} tabIndex={0} data-testid="plain-table">
        <table className="data-table__plain">
          <thead>
            <tr>
              {shown.map((column) => (
                <th
                  key={column.id}
                  scope="col"
                  style={{ minWidth: column.minWidth ?? 120 }}
                  className={
                    column.kind === 'money' || column.kind === 'count' ? 'data-table__cell--number' : undefined
                  }
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {firstPage.map((row) => (
              <tr key={rowId(row)} onClick={activate(row)} onKeyDown={activate(row)}>
                {shown.map((column) => (
                  <td
                    key={column.id}
                    className={
                      column.kind === 'money' || column.kind === 'count' ? 'data-table__cell--number' : undefined
                    }
                  >
                    {column.render
                      ? column.render(row)
                      : formatCell(column.kind ?? 'text', column.value ? column.value(row) : null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
