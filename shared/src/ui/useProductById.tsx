import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { toApiError } from './AuthProvider';
import { EmptyState } from './EmptyState';
import { ErrorBanner } from './ErrorBanner';
import { BoxIcon } from './icons';
import { Loading } from './Loading';

/**
 * Loading one product whose id is in the address, for both apps' detail screens: the request is
 * aborted when the id changes, a 404 is "missing" (with the server's words) and anything else an
 * error that can be retried.
 */
export type ProductLoad<T> =
  | { state: 'no-id' }
  | { state: 'loading' }
  | { state: 'ready'; product: T }
  | { state: 'missing' | 'error'; message: string };

type Settled<T> = { id: string } & Extract<ProductLoad<T>, { state: 'ready' | 'missing' | 'error' }>;

/** `load` must be stable (wrap it in useCallback). */
export function useProductById<T>(
  id: string,
  load: (id: string, signal: AbortSignal) => Promise<T>,
): { result: ProductLoad<T>; retry: () => void } {
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    load(id, controller.signal).then(
      (product) => {
        if (!controller.signal.aborted) setSettled({ id, state: 'ready', product });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const missing = error instanceof ApiError && error.status === 404;
        setSettled({ id, state: missing ? 'missing' : 'error', message: toApiError(error).message });
      },
    );
    return () => controller.abort();
  }, [load, id, attempt]);

  const retry = () => {
    setSettled(null);
    setAttempt((value) => value + 1);
  };
  if (!id) return { result: { state: 'no-id' }, retry };
  if (settled?.id !== id) return { result: { state: 'loading' }, retry };
  const { id: _id, ...result } = settled;
  return { result: result as ProductLoad<T>, retry };
}

/** What a detail screen shows until its product is ready. */
export function ProductLoadStatus({
  result,
  retry,
  noIdMessage,
  missingTitle,
}: {
  result: Exclude<ProductLoad<unknown>, { state: 'ready' }>;
  retry: () => void;
  noIdMessage: string;
  missingTitle: string;
}): ReactNode {
  if (result.state === 'loading') return <Loading label="Loading the product…" />;
  if (result.state === 'error') {
    return <ErrorBanner title="The product could not be loaded" message={result.message} onRetry={retry} />;
  }
  return (
    <EmptyState icon={<BoxIcon />} title={missingTitle}>
      <p>{result.state === 'no-id' ? noIdMessage : result.message}</p>
    </EmptyState>
  );
}
