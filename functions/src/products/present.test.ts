import { describe, expect, it } from 'vitest';
import { hostedPicturePath, type HostedPicture } from '@portal/shared/domain/pictures';
import { changesBetween, toCard, toDetail } from './present';
import type { ProductContent } from './product-store';

const picture = (letter: string): HostedPicture => ({
  hash: letter.repeat(64),
  width: 800,
  height: 600,
  widths: [320, 640],
});

const content = (overrides: Partial<ProductContent> = {}): ProductContent => ({
  spu_no: 'S-1',
  product_name: 'Lamp',
  brand: 'Lumo',
  msrp_us_cents: 5900,
  dropshipping_price_us_cents: 3200,
  product_images: ['https://cdn.example.test/a.jpg', 'https://cdn.example.test/dead.jpg'],
  additional_product_images: ['https://cdn.example.test/b.jpg'],
  html_description: '',
  url: '',
  content_hash: 'h',
  ...overrides,
});

describe('hosted pictures in the answers (issue 28)', () => {
  it('a product imported before hosting shows the supplier addresses, with no variants', () => {
    const detail = toDetail('p', content());
    expect(detail.images).toEqual([
      'https://cdn.example.test/a.jpg',
      'https://cdn.example.test/dead.jpg',
      'https://cdn.example.test/b.jpg',
    ]);
    expect(detail.pictures).toBeUndefined();
    expect(toCard('p', content()).picture).toBeUndefined();
  });

  it('a hosted product shows our copies only, in slide order, leaving out what could not be hosted', () => {
    const hosted = content({
      hosted_images: { 'https://cdn.example.test/a.jpg': picture('a'), 'https://cdn.example.test/b.jpg': picture('b') },
    });
    const detail = toDetail('p', hosted);
    expect(detail.images).toEqual([hostedPicturePath('a'.repeat(64), 640), hostedPicturePath('b'.repeat(64), 640)]);
    expect(detail.pictures?.map((one) => [one.src, one.width, one.height])).toEqual([
      [hostedPicturePath('a'.repeat(64), 640), 640, 480],
      [hostedPicturePath('b'.repeat(64), 640), 640, 480],
    ]);
    expect(toCard('p', hosted)).toMatchObject({ image: detail.images[0], picture: detail.pictures?.[0] });
    expect(
      toCard('p', content({ product_images: [], additional_product_images: [], hosted_images: {} })),
    ).toMatchObject({
      image: null,
      picture: null,
    });
  });

  it("the review's image changes name our copies, so the admin's browser never asks a supplier either", () => {
    const before = content({ hosted_images: { 'https://cdn.example.test/a.jpg': picture('a') } });
    const after = content({
      product_images: ['https://cdn.example.test/a.jpg', 'https://cdn.example.test/c.jpg'],
      additional_product_images: [],
      hosted_images: { 'https://cdn.example.test/a.jpg': picture('a'), 'https://cdn.example.test/c.jpg': picture('c') },
    });
    expect(changesBetween(before, after)).toEqual([
      {
        field: 'images',
        before: [hostedPicturePath('a'.repeat(64), 640)],
        after: [hostedPicturePath('a'.repeat(64), 640), hostedPicturePath('c'.repeat(64), 640)],
        added: [hostedPicturePath('c'.repeat(64), 640)],
        removed: [],
      },
    ]);
  });
});
