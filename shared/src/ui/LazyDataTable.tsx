import { Suspense, type ReactNode } from 'react';
import type { DataTableProps } from './DataTable';
import './dataTable.css';
import { Loading } from './Loading';
import { lazyWithPreload } from './preload';

export type { DataColumn, DataTableProps, CellKind } from './DataTable';

/**
 * The grid (AG Grid) is its own chunk, loaded when a table first shows: the screens import this,
 * never DataTable.tsx, so neither app's first route carries it.
 */
const LoadedTable = lazyWithPreload<DataTableProps<unknown>>(() =>
  import('./DataTable').then((module) => module.DataTable as (props: DataTableProps<unknown>) => ReactNode),
);

export const preloadDataTable = (): Promise<unknown> => LoadedTable.preload();

export function DataTable<T>(props: DataTableProps<T>) {
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
  return (
    <Suspense fallback={<Loading label="Loading the table…" block={false} />}>
      <LoadedTable {...(props as unknown as DataTableProps<unknown>)} />
    </Suspense>
  );
}
