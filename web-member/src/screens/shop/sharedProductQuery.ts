import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '@portal/shared/api/client';
import type { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';

/**
 * The customer's shop page's one read (public, no session): the screen and the start-up prefetch
 * (web-member/src/landingData.ts) ask the same way. A 4xx (gone, unknown) is an answer, not
 * something to retry.
 */
export const sharedProductQuery = (callPublic: AuthStore['callPublic'], productId: string, shareCode: string | null) =>
  queryOptions({
    queryKey: ['sharedProduct', productId, shareCode],
    queryFn: () => callPublic('getSharedProduct', { id: productId, ...(shareCode ? { ref: shareCode } : {}) }),
    retry: (count, error) =>
      !(error instanceof ApiError && error.status !== undefined && error.status < 500) && count < 2,
  });
