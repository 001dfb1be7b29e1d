import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/**
 * The one QueryClient each app creates (see ui/QueryProvider.tsx), with the defaults every query
 * shares:
 * - a failure that may pass by itself (no connection, a time-out, a 5xx) is retried twice, with
 *   the library's growing delay; a 4xx (not found, forbidden, a refused request) is an answer and
 *   is not. A 401 has already been through the auth store's refresh-and-retry when it gets here.
 * - no refetch storms: data is fresh for 30 s (a screen opened again within that shows the cache
 *   without asking), and switching back to the tab refetches nothing; a reconnect refetches only
 *   what is stale and shown.
 * - mutations are never retried by the client: approving twice is the server's 409, not ours.
 */

export const DEFAULT_STALE_TIME_MS = 30_000;
export const MAX_RETRIES = 2;

/** A failure worth trying again: the network, a time-out or the server's own error (5xx). */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.kind === 'http' && error.status !== undefined && error.status >= 500;
}

/** TanStack's `retry` option: up to MAX_RETRIES more attempts, and only for transient failures. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isTransientError(error);
}

export function createQueryClient(overrides: DefaultOptions = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      ...overrides,
      queries: {
        retry: shouldRetry,
        staleTime: DEFAULT_STALE_TIME_MS,
        refetchOnWindowFocus: false,
        ...overrides.queries,
      },
      mutations: { retry: false, ...overrides.mutations },
    },
  });
}
