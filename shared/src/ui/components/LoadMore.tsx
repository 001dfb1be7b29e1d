import { useEffect, useRef } from 'react';
import type { CursorPages } from '../hooks/CursorPages';
import { ErrorBanner } from './ErrorBanner';
import { Loading } from './Loading';

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
