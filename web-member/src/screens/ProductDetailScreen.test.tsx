import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, MAX_RETRIES } from '@portal/shared/query/client';
import { productCard, productDetail } from '@portal/shared/test/catalogueTesting';
import {
  authAnswer,
  deferred,
  type FakeApi,
  fakeApi,
  type FakeReply,
  renderWithAuth,
  showMainPicture,
} from '@portal/shared/test/testing';
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
    // The sanitizer loads once the first picture is shown (MainPicture.tsx): the markup follows.
    await showMainPicture();
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
    expect(document.querySelector('.rich-text script')).toBeNull();
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    expect(document.title).toMatch(/^Merino Wool Crew Socks \(3 Pack\)/);
  });

  const personal = () => `${window.location.origin}/shop/p-1?ref=ANNLEE42`;

  it('Share copies the member’s personal link (shop page + share code) and says "Link copied" without the Web Share API', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
    renderDetail(member());
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(personal());
    expect((screen.getByLabelText('Your link') as HTMLInputElement).value).toBe(personal());
    expect((screen.getByLabelText('Your link') as HTMLInputElement).readOnly).toBe(true);
  });

  it('Share opens the device’s share sheet with the personal link where the Web Share API exists', async () => {
    const user = userEvent.setup();
    const share = vi.fn(async () => undefined);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderDetail(member());
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: personal() }));
    expect(writeText).not.toHaveBeenCalled();
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });

  it('the Copy button beside the link copies it; a refused clipboard says to copy from the field', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
      configurable: true,
    });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    renderDetail(member());
    await user.click(await screen.findByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copy the link from the field below.')).toBeTruthy();
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('without a share code it says the link is not ready, and offers no link', async () => {
    renderDetail(member({ checkAuth: () => ({ body: authAnswer({ shareCode: null }) }) }));
    expect(await screen.findByText(/you have no share code/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    expect(screen.queryByLabelText('Your link')).toBeNull();
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

describe('member product detail opened from the list', () => {
  const card = productCard({ id: 'p-1', image: 'https://img.example.test/1.jpg' });
  const listed = (handlers: Parameters<typeof fakeApi>[0] = {}) =>
    member({ getApprovedProducts: () => ({ body: { items: [card], nextCursor: null } }), ...handlers });

  it('shows what the card knew at once, and the description and other images when they arrive', async () => {
    const user = userEvent.setup();
    const answer = deferred<FakeReply>();
    const api = listed({ getApprovedProduct: () => answer.promise });
    renderDetail(api, '/');
    await user.click(await screen.findByRole('heading', { name: 'Merino Wool Crew Socks (3 Pack)' }));

    // Before the product's own answer: the list's name, brand, prices and first image.
    expect(await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
    expect(api.callsTo('getApprovedProduct')[0]?.body).toEqual({ id: 'p-1' });
    expect(screen.getByTestId('product-brand').textContent).toBe('Trailhead');
    expect(screen.getByText('Sell Price: $12.95')).toBeTruthy();
    expect(screen.getByText('You Make: $1.30')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Merino Wool Crew Socks (3 Pack)' }).getAttribute('src')).toBe(
      'https://img.example.test/1.jpg',
    );
    // The parts still coming say so, and nothing claims the supplier gave no description.
    const pending = screen.getByTestId('pending-text');
    expect(pending.getAttribute('role')).toBe('status');
    expect(pending.textContent).toBe('Loading the description…');
    expect(screen.getByRole('group', { name: 'Images' }).getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('The supplier gave no description.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next image' })).toBeNull();

    answer.resolve({
      body: productDetail({ id: 'p-1', images: ['https://img.example.test/1.jpg', 'https://img.example.test/2.jpg'] }),
    });
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
    expect(screen.queryByTestId('pending-text')).toBeNull();
    expect(screen.getByRole('button', { name: 'Next image' })).toBeTruthy();
  });

  it('starts loading the product when the pointer rests on its card', async () => {
    const user = userEvent.setup();
    const api = listed();
    renderDetail(api, '/');
    const socks = (await screen.findByRole('heading', { name: 'Merino Wool Crew Socks (3 Pack)' })).closest('a')!;
    expect(api.callsTo('getApprovedProduct')).toHaveLength(0);
    await user.hover(socks);
    await waitFor(() => expect(api.callsTo('getApprovedProduct')).toHaveLength(1));
    // Opening it then uses the loaded product: no second request, the description at once.
    await user.click(socks);
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
    expect(screen.queryByTestId('pending-text')).toBeNull();
    expect(api.callsTo('getApprovedProduct')).toHaveLength(1);
  });
});

describe('member product detail: failures', () => {
  /** The app's own retry policy, without the waits between attempts. */
  const retryingClient = () => createQueryClient({ queries: { retryDelay: 0 } });

  it('a server error (5xx) is tried again, and the product shows', async () => {
    let calls = 0;
    const api = member({
      getApprovedProduct: () => {
        calls += 1;
        return calls === 1
          ? { status: 503, body: { message: 'The service is busy.' } }
          : { body: productDetail({ id: 'p-1' }) };
      },
    });
    renderWithAuth(<MemberApp />, api, { path: '/member_product_detail?id=p-1', queryClient: retryingClient() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
    expect(api.callsTo('getApprovedProduct')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a lasting server error is said in words after the retries, and Retry asks again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const api = member({
      getApprovedProduct: () =>
        fail ? { status: 500, body: { message: 'The server had a problem.' } } : { body: productDetail({ id: 'p-1' }) },
    });
    renderWithAuth(<MemberApp />, api, { path: '/member_product_detail?id=p-1', queryClient: retryingClient() });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The product could not be loaded.*The server had a problem/);
    expect(api.callsTo('getApprovedProduct')).toHaveLength(1 + MAX_RETRIES);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
  });

  it('a 404 is an answer: asked once, not again', async () => {
    const api = member({
      getApprovedProduct: () => ({ status: 404, body: { message: 'This product is not in the catalogue.' } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/member_product_detail?id=p-1', queryClient: retryingClient() });
    expect(await screen.findByText('This product is not in the catalogue.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('getApprovedProduct')).toHaveLength(1);
  });
});
