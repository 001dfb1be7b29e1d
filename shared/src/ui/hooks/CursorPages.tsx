import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { CursorPage } from '../../query/catalogue';
import { toApiError } from './authStore';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';

/**
 * Cursor-paged lists (the catalogue and the review queue may hold 10 000 products): the first
 * page loads when the screen opens, further pages when the person asks ('Load more') or scrolls
 * to the end of the list (an IntersectionObserver on a sentinel). Nothing ever loads everything.
 * The pages live in TanStack Query (an infinite query, see query/catalogue.ts); this is the view
 * of one that the screens and <LoadMore> read.
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

export interface LoadMoreProps {
  pages: Pick<CursorPages<unknown>, 'phase' | 'error' | 'hasMore' | 'loadMore'>;
  /** What the items are, for the button and messages ("products"). */
  noun?: string;
  /** Load the next page by itself when the end of the list scrolls into view. */
  auto?: boolean;
}

/**
 * The end of a paged list: a 'Load more' button (always there while more exist, so keyboard and
 * screen-reader users are not left to scrolling), the loading state, and a failed page in words
 * with Retry. With `auto`, reaching it loads the next page.
 */
export function LoadMore({ pages, noun = 'items', auto = true }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { phase, error, hasMore, loadMore } = pages;

  useEffect(() => {
    const element = sentinel.current;
    if (!auto || !element || !hasMore || phase !== 'ready' || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [auto, hasMore, phase, loadMore]);

  if (phase === 'more-error') {
    return (
      <ErrorBanner
        title={`More ${noun} could not be loaded`}
        message={error ?? 'Something went wrong.'}
        onRetry={loadMore}
      />
    );
  }
  if (!hasMore) return null;
  return (
    <div className="load-more" ref={sentinel}>
      {phase === 'loading-more' ? (
        <Loading label={`Loading more ${noun}…`} block={false} />
      ) : (
        <button type="button" className="button button--secondary" onClick={loadMore} disabled={phase !== 'ready'}>
          Load more {noun}
        </button>
      )}
    </div>
  );
}
