import { describe, expect, it } from 'vitest';
import { contentHashOf, productIdFromSpuNo, type CsvProductContent } from './csv-product';
import { sha256Hex } from './sha256';

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('stored ids and content hashes', () => {
  // Values computed by the hand-written SHA-256 that this module replaced: products already in a
  // table keep their ids, and an unchanged row still hashes equal (nothing goes back to review).
  const content: CsvProductContent = {
    spu_no: 'SPU-10001',
    product_name: 'Merino Wool Crew Socks',
    brand: 'Trailhead',
    msrp_us_cents: 2495,
    dropshipping_price_us_cents: 1295,
    product_images: ['https://cdn.example.com/a.jpg'],
    additional_product_images: ['https://cdn.example.com/b.jpg'],
    html_description: '<p>Warm — “café” 🧦</p>',
    url: 'https://supplier.example.com/p/1',
  };

  it('are unchanged', () => {
    expect(productIdFromSpuNo('SPU-10001')).toBe('2b85f7ee9e647c25c5ebec49deb75c73');
    expect(contentHashOf(content)).toBe('26e1eae9e99014118f9fc04882a11a7f8a8a5af5d5fafb73732376ed369689fd');
  });
});
