import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importedProduct } from '@portal/shared/test/catalogueTesting';
import {
  authAnswer,
  deferred,
  type FakeApi,
  fakeApi,
  type FakeReply,
  showMainPicture,
} from '@portal/shared/test/testing';
import { renderAdminAt } from './testing';
import { preloadLazyScreens } from './routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

afterEach(cleanup);

function renderDetail(api: FakeApi, path = '/admin/product_import_detail?id=p-1') {
  renderAdminAt(api, path);
}

function adminApi(handlers: Parameters<typeof fakeApi>[0] = {}): FakeApi {
  return fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true, email: 'admin@example.com' }) }),
    getImportedProduct: () => ({
      body: importedProduct({
        id: 'p-1',
        html_description:
          '<h2>Warm</h2><p>Knit.</p><img src=x onerror="alert(1)"><a href="https://s.example/c">Care</a>',
      }),
    }),
    getUnApprovedProducts: () => ({ body: { items: [], nextCursor: null } }),
    ...handlers,
  });
}

const NOT_IN_REVIEW = 'This product is no longer waiting for review: someone already approved or banned it.';

describe('Product Import detail', () => {
  it('shows the product from the id in the address, with the supplier facts and a sanitized description', async () => {
    const api = adminApi();
    renderDetail(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' })).toBeTruthy();
    expect(api.callsTo('getImportedProduct')[0]?.body).toEqual({ id: 'p-1' });
    expect(screen.getByTestId('product-brand').textContent).toBe('Trailhead');
    expect(screen.getByText('MSRP: $24.99')).toBeTruthy();
    expect(screen.getByText('Sell Price: $12.95')).toBeTruthy();
    expect(screen.queryByText(/You Make/)).toBeNull();
    expect(screen.getByTestId('spu-no').textContent).toBe('SPU-10001');
    const supplier = screen.getByRole('link', { name: /Open on the supplier’s site/ });
    expect(supplier.getAttribute('href')).toBe('https://supplier.example.test/product/SPU-10001');
    expect(supplier.getAttribute('target')).toBe('_blank');
    expect(supplier.getAttribute('rel')).toBe('noopener noreferrer');
    // The sanitizer loads once the first picture is shown (MainPicture.tsx): the markup follows.
    await showMainPicture();
    expect(await screen.findByRole('heading', { level: 2, name: 'Warm' })).toBeTruthy();
    const description = document.querySelector('.rich-text')!;
    expect(description.innerHTML).not.toMatch(/onerror|alert/);
    expect(
      within(description as HTMLElement)
        .getByRole('link', { name: 'Care' })
        .getAttribute('rel'),
    ).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/admin/product_import');
    expect(screen.getByRole('button', { name: 'Next image' })).toBeTruthy();
  });

  it('Approve that answers 409 says why, in words, and stays on the product', async () => {
    const user = userEvent.setup();
    const api = adminApi({ approveProduct: () => ({ status: 409, body: { message: NOT_IN_REVIEW } }) });
    renderDetail(api);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The decision was not saved/);
    expect(alert.textContent).toContain(NOT_IN_REVIEW);
    expect(api.callsTo('approveProduct')[0]?.body).toEqual({ id: 'p-1', version: 'v1' });
    expect(screen.getByTestId('where').textContent).toBe('/product_import_detail?id=p-1');
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Approve goes back to the review list, which loads afresh and says what happened', async () => {
    const user = userEvent.setup();
    const api = adminApi({ approveProduct: () => ({ body: { id: 'p-1', status: 'approved' } }) });
    renderDetail(api);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Product Import' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/product_import');
    expect(screen.getByText('Approved “Merino Wool Crew Socks (3 Pack)”. Members can now see it.')).toBeTruthy();
    // The list's request goes out from its effect, which may run after the heading is found.
    await waitFor(() => expect(api.callsTo('getUnApprovedProducts')).toHaveLength(1));
  });

  it('Approve of a product an import changed since it was opened: the new values show with the reason, and the next Approve names them', async () => {
    const user = userEvent.setup();
    const CHANGED = 'This product changed since you opened it: review the new values, then approve again.';
    let version = 'v1';
    const api = adminApi({
      getImportedProduct: () => ({
        body: importedProduct(
          version === 'v1'
            ? { id: 'p-1', product_name: 'Socks', version: 'v1' }
            : { id: 'p-1', product_name: 'Socks Deluxe', dropshipping_price_us: '15.00', version: 'v2' },
        ),
      }),
      approveProduct: ({ body }) =>
        (body as { version: string }).version === version
          ? { body: { id: 'p-1', status: 'approved' } }
          : { status: 409, body: { message: CHANGED } },
    });
    renderDetail(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Socks' })).toBeTruthy();
    // An import changes the product while the admin looks at it.
    version = 'v2';
    await user.click(screen.getByRole('button', { name: 'Approve' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CHANGED);
    expect(api.callsTo('approveProduct')[0]?.body).toEqual({ id: 'p-1', version: 'v1' });
    // The product is loaded again: the new values are on screen, still for review.
    expect(await screen.findByRole('heading', { level: 1, name: 'Socks Deluxe' })).toBeTruthy();
    expect(screen.getByText('Sell Price: $15.00')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(CHANGED);
    expect(screen.getByTestId('where').textContent).toBe('/product_import_detail?id=p-1');

    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved “Socks Deluxe”. Members can now see it.')).toBeTruthy();
    expect(api.callsTo('approveProduct')[1]?.body).toEqual({ id: 'p-1', version: 'v2' });
  });

  it('Ban asks first: Cancel keeps the product, confirming bans it and goes back', async () => {
    const user = userEvent.setup();
    const api = adminApi({ banProduct: () => ({ body: { id: 'p-1', status: 'banned' } }) });
    renderDetail(api);
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    const question = screen.getByRole('group', { name: 'Ban this product?' });
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Cancel' }));
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Ban this product?' })).toBeNull();
    expect(api.callsTo('banProduct')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Ban' }));
    await user.click(screen.getByRole('button', { name: 'Yes, ban it' }));
    expect(await screen.findByText(/^Banned “Merino Wool Crew Socks \(3 Pack\)”/)).toBeTruthy();
    expect(api.callsTo('banProduct')[0]?.body).toEqual({ id: 'p-1' });
    expect(screen.getByTestId('where').textContent).toBe('/product_import');
  });

  it('a product already decided offers no decision', async () => {
    renderDetail(adminApi({ getImportedProduct: () => ({ body: importedProduct({ status: 'banned' }) }) }));
    expect(await screen.findByText(/This product is banned/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByTestId('product-status').textContent).toBe('Banned');
  });

  it('an unknown id is said in words', async () => {
    renderDetail(
      adminApi({ getImportedProduct: () => ({ status: 404, body: { message: 'There is no product with that id.' } }) }),
      '/admin/product_import_detail?id=nope',
    );
    expect(await screen.findByText('There is no product with that id.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Imported product' })).toBeTruthy();
  });
});

describe('Product Import detail: an update to an approved product', () => {
  it('shows what changed: old and new prices and name, added and removed images, both descriptions sanitized', async () => {
    const api = adminApi({
      getImportedProduct: () => ({
        body: importedProduct({
          id: 'p-1',
          hasApprovedVersion: true,
          changes: [
            { field: 'product_name', before: 'Socks', after: 'Merino Wool Crew Socks (3 Pack)' },
            { field: 'msrp_us', before: '19.99', after: '24.99' },
            { field: 'dropshipping_price_us', before: '9.95', after: '12.95' },
            {
              field: 'images',
              before: ['https://img.example.test/a.jpg', 'https://img.example.test/b.jpg'],
              after: ['https://img.example.test/a.jpg', 'https://img.example.test/c.jpg'],
              added: ['https://img.example.test/c.jpg'],
              removed: ['https://img.example.test/b.jpg'],
            },
            {
              field: 'html_description',
              before: '<p>Old <img src=x onerror="alert(1)"></p>',
              after: '<p>New <strong>warmer</strong></p>',
            },
          ],
        }),
      }),
    });
    renderDetail(api);
    const block = await screen.findByRole('region', { name: 'What changed' });
    const text = (field: string) => within(block).getByTestId(`change-${field}`).textContent;
    expect(text('product_name')).toBe('NameApproved: Socks→Imported: Merino Wool Crew Socks (3 Pack)');
    expect(text('msrp_us')).toBe('MSRPApproved: $19.99→Imported: $24.99');
    expect(text('dropshipping_price_us')).toBe('Sell priceApproved: $9.95→Imported: $12.95');
    expect(text('images')).toMatch(/^Images1 added, 1 removed \(2 before, 2 now\)\./);
    const added = within(block).getByRole('list', { name: 'Added images' });
    expect(within(added).getByRole('img').getAttribute('src')).toBe('https://img.example.test/c.jpg');
    const removed = within(block).getByRole('list', { name: 'Removed images' });
    expect(within(removed).getByRole('img').getAttribute('src')).toBe('https://img.example.test/b.jpg');
    const description = within(block).getByTestId('change-html_description');
    expect(description.textContent).toBe('DescriptionApprovedOld ImportedNew warmer');
    expect(description.innerHTML).not.toMatch(/onerror|alert/);
    expect(within(description).getByText('warmer').tagName).toBe('STRONG');
    expect(within(block).queryByTestId('change-brand')).toBeNull();
  });

  it('shows no block for a new product', async () => {
    renderDetail(adminApi());
    await screen.findByRole('heading', { level: 1, name: 'Merino Wool Crew Socks (3 Pack)' });
    expect(screen.queryByTestId('what-changed')).toBeNull();
  });
});

describe('Product Import detail opened from the review list', () => {
  const page = (...items: ReturnType<typeof importedProduct>[]) => ({
    body: { items: items.map(({ html_description: _h, images: _i, url: _u, ...card }) => card), nextCursor: null },
  });
  const socks = importedProduct({ id: 'p-1', product_name: 'Socks' });
  const bottle = importedProduct({ id: 'p-2', product_name: 'Bottle' });
  const lamp = importedProduct({ id: 'p-3', product_name: 'Lamp' });

  it('shows the card’s facts at once; the description, supplier page and decision wait for the product', async () => {
    const user = userEvent.setup();
    const answer = deferred<FakeReply>();
    const api = adminApi({ getUnApprovedProducts: () => page(socks), getImportedProduct: () => answer.promise });
    renderDetail(api, '/admin/product_import');
    await user.click(await screen.findByText('Socks'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Socks' })).toBeTruthy();
    expect(screen.getByText('Sell Price: $12.95')).toBeTruthy();
    expect(screen.getByTestId('spu-no').textContent).toBe('SPU-10001');
    expect(screen.getByTestId('product-status').textContent).toBe('Waiting for review');
    expect(screen.getAllByTestId('pending-text').map((element) => element.textContent)).toEqual([
      'Loading the supplier’s page…',
      'Loading the images…',
      'Loading the description…',
    ]);
    // No decision on a product whose description has not been seen.
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Ban' }) as HTMLButtonElement).disabled).toBe(true);

    answer.resolve({ body: importedProduct({ id: 'p-1', product_name: 'Socks' }) });
    expect(await screen.findByText('merino')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open on the supplier’s site/ })).toBeTruthy();
    expect(screen.queryByTestId('pending-text')).toBeNull();
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    ['Approve', 'approveProduct', 'approved', /^Approved “Socks”/],
    ['Ban', 'banProduct', 'banned', /^Banned “Socks”/],
  ] as const)(
    '%s takes the product off the review list at once, and the list reloads',
    async (button, call, status, notice) => {
      const user = userEvent.setup();
      const reloaded = deferred<FakeReply>();
      let listCalls = 0;
      const api = adminApi({
        getUnApprovedProducts: () => {
          listCalls += 1;
          return listCalls === 1 ? page(socks, bottle) : reloaded.promise;
        },
        getImportedProduct: () => ({ body: socks }),
        [call]: () => ({ body: { id: 'p-1', status } }),
      });
      renderDetail(api, '/admin/product_import');
      await user.click(await screen.findByText('Socks'));
      await screen.findByText('merino');
      await user.click(screen.getByRole('button', { name: button }));
      if (button === 'Ban') await user.click(screen.getByRole('button', { name: 'Yes, ban it' }));

      expect(await screen.findByText(notice)).toBeTruthy();
      expect(screen.getByTestId('where').textContent).toBe('/product_import');
      expect(api.callsTo(call)[0]?.body).toEqual(
        call === 'approveProduct' ? { id: 'p-1', version: 'v1' } : { id: 'p-1' },
      );
      // Before the new list arrives: the decided product is gone, the others stay.
      expect(screen.getByText('Bottle')).toBeTruthy();
      expect(screen.queryByText('Socks')).toBeNull();
      await waitFor(() => expect(api.callsTo('getUnApprovedProducts')).toHaveLength(2));
      expect(api.callsTo('getUnApprovedProducts')[1]?.body).toEqual({ limit: 24 });
      // The server's list is what then shows.
      reloaded.resolve(page(bottle, lamp));
      expect(await screen.findByText('Lamp')).toBeTruthy();
      expect(screen.queryByText('Socks')).toBeNull();
    },
  );
});
