import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { productCard } from '../../../test/catalogueTesting';
import { ProductCard } from './ProductCard';
import { ProductImage } from './ProductImage';

afterEach(cleanup);

function renderCard(props: Partial<Parameters<typeof ProductCard>[0]> = {}) {
  return render(
    <MemoryRouter>
      <ul>
        <ProductCard product={productCard()} to="/member_product_detail?id=p-1" {...props} />
      </ul>
    </MemoryRouter>,
  );
}

describe('ProductCard', () => {
  it('shows the first image, name, brand and the three money lines, with You Make in green', () => {
    renderCard({ showYouMake: true });
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('/member_product_detail?id=p-1');
    const card = within(link);
    expect(card.getByRole('heading', { name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
    expect(card.getByText('Trailhead')).toBeTruthy();
    expect(card.getByText('MSRP: $24.99')).toBeTruthy();
    expect(card.getByText('Sell Price: $12.95')).toBeTruthy();
    const youMake = card.getByText('You Make: $1.30');
    expect(youMake.className).toContain('price-line--you-make');
    const image = link.querySelector('img');
    expect(image?.getAttribute('src')).toBe('https://img.example.test/socks/1.jpg');
    // The name beside it says what the image is: the image itself is decorative.
    expect(image?.getAttribute('alt')).toBe('');
  });

  it('leaves out You Make for admins and shows a badge when given one', () => {
    renderCard({ badge: <span>Update to an approved product</span> });
    expect(screen.queryByText(/You Make/)).toBeNull();
    expect(screen.getByText('Update to an approved product')).toBeTruthy();
  });

  it('shows the placeholder when the product has no image', () => {
    renderCard({ product: productCard({ image: null }) });
    expect(screen.getByTestId('image-placeholder')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});

describe('ProductImage', () => {
  it('swaps a failed image for an inline placeholder, and tries a new address again', () => {
    const { rerender } = render(<ProductImage src="https://img.example.test/broken.jpg" alt="Socks" />);
    const image = screen.getByRole('img', { name: 'Socks' });
    fireEvent.error(image);
    const placeholder = screen.getByTestId('image-placeholder');
    expect(placeholder.tagName.toLowerCase()).toBe('svg');
    expect(placeholder.getAttribute('aria-label')).toBe('Socks: image unavailable');
    // Drawn inline: no network image inside.
    expect(placeholder.querySelector('image, img')).toBeNull();

    rerender(<ProductImage src="https://img.example.test/other.jpg" alt="Socks" />);
    expect(screen.getByRole('img', { name: 'Socks' }).getAttribute('src')).toBe('https://img.example.test/other.jpg');
  });

  it('shows the placeholder for no image at all, named for assistive technology', () => {
    render(<ProductImage src={null} alt="Socks" />);
    expect(screen.getByRole('img', { name: 'Socks: no image' })).toBeTruthy();
  });
});
