import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSizeChoice, type TableSort } from '../components/dataTableCells';

/**
 * What a table shows of its rows: the page size (5 first; the person's choice kept per table in
 * this browser), the page, and the order. The table's plain first form, its cards on a phone and
 * the grid all read this one state, so the grid takes over from the plain table where it stood.
 */
export interface TableView {
  pageSize: PageSizeChoice;
  setPageSize: (size: PageSizeChoice) => void;
  /** The page shown, from 0 (kept within the pages there are). */
  page: number;
  setPage: (page: number) => void;
  sort: TableSort | null;
  setSort: (sort: TableSort | null) => void;
}

const STORAGE_PREFIX = 'portal.table.';

/** The page size a table was left at, or undefined (never stored, storage unavailable, a value we no longer offer). */
export function storedPageSize(tableId: string | undefined): PageSizeChoice | undefined {
  if (!tableId) return undefined;
  try {
    const stored = globalThis.localStorage?.getItem(`${STORAGE_PREFIX}${tableId}.pageSize`);
    if (stored === 'all') return 'all';
    const size = Number(stored);
    return (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSizeChoice) : undefined;
  } catch {
    return undefined; // Storage refused (private mode, a policy): the choice lasts while the page is open.
  }
}

function storePageSize(tableId: string | undefined, size: PageSizeChoice): void {
  if (!tableId) return;
  try {
    globalThis.localStorage?.setItem(`${STORAGE_PREFIX}${tableId}.pageSize`, String(size));
  } catch {
    // As above: not kept past this page.
  }
}

export function useTableView({
  tableId,
  initialPageSize,
  initialSort,
  rowCount,
}: {
  /** Names the table whose page size is kept ('admin.orders.all'); without it the choice is not kept. */
  tableId?: string;
  initialPageSize?: PageSizeChoice;
  initialSort: TableSort | null;
  rowCount: number;
}): TableView {
  const [pageSize, setSize] = useState<PageSizeChoice>(
    () => storedPageSize(tableId) ?? initialPageSize ?? DEFAULT_PAGE_SIZE,
  );
  const [page, setPageState] = useState(0);
  const [sort, setSortState] = useState<TableSort | null>(initialSort);

  const pages = pageSize === 'all' ? 1 : Math.max(1, Math.ceil(rowCount / pageSize));
  // Fewer rows than before (a search, a reload): the last page there is.
  const shownPage = Math.min(page, pages - 1);

  const setPageSize = useCallback(
    (size: PageSizeChoice) => {
      setSize(size);
      setPageState(0);
      storePageSize(tableId, size);
    },
    [tableId],
  );
  const setPage = useCallback((next: number) => setPageState(Math.max(0, Math.min(next, pages - 1))), [pages]);
  const setSort = useCallback((next: TableSort | null) => {
    setSortState(next);
    setPageState(0);
  }, []);

  return { pageSize, setPageSize, page: shownPage, setPage, sort, setSort };
}
