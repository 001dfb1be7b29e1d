import { formatCount, formatDate, formatMoney } from '../domain/format';

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
