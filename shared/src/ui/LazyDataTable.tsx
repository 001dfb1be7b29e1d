import { Suspense, type ReactNode } from 'react';
import type { DataTableProps } from './DataTable';
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
  return (
    <Suspense fallback={<Loading label="Loading the table…" block={false} />}>
      <LoadedTable {...(props as unknown as DataTableProps<unknown>)} />
    </Suspense>
  );
}
