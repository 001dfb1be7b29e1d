import { describe, expect, it } from 'vitest';
import type { ImportedProductCard, ProductCard } from '../api/products';
import {
  approvedProductPreview,
  importedProductPreview,
  refreshFromFirstPage,
  type CursorPagesData,
} from './catalogue';
import { createQueryClient } from './client';
import { queryKeys } from './keys';

const card = (id: string, overrides: Partial<ProductCard> = {}): ProductCard => ({
  id,
  product_name: `Product ${id}`,
  brand: 'Trailhead',
  msrp_us: '24.99',
  dropshipping_price_us: '12.95',
  you_make: '1.30',
  image: `https://img.example.test/${id}.jpg`,
  ...overrides,
});

const pages = <T>(...lists: T[][]): CursorPagesData<T> => ({
  pages: lists.map((items, index) => ({ items, nextCursor: index < lists.length - 1 ? `c${index + 1}` : 'more' })),
  pageParams: lists.map((_, index) => (index === 0 ? undefined : `c${index}`)),
});

describe('detail previews from the list cache', () => {
  it('finds a card on any loaded page and makes it a detail with one image and no description yet', () => {
    const client = createQueryClient();
    client.setQueryData(queryKeys.approvedProducts.list(24), pages([card('a')], [card('b')]));
    expect(approvedProductPreview(client, 'b')).toEqual({
      ...card('b'),
      images: ['https://img.example.test/b.jpg'],
      html_description: '',
    });
    expect(approvedProductPreview(client, 'zzz')).toBeUndefined();
    expect(approvedProductPreview(createQueryClient(), 'a')).toBeUndefined();
  });

  it('a card without an image gives no images; an imported card keeps its review facts', () => {
    const client = createQueryClient();
    const reviewCard: ImportedProductCard = {
      ...card('r', { image: null }),
      spu_no: 'SPU-1',
      status: 'review',
      hasApprovedVersion: true,
      updatedAt: '2026-01-02T03:04:05.000Z',
    };
    client.setQueryData(queryKeys.importedProducts.reviewList(24), pages([reviewCard]));
    expect(importedProductPreview(client, 'r')).toEqual({
      ...reviewCard,
      images: [],
      html_description: '',
      url: '',
      // Unknown until the product arrives; Approve waits for it.
      version: '',
      changes: null,
    });
    // The member catalogue is another list: not looked in.
    expect(approvedProductPreview(client, 'r')).toBeUndefined();
  });
});

describe('refreshFromFirstPage', () => {
  it('keeps only the first page without the refused items, and marks the list stale', async () => {
    const client = createQueryClient();
    const key = queryKeys.importedProducts.reviewList(24);
    client.setQueryData(key, pages([card('a'), card('b')], [card('c')]));
    await refreshFromFirstPage<ProductCard>(
      client,
      queryKeys.importedProducts.reviewLists(),
      (item) => item.id !== 'a',
    );
    const data = client.getQueryData<CursorPagesData<ProductCard>>(key);
    expect(data?.pages.map((page) => page.items.map((item) => item.id))).toEqual([['b']]);
    expect(data?.pageParams).toEqual([undefined]);
    expect(data?.pages[0]?.nextCursor).toBe('c1');
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
