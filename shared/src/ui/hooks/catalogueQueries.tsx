import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../api/client';
import type { ResponseOf } from '../../api/contract';
import type { ImportedProduct } from '../../api/products';
import {
  approvedProductPreview,
  approvedProductQuery,
  approvedProductsQuery,
  importedProductPreview,
  importedProductQuery,
  importIssuesQuery,
  refreshFromFirstPage,
  reviewListQuery,
} from '../../query/catalogue';
import { queryKeys } from '../../query/keys';
import { useAuth } from './AuthProvider';

/**
 * The catalogue's queries as hooks for the screens. A detail opened from a list starts with what
 * the list's card already knows (`placeholderData`), so its name, brand, prices and first image
 * show at once while the description and the other images load.
 */

export function useApprovedProducts() {
  const { call } = useAuth();
  return useInfiniteQuery(approvedProductsQuery(call));
}

export function useApprovedProduct(id: string) {
  const { call } = useAuth();
  const client = useQueryClient();
  return useQuery({
    ...approvedProductQuery(call, id),
    enabled: id !== '',
    placeholderData: () => approvedProductPreview(client, id),
  });
}

/** Starts loading a member's product detail (on a card's hover or focus); cached answers are reused. */
export function usePrefetchApprovedProduct(): (id: string) => void {
  const { call } = useAuth();
  const client = useQueryClient();
  return useCallback((id: string) => void client.prefetchQuery(approvedProductQuery(call, id)), [call, client]);
}

export function useReviewList() {
  const { call } = useAuth();
  return useInfiniteQuery(reviewListQuery(call));
}

/** Loads the review list again from its first page (after an import, or Retry). */
export function useRefreshReviewList(): () => void {
  const client = useQueryClient();
  return useCallback(() => void refreshFromFirstPage(client, queryKeys.importedProducts.reviewLists()), [client]);
}

export function useImportedProduct(id: string) {
  const { call } = useAuth();
  const client = useQueryClient();
  return useQuery({
    ...importedProductQuery(call, id),
    enabled: id !== '',
    placeholderData: () => importedProductPreview(client, id),
  });
}

export function usePrefetchImportedProduct(): (id: string) => void {
  const { call } = useAuth();
  const client = useQueryClient();
  return useCallback((id: string) => void client.prefetchQuery(importedProductQuery(call, id)), [call, client]);
}

export function useImportIssues(jobId: string) {
  const { call } = useAuth();
  return useInfiniteQuery(importIssuesQuery(call, jobId));
}

export type ModerationAction = 'approve' | 'ban';

/** After a decision: the product leaves the review list at once, which then reloads from its first page. */
export function afterModeration(client: QueryClient, id: string, result?: ResponseOf<'approveProduct'>): void {
  void refreshFromFirstPage<{ id: string }>(client, queryKeys.importedProducts.reviewLists(), (item) => item.id !== id);
  if (result) {
    client.setQueryData<ImportedProduct>(queryKeys.importedProducts.detail(id), (product) =>
      product ? { ...product, status: result.status } : product,
    );
    // What members see has changed too.
    void client.invalidateQueries({ queryKey: queryKeys.approvedProducts.all });
  }
}

/**
 * What a decision names: the product, and for Approve the version the admin reviewed
 * (ImportedProduct.version). Ban needs no version: banning publishes nothing.
 */
export type ModerationRequest = { action: 'approve'; id: string; version: string } | { action: 'ban'; id: string };

/** Approve or ban a product waiting for review. */
export function useModerateProduct() {
  const { call } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ModerationRequest) =>
      request.action === 'approve'
        ? call('approveProduct', { id: request.id, version: request.version })
        : call('banProduct', { id: request.id }),
    onSuccess: (result, { id }) => afterModeration(client, id, result),
    onError: (error, { id }) => {
      // A 409: someone else decided first (the product has left the review queue), or an import
      // changed it since it was opened. Either way the screen shows the product as it is now.
      if (error instanceof ApiError && error.status === 409) {
        afterModeration(client, id);
        void client.invalidateQueries({ queryKey: queryKeys.importedProducts.detail(id) });
      }
    },
  });
}
