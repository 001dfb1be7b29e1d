import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError } from './authStore';
import { ErrorBanner } from './ErrorBanner';
import { Loading } from './Loading';

/**
 * Cursor-paged lists (the catalogue and the review queue may hold 10 000 products): the first
 * page loads when the screen opens, further pages when the person asks ('Load more') or scrolls
 * to the end of the list (an IntersectionObserver on a sentinel). Nothing ever loads everything.
 */

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** Reads one page; `cursor` is undefined for the first. Keep it stable (useCallback). */
export type FetchPage<T> = (cursor: string | undefined, signal: AbortSignal) => Promise<CursorPage<T>>;

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

interface PagesState<T> {
  items: T[];
  nextCursor: string | null;
  phase: PagesPhase;
  error: string | null;
}

export function useCursorPages<T extends { id: string }>(fetchPage: FetchPage<T>): CursorPages<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<PagesState<T>>({ items: [], nextCursor: null, phase: 'loading', error: null });
  const moreRequest = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreRequest.current?.abort();
    fetchPage(undefined, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setState({ items: page.items, nextCursor: page.nextCursor, phase: 'ready', error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((current) => ({ ...current, phase: 'error', error: toApiError(error).message }));
      },
    );
    return () => controller.abort();
  }, [fetchPage, version]);

  useEffect(() => () => moreRequest.current?.abort(), []);

  const { nextCursor, phase } = state;
  const loadMore = useCallback(() => {
    if (!nextCursor || (phase !== 'ready' && phase !== 'more-error')) return;
    const controller = new AbortController();
    moreRequest.current?.abort();
    moreRequest.current = controller;
    setState((current) => ({ ...current, phase: 'loading-more', error: null }));
    fetchPage(nextCursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setState((current) => {
          // A product can move between pages while they are read: show it once.
          const seen = new Set(current.items.map((item) => item.id));
          const fresh = page.items.filter((item) => !seen.has(item.id));
          return { items: [...current.items, ...fresh], nextCursor: page.nextCursor, phase: 'ready', error: null };
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((current) => ({ ...current, phase: 'more-error', error: toApiError(error).message }));
      },
    );
  }, [fetchPage, nextCursor, phase]);

  const reload = useCallback(() => {
    moreRequest.current?.abort();
    setState((current) => ({
      ...current,
      phase: current.items.length > 0 ? 'refreshing' : 'loading',
      error: null,
    }));
    setVersion((value) => value + 1);
  }, []);

  return { items: state.items, phase, error: state.error, hasMore: nextCursor !== null, loadMore, reload };
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
