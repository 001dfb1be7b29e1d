import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { toApiError } from './AuthProvider';

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
