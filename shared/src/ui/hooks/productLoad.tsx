import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client';
import { toApiError } from './AuthProvider';
import { EmptyState } from '../components/EmptyState';
import { ErrorBanner } from '../components/ErrorBanner';
import { BoxIcon } from '../components/icons';
import { Loading } from '../components/Loading';

/**
 * One product whose id is in the address, for both apps' detail screens, read from its query
 * (catalogueQueries.tsx): a 404 is "missing" (with the server's words) and anything else an
 * error that can be retried. `preview` says the product is still the list card's part of it
 * (placeholder data): name, brand, prices and first image, with the rest on its way.
 */
export type ProductLoad<T> =
  | { state: 'no-id' }
  | { state: 'loading' }
  | { state: 'ready'; product: T; preview: boolean }
  | { state: 'missing' | 'error'; message: string };

export function productLoad<T>(
  id: string,
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPlaceholderData' | 'refetch'>,
): { result: ProductLoad<T>; retry: () => void } {
  const retry = () => void query.refetch();
  if (!id) return { result: { state: 'no-id' }, retry };
  if (query.data !== undefined) {
    return { result: { state: 'ready', product: query.data, preview: query.isPlaceholderData }, retry };
  }
  if (query.error) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return { result: { state: missing ? 'missing' : 'error', message: toApiError(query.error).message }, retry };
  }
  return { result: { state: 'loading' }, retry };
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
