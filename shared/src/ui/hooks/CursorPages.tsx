import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { CursorPage } from '../../query/catalogue';
import { toApiError } from './authStore';

/**
 * Cursor-paged lists (the catalogue and the review queue may hold 10 000 products): the first
 * page loads when the screen opens, further pages when the person asks ('Load more') or scrolls
 * to the end of the list (an IntersectionObserver on a sentinel). Nothing ever loads everything.
 * The pages live in TanStack Query (an infinite query, see query/catalogue.ts); this is the view
 * of one that the screens and <LoadMore> (components/LoadMore.tsx) read.
 */

export type { CursorPage };

export type PagesPhase =
  /** The first page is on its way and nothing is shown yet. */
  | 'loading'
  /** The list is shown and loaded again from the start (after an import, say). */
  | 'refreshing'
  | 'ready'
  | 'loading-more'
  /** The first page failed. */
  | 'error'
  /** A further page failed; the items so far stay. */
  | 'more-error';

export interface CursorPages<T> {
  items: T[];
  phase: PagesPhase;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
  /** Load again from the first page, keeping the current items on screen until it arrives. */
  reload: () => void;
}

type PagesQuery<T> = Pick<
  UseInfiniteQueryResult<InfiniteData<CursorPage<T>, unknown>>,
  | 'data'
  | 'error'
  | 'isError'
  | 'isFetching'
  | 'isFetchingNextPage'
  | 'isFetchNextPageError'
  | 'hasNextPage'
  | 'fetchNextPage'
  | 'refetch'
>;

/**
 * The list view of an infinite query. `reload` defaults to refetching the query; pass one that
 * starts again from the first page (refreshFromFirstPage) for long lists.
 */
export function useCursorPages<T extends { id: string }>(query: PagesQuery<T>, reload?: () => void): CursorPages<T> {
  const { data, error, isFetching, isFetchingNextPage, isFetchNextPageError, hasNextPage, fetchNextPage, refetch } =
    query;

  const items = useMemo(() => {
    // A product can move between pages while they are read: show it once.
    const seen = new Set<string>();
    const all: T[] = [];
    for (const page of data?.pages ?? []) {
      for (const item of page.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        all.push(item);
      }
    }
    return all;
  }, [data]);

  let phase: PagesPhase;
  if (!data) phase = query.isError ? 'error' : 'loading';
  else if (isFetchingNextPage) phase = 'loading-more';
  else if (isFetchNextPageError) phase = 'more-error';
  else if (isFetching) phase = 'refreshing';
  else phase = 'ready';

  // One request at a time: no next page while the list is being read again, nor twice at once.
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  const refetchPages = useCallback(() => void refetch(), [refetch]);

  return {
    items,
    phase,
    error: error && (phase === 'error' || phase === 'more-error') ? toApiError(error).message : null,
    hasMore: hasNextPage,
    loadMore,
    reload: reload ?? refetchPages,
  };
}
