import type { ImportedProduct, ImportJob, ProductCard, ProductDetail } from '../src/api/products';

/** Factories for the catalogue's API answers in UI tests. */

export function productCard(overrides: Partial<ProductCard> = {}): ProductCard {
  return {
    id: 'p-1',
    product_name: 'Merino Wool Crew Socks (3 Pack)',
    brand: 'Trailhead',
    msrp_us: '24.99',
    dropshipping_price_us: '12.95',
    you_make: '1.30',
    image: 'https://img.example.test/socks/1.jpg',
    ...overrides,
  };
}

export function productDetail(overrides: Partial<ProductDetail> = {}): ProductDetail {
  return {
    ...productCard(),
    images: ['https://img.example.test/socks/1.jpg', 'https://img.example.test/socks/2.jpg'],
    html_description: '<p>Knit from <strong>merino</strong>.</p>',
    ...overrides,
  };
}

export function importedProduct(overrides: Partial<ImportedProduct> = {}): ImportedProduct {
  return {
    ...productDetail(),
    spu_no: 'SPU-10001',
    url: 'https://supplier.example.test/product/SPU-10001',
    status: 'review',
    hasApprovedVersion: false,
    updatedAt: '2026-01-02T03:04:05.000Z',
    version: 'v1',
    changes: null,
    ...overrides,
  };
}

export function importJob(overrides: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 'job-1',
    fileName: 'catalogue.csv',
    status: 'queued',
    phase: null,
    rowsDone: 0,
    createdAt: '2026-01-02T03:04:05.000Z',
    finishedAt: null,
    rowsRead: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    banned: 0,
    warnings: 0,
    failure: null,
    ...overrides,
  };
}
