import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { productDetail } from '@portal/shared/ui/catalogueTesting';
import { authAnswer, fakeApi, renderWithAuth, type FakeApi } from '@portal/shared/ui/testing';
import { MemberApp } from '../MemberApp';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderDetail(api: FakeApi, path = '/member_product_detail?id=p-1') {
  renderWithAuth(<MemberApp />, api, { path });
}

const member = (handlers: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({
    checkAuth: () => ({ body: authAnswer() }),
    getApprovedProduct: () => ({
      body: productDetail({
        id: 'p-1',
        images: ['https://img.example.test/1.jpg', 'https://img.example.test/2.jpg', 'https://img.example.test/3.jpg'],
        html_description: '<p>Knit from <strong>merino</strong>.</p><script>alert(1)</script>',
      }),
    }),
    ...handlers,
  });

describe('member product detail', () => {
  it('shows the product of the id in the address: carousel, name, brand, prices and the description as markup', async () => {
    const api = member();
    renderDetail(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
    expect(api.callsTo('getApprovedProduct')[0]?.body).toEqual({ id: 'p-1' });
    expect(screen.getByTestId('product-brand').textContent).toBe('Trailhead');
    expect(screen.getByText('MSRP: $24.99')).toBeTruthy();
    expect(screen.getByText('Sell Price: $12.95')).toBeTruthy();
    expect(screen.getByText('You Make: $1.30')).toBeTruthy();
    expect(screen.getByText('merino').tagName).toBe('STRONG');
    expect(document.querySelector('.rich-text script')).toBeNull();
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    expect(document.title).toMatch(/^Merino Wool Crew Socks \(3 Pack\)/);
  });

  it('Share copies the page address and says "Link copied"', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderDetail(member());
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(window.location.href);
  });

  it('when the clipboard is refused, shows the address to copy by hand', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
      configurable: true,
    });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    renderDetail(member());
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    expect(((await screen.findByLabelText('Copy this link:')) as HTMLInputElement).value).toBe(window.location.href);
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('a product that is not in the catalogue is said in words', async () => {
    renderDetail(
      member({
        getApprovedProduct: () => ({ status: 404, body: { message: 'This product is not in the catalogue.' } }),
      }),
    );
    expect(await screen.findByText('This product is not in the catalogue.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'This product is not available.' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it('without an id it says to pick a product', async () => {
    const api = member();
    renderDetail(api, '/member_product_detail');
    expect(await screen.findByText(/No product was chosen/)).toBeTruthy();
    expect(api.callsTo('getApprovedProduct')).toHaveLength(0);
  });
});
