import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cellTexts, findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { counters, order, orderPage, salesApi } from '../sales/salesTesting';
import { renderAdminAt } from './testing';
import { preloadLazyScreens } from './routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

beforeAll(async () => {
  // The grid's chunk, loaded before the screens render (as the browser would have it by the first table).
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/orders', () => {
  it('says when there are no orders yet, and shows the counters with the three lists', async () => {
    const api = salesApi({
      getOrders: () => orderPage([], counters({ all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 })),
    });
    renderAdminAt(api, '/admin/orders');
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
    expect(await screen.findByText('No orders yet.')).toBeTruthy();
    expect(api.callsTo('getOrders')[0]?.body).toEqual({ type: 'all', limit: 100 });
  });

  it('shows the total, what needs ordering and each list with its count; the list paths are the spec’s', async () => {
    const api = salesApi({
      getOrders: () =>
        orderPage(
          [order(), order({ id: 'o-2', orderID: 'RP-22222222' })],
          counters({ all: 1234, notOrdered: 3, notShipped: 2, notFulfilled: 1 }),
        ),
    });
    renderAdminAt(api, '/admin/orders');
    await waitFor(() => expect(screen.getByTestId('orders-total').textContent).toBe('1,234'));
    expect(screen.getByTestId('orders-need-ordering').textContent).toBe('3');
    const lists = within(screen.getByRole('navigation', { name: 'Order lists' }));
    expect(lists.getByRole('link', { name: 'Not ordered yet: 3' }).getAttribute('href')).toBe(
      '/admin/orders/not_ordered_yet',
    );
    expect(lists.getByRole('link', { name: 'Not shipped yet: 2' }).getAttribute('href')).toBe(
      '/admin/orders/not_shipped_yet',
    );
    expect(lists.getByRole('link', { name: 'Not fulfilled yet: 1' }).getAttribute('href')).toBe(
      '/admin/orders/not_fufilled_yet',
    );
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    const first = cellTexts(await findGridRow('o-1'));
    expect(first).toContain('RP-7F3K9Q2M');
    expect(first).toContain('$49.98');
    expect(first.some((text) => /^November 21st, 2026 \d{1,2}:08 (AM|PM)$/.test(text))).toBe(true);
  });

  it('loads more orders on request when the server says there are more', async () => {
    const api = salesApi({
      getOrders: ({ body }) =>
        (body as { cursor?: string }).cursor === 'next'
          ? orderPage([order({ id: 'o-2', orderID: 'RP-22222222' })], counters({ all: 2 }))
          : orderPage([order()], counters({ all: 2 }), 'next'),
    });
    renderAdminAt(api, '/admin/orders');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more orders' }));
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    expect(api.callsTo('getOrders')[1]?.body).toEqual({ type: 'all', limit: 100, cursor: 'next' });
    expect(screen.queryByRole('button', { name: 'Load more orders' })).toBeNull();
  });

  it('exports the orders as a CSV file', async () => {
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob;
      return 'blob:orders';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const api = salesApi({
      exportCsv: () => ({ body: { fileName: 'orders-2026-11-21.csv', csv: 'orderID,total\nRP-1,49.98\n', rows: 1 } }),
    });
    renderAdminAt(api, '/admin/orders');
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Saved orders-2026-11-21.csv (1 row).')).toBeTruthy();
    expect(api.callsTo('exportCsv')[0]?.body).toEqual({ kind: 'orders' });
    expect(clicked).toEqual([{ href: 'blob:orders', download: 'orders-2026-11-21.csv' }]);
    const blob = createObjectURL.mock.calls[0]![0];
    // A byte-order mark first, so that spreadsheet programs read UTF-8; then the server's text as it came.
    expect([...new Uint8Array(await blob.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await blob.text()).toBe('orderID,total\nRP-1,49.98\n');
  });

  it('records a phone order; a 400 shows each problem under its field', async () => {
    let attempt = 0;
    const api = salesApi({
      getCatalogueProducts: ({ body }) => ({
        body: {
          items:
            (body as { search?: string }).search === 'trav'
              ? [
                  {
                    id: 'p-1',
                    product_name: 'Travel Mug',
                    brand: 'Acme',
                    msrp_us: '24.99',
                    dropshipping_price_us: '12.95',
                    you_make: '1.30',
                    image: null,
                    spu_no: 'TM-1',
                    status: 'approved',
                    hasApprovedVersion: true,
                    updatedAt: '2026-11-20T10:00:00.000Z',
                  },
                ]
              : [],
          nextCursor: null,
        },
      }),
      addOrder: () => {
        attempt += 1;
        if (attempt === 1)
          return {
            status: 400,
            body: {
              message: 'Check the highlighted fields.',
              fields: {
                qty: 'Choose a quantity from 1 to 10',
                ref: 'No member has this share code',
                'customer.address.postal_code': 'Enter a 5-digit ZIP code (or ZIP+4)',
              },
            },
          };
        return {
          body: {
            order: order({ orderID: 'RP-PHONE001', source: 'admin' }),
            commission: null,
          },
        };
      },
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders');
    await user.click(await screen.findByText('Record an order'));
    const form = within(screen.getByRole('form', { name: 'Record an order' }));
    // Recording without a product says how to pick one, and calls nothing.
    await user.click(form.getByRole('button', { name: 'Record the order' }));
    expect(
      await form.findByText('Pick the product: type the start of its name or its SPU, then choose it in the list.'),
    ).toBeTruthy();
    expect(api.callsTo('addOrder')).toHaveLength(0);
    const picker = form.getByRole('combobox', { name: 'Product' });
    expect(document.activeElement).toBe(picker);
    await user.type(picker, 'trav');
    const option = await form.findByRole('option', { name: /Travel Mug/ });
    expect(await screen.findByText(/1 product found/)).toBeTruthy();
    expect(api.callsTo('getCatalogueProducts').at(-1)?.body).toEqual({ list: 'approved', search: 'trav', limit: 8 });
    await user.keyboard('{ArrowDown}');
    expect(picker.getAttribute('aria-activedescendant')).toBe(option.id);
    await user.keyboard('{Enter}');
    expect((picker as HTMLInputElement).value).toBe('Travel Mug');
    expect(form.getByText('Picked: Travel Mug, SPU TM-1, sells for $12.95.')).toBeTruthy();
    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '99');
    await user.type(form.getByLabelText('Member share code'), 'NOPE');
    await user.click(form.getByLabelText('Add the customer'));
    await user.type(form.getByLabelText('Name'), 'Cara Diaz');
    await user.type(form.getByLabelText('E-mail'), 'cara@example.com');
    await user.type(form.getByLabelText('Address'), '12 Elm St');
    await user.type(form.getByLabelText('City'), 'Austin');
    await user.type(form.getByLabelText('State'), 'TX');
    await user.type(form.getByLabelText('ZIP code'), '7870');
    await user.click(form.getByRole('button', { name: 'Record the order' }));

    expect(await form.findByText('Choose a quantity from 1 to 10')).toBeTruthy();
    expect(form.getByLabelText('Quantity').getAttribute('aria-invalid')).toBe('true');
    expect(form.getByLabelText('Member share code').getAttribute('aria-describedby')).toBeTruthy();
    expect(form.getByText('No member has this share code')).toBeTruthy();
    expect(form.getByText('Enter a 5-digit ZIP code (or ZIP+4)')).toBeTruthy();
    expect(document.activeElement).toBe(form.getByLabelText('Quantity'));
    expect(api.callsTo('addOrder')[0]?.body).toEqual({
      product_id: 'p-1',
      qty: 99,
      ref: 'NOPE',
      customer: {
        name: 'Cara Diaz',
        email: 'cara@example.com',
        address: { line1: '12 Elm St', city: 'Austin', state: 'TX', postal_code: '7870' },
      },
    });

    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '1');
    await user.click(form.getByRole('button', { name: 'Record the order' }));
    expect(await screen.findByText('Order RP-PHONE001 recorded.')).toBeTruthy();
    // The lists and counters are read again.
    await waitFor(() => expect(api.callsTo('getOrders').length).toBeGreaterThan(1));
  });

  it('searches All orders on the server by order number, member, product and status, and shows a refusal at its field', async () => {
    const user = userEvent.setup();
    const api = salesApi({
      getOrders: ({ body }) => {
        const request = body as Record<string, unknown>;
        if (request.orderNumber === 'RP-BAD')
          return {
            status: 400,
            body: {
              message: 'Check the search.',
              fields: { orderNumber: 'Enter an order number as it is written, like RP-7F3K9Q2M.' },
            },
          };
        if (request.orderNumber) return orderPage([order({ id: 'o-9', orderID: String(request.orderNumber) })]);
        if (request.member || request.product || request.status) return orderPage([]);
        return orderPage([order(), order({ id: 'o-2', orderID: 'RP-22222222' })]);
      },
    });
    renderAdminAt(api, '/admin/orders');
    const form = within(await screen.findByRole('search', { name: 'Search orders' }));
    await waitFor(() => expect(api.callsTo('getOrders')).toHaveLength(1));

    await user.type(form.getByLabelText('Order number'), ' RP-12345678 ');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(api.callsTo('getOrders').at(-1)?.body).toEqual({ type: 'all', limit: 100, orderNumber: 'RP-12345678' }),
    );
    await waitFor(() => expect(gridRows()).toHaveLength(1));

    // By member, with a status: one request with both.
    await user.selectOptions(form.getByLabelText('Search by'), 'member');
    await user.type(form.getByLabelText('Member e-mail'), 'ann.lee@example.com');
    await user.selectOptions(form.getByLabelText('Status'), 'shipped');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(api.callsTo('getOrders').at(-1)?.body).toEqual({
        type: 'all',
        limit: 100,
        member: 'ann.lee@example.com',
        status: 'shipped',
      }),
    );
    expect(await screen.findByText('No orders match this search.')).toBeTruthy();

    await user.selectOptions(form.getByLabelText('Search by'), 'product');
    await user.type(form.getByLabelText('Product SPU or ID'), 'SPU-12345');
    await user.selectOptions(form.getByLabelText('Status'), '');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(api.callsTo('getOrders').at(-1)?.body).toEqual({ type: 'all', limit: 100, product: 'SPU-12345' }),
    );

    // The server's refusal shows under the field, in its words; the list says why it is not shown.
    await user.selectOptions(form.getByLabelText('Search by'), 'orderNumber');
    await user.type(form.getByLabelText('Order number'), 'RP-BAD');
    await user.click(form.getByRole('button', { name: 'Search' }));
    const field = await form.findByLabelText('Order number');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(form.getByText('Enter an order number as it is written, like RP-7F3K9Q2M.')).toBeTruthy();
    expect(screen.getByText('No orders are shown: correct the search above.')).toBeTruthy();

    // Clear: the whole list again.
    await user.click(form.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(gridRows()).toHaveLength(2));
  });
});
