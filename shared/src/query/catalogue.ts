import {
  infiniteQueryOptions,
  queryOptions,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { ImportedProduct, ImportedProductCard, ImportIssue, ProductCard, ProductDetail } from '../api/products';
import type { AuthStore } from '../ui/hooks/authStore';
import { queryKeys } from './keys';

/**
 * The catalogue's queries, one factory per /api call (fetcher and options together, so a screen,
 * a prefetch and a test all ask the same way). `call` is the auth store's authenticated call: it
 * adds the access token, and on a 401 refreshes it once (single-flight) and retries.
 */

type Call = AuthStore['call'];

/** Products per page: fills two, three and four columns evenly. */
export const CATALOGUE_PAGE_SIZE = 24;
/**
 * The catalogue's cards a phone shows before scrolling (two rows of two): their pictures load
 * first (`fetchpriority="high"`), and the page's early script preloads them with the first page.
 */
export const CATALOGUE_FIRST_SCREENFUL = 4;
export const REVIEW_PAGE_SIZE = 24;

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** What the cache holds for a cursor-paged list. */
export type CursorPagesData<T> = InfiniteData<CursorPage<T>, string | undefined>;

const cursorPaging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: CursorPage<unknown>) => last.nextCursor ?? undefined,
};

/** The member catalogue: approved products, newest first. */
export const approvedProductsQuery = (call: Call) =>
  infiniteQueryOptions({
    queryKey: queryKeys.approvedProducts.list(CATALOGUE_PAGE_SIZE),
    queryFn: ({ pageParam, signal }) =>
      call('getApprovedProducts', { cursor: pageParam, limit: CATALOGUE_PAGE_SIZE }, { signal }),
    ...cursorPaging,
  });

export const approvedProductQuery = (call: Call, id: string) =>
  queryOptions({
    queryKey: queryKeys.approvedProducts.detail(id),
    queryFn: ({ signal }) => call('getApprovedProduct', { id }, { signal }),
  });

/** The admin's review queue: products waiting for approval, newest first. */
export const reviewListQuery = (call: Call) =>
  infiniteQueryOptions({
    queryKey: queryKeys.importedProducts.reviewList(REVIEW_PAGE_SIZE),
    queryFn: ({ pageParam, signal }) =>
      call('getUnApprovedProducts', { cursor: pageParam, limit: REVIEW_PAGE_SIZE }, { signal }),
    ...cursorPaging,
  });

export const importedProductQuery = (call: Call, id: string) =>
  queryOptions({
    queryKey: queryKeys.importedProducts.detail(id),
    queryFn: ({ signal }) => call('getImportedProduct', { id }, { signal }),
  });

export const importJobQuery = (call: Call, id: string) =>
  queryOptions({
    queryKey: queryKeys.importJobs.detail(id),
    queryFn: ({ signal }) => call('getImportJob', { id }, { signal }),
  });

/** An issue of an import with a key of its own (its page's cursor and its place on the page). */
export type KeyedImportIssue = ImportIssue & { id: string };

/** The rejected rows and warnings of a finished import, a page at a time. */
export const importIssuesQuery = (call: Call, jobId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.importJobs.issues(jobId),
    queryFn: async ({ pageParam, signal }): Promise<CursorPage<KeyedImportIssue>> => {
      const page = await call('getImportIssues', { id: jobId, cursor: pageParam }, { signal });
      return {
        items: page.items.map((issue, index) => ({ ...issue, id: `${pageParam ?? ''}#${index}` })),
        nextCursor: page.nextCursor,
      };
    },
    ...cursorPaging,
  });

/** The first item with this id in any cached list under `listsKey`. */
export function findInLists<T extends { id: string }>(
  client: QueryClient,
  listsKey: QueryKey,
  id: string,
): T | undefined {
  for (const [, data] of client.getQueriesData<CursorPagesData<T>>({ queryKey: listsKey })) {
    for (const page of data?.pages ?? []) {
      const found = page.items.find((item) => item.id === id);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * What a list card already says about a product, as a detail to show while the rest loads: the
 * first image as the only image and no description yet. Used as `placeholderData` only (never
 * stored), and shown with `isPlaceholderData`, so the screen knows which parts are still coming.
 */
export function detailFromCard(card: ProductCard): ProductDetail {
  return {
    ...card,
    images: card.image ? [card.image] : [],
    // Our copy's variants (issue 28), so the detail's first picture is the card's download.
    ...(card.image && card.picture ? { pictures: [card.picture] } : {}),
    html_description: '',
  };
}

export function approvedProductPreview(client: QueryClient, id: string): ProductDetail | undefined {
  const card = findInLists<ProductCard>(client, queryKeys.approvedProducts.lists(), id);
  return card ? detailFromCard(card) : undefined;
}

export function importedProductPreview(client: QueryClient, id: string): ImportedProduct | undefined {
  const card = findInLists<ImportedProductCard>(client, queryKeys.importedProducts.reviewLists(), id);
  // What changed is not known until the product arrives; the screen shows it then.
  // Nor is its version: Approve waits for the product, which names it.
  return card ? { ...detailFromCard(card), ...card, url: '', version: '', changes: null } : undefined;
}

/**
 * Loads a cursor list again from its first page: the cached lists keep only their first page
 * (without the items `keep` refuses, so a decided product leaves the screen at once) and are
 * marked stale, so the one shown refetches that page now and the others when next shown. A
 * plain refetch would read again every page loaded so far, one after the other.
 */
export function refreshFromFirstPage<T>(
  client: QueryClient,
  listsKey: QueryKey,
  keep: (item: T) => boolean = () => true,
): Promise<void> {
  client.setQueriesData<CursorPagesData<T>>({ queryKey: listsKey }, (data) => {
    const first = data?.pages[0];
    if (!data || !first) return data;
    return { pages: [{ ...first, items: first.items.filter(keep) }], pageParams: data.pageParams.slice(0, 1) };
  });
  return client.invalidateQueries({ queryKey: listsKey });
}
