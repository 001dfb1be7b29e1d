import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { ImportedProductCard } from '@portal/shared/api/products';
import type { AuthView } from '@portal/shared/ui/hooks/AuthProvider';
import { queryKeys } from '@portal/shared/query/keys';

export type CatalogueList = 'approved' | 'banned' | 'withdrawn';
export const CATALOGUE_LISTS: readonly CatalogueList[] = ['approved', 'banned', 'withdrawn'];
export const CATALOGUE_PATH = '/catalogue';
export const cataloguePath = (list: CatalogueList) => `${CATALOGUE_PATH}?list=${list}`;

/** Rows per page of a catalogue list. */
export const CATALOGUE_ROWS = 25;

/** A catalogue list by search, a page at a time (the server searches: SPU, or the start of the name). */
export const catalogueQuery = (call: AuthView['call'], list: CatalogueList, search: string, limit = CATALOGUE_ROWS) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.adminCatalogue.list(list, search), limit],
    queryFn: ({ pageParam, signal }) =>
      call(
        'getCatalogueProducts',
        { list, ...(search ? { search } : {}), ...(pageParam ? { cursor: pageParam } : {}), limit },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
  });

export type CatalogueCard = ImportedProductCard;

/** After a move: every list a product may have left or joined, and the home's figures. */
export function reloadCatalogue(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.adminCatalogue.all });
  void client.invalidateQueries({ queryKey: queryKeys.importedProducts.all });
  void client.invalidateQueries({ queryKey: queryKeys.approvedProducts.all });
  void client.invalidateQueries({ queryKey: queryKeys.adminSummary });
}
