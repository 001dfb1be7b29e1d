import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PICTURE_SIZES, pictureSource } from '../../domain/pictures';
import { ProductImage } from './ProductImage';
import { sanitizeDescription } from './sanitize-description';

afterEach(cleanup);

const hash = 'b'.repeat(64);
const picture = pictureSource({ hash, width: 1200, height: 800, widths: [320, 640, 1024] });

describe('ProductImage with a hosted picture (issue 28)', () => {
  it('gives the <img> srcset, sizes and the intrinsic size of src', () => {
    render(<ProductImage src={picture.src} alt="Lamp" picture={picture} sizes={PICTURE_SIZES.card} />);
    const image = screen.getByRole('img', { name: 'Lamp' });
    expect(image.getAttribute('src')).toBe(`/images/${hash}/640.webp`);
    expect(image.getAttribute('srcset')).toBe(
      `/images/${hash}/320.webp 320w, /images/${hash}/640.webp 640w, /images/${hash}/1024.webp 1024w`,
    );
    expect(image.getAttribute('sizes')).toBe(PICTURE_SIZES.card);
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['640', '427']);
  });

  it('a supplier address (a product imported before hosting) stays a plain <img>', () => {
    render(<ProductImage src="https://cdn.example.test/a.jpg" alt="Lamp" picture={null} sizes={PICTURE_SIZES.card} />);
    const image = screen.getByRole('img', { name: 'Lamp' });
    expect(image.getAttribute('src')).toBe('https://cdn.example.test/a.jpg');
    expect(image.hasAttribute('srcset')).toBe(false);
    expect(image.hasAttribute('width')).toBe(false);
  });
});

describe('descriptions with hosted pictures', () => {
  it('keep an <img> of our copy and drop other relative sources', () => {
    const html = sanitizeDescription(
      `<p><img src="/images/${hash}/640.webp" alt="ours"><img src="/api/logout" alt="no"><img src="/images/../x.webp" alt="no"></p>`,
    );
    expect(html).toBe(`<p><img src="/images/${hash}/640.webp" alt="ours"></p>`);
  });
});
