import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@portal/shared/api/sales';
import { findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { counters, order, orderPage, salesApi } from '../sales/salesTesting';
import { renderAdminAt } from './testing';
import { preloadLazyScreens } from './routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

beforeAll(async () => {
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
});

const firstCell = async (id: string) => (await findGridRow(id)).querySelector<HTMLElement>('[role="gridcell"]')!;

describe('the order lists', () => {
  it('each list says when it is empty, and has a Back link to /orders', async () => {
    renderAdminAt(salesApi(), '/admin/orders/not_shipped_yet');
    expect(await screen.findByRole('heading', { level: 1, name: 'Not shipped yet' })).toBeTruthy();
    expect(await screen.findByText('No orders waiting to ship.')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Orders' }));
    expect(screen.getByTestId('where').textContent).toBe('/orders');
  });

  it('a row click opens the detail card with the order, its product on request and the customer', async () => {
    const api = salesApi({
      getOrdersNotOrdered: () =>
        orderPage([order(), order({ id: 'o-2', orderID: 'RP-22222222' })], counters({ notOrdered: 2 })),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders/not_ordered_yet');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    expect(api.callsTo('getOrdersNotOrdered')[0]?.body).toEqual({ limit: 100 });
    await user.click(await firstCell('o-1'));

    const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    const fact = (name: string) => card.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('Order date')).toMatch(/^November 21st, 2026 \d{1,2}:08 (AM|PM)$/);
    expect(fact('Order ID')).toBe('RP-7F3K9Q2M');
    expect(fact('Quantity')).toBe('2');
    expect(fact('Sell price')).toBe('$24.99');
    expect(fact('Total')).toBe('$49.98');
    expect(fact('Supplier SPU number')).toBe('SPU-12345');
    expect(fact('Customer')).toBe('Cara Diaz');
    expect(fact('Customer e-mail')).toBe('cara@example.com');
    expect(fact('Shipping address')).toBe('12 Elm St, Apt 4Austin, TX 78701');
    const link = card.getByRole('link', { name: /Open at the supplier/ });
    expect(link.getAttribute('href')).toBe('https://supplier.example.test/p/12345');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    // The product: hidden until asked for.
    expect(card.queryByText('Trailhead')).toBeNull();
    await user.click(card.getByRole('button', { name: 'Show product' }));
    expect(card.getByText('Trailhead')).toBeTruthy();
    expect(card.getByText('Trail Lantern')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Hide product' }).getAttribute('aria-expanded')).toBe('true');
    expect(document.querySelector('.order-card__image')?.getAttribute('src')).toBe(
      'https://img.example.test/lantern.jpg',
    );
    expect(card.getByRole('button', { name: 'Mark as Ordered' })).toBeTruthy();

    // Enter on another focused row opens that one.
    (await firstCell('o-2')).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('region', { name: 'Order RP-22222222' })).toBeTruthy();
  });

  it('marking reloads the list, closes the card and says so', async () => {
    let marked = false;
    const api = salesApi({
      getOrdersNotShipped: () =>
        marked ? orderPage([], counters()) : orderPage([order({ isOrdered: 1 })], counters({ notShipped: 1 })),
      markAsShipped: () => {
        marked = true;
        return { body: { order: order({ isOrdered: 1, isShipped: 1 }) } };
      },
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders/not_shipped_yet');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await user.click(await firstCell('o-1'));
    await user.selectOptions(await screen.findByLabelText('Carrier'), 'none');
    await user.click(await screen.findByRole('button', { name: 'Review shipping…' }));
    await user.click(await screen.findByRole('button', { name: 'Mark as Shipped' }));
    expect(await screen.findByText('Order RP-7F3K9Q2M marked as shipped.')).toBeTruthy();
    expect(api.callsTo('markAsShipped')[0]?.body).toEqual({ id: 'o-1' });
    expect(screen.queryByRole('region', { name: 'Order RP-7F3K9Q2M' })).toBeNull();
    expect(await screen.findByText('No orders waiting to ship.')).toBeTruthy();
    expect(api.callsTo('getOrdersNotShipped')).toHaveLength(2);
  });

  it('a 409 shows its message in the card and reloads the list', async () => {
    const rows: Order[] = [order({ isOrdered: 1, isShipped: 1 })];
    const api = salesApi({
      getOrdersNotFufilled: () => orderPage([...rows], counters({ notFulfilled: rows.length })),
      markAsFufilled: () => {
        rows.length = 0;
        return { status: 409, body: { message: 'This order is already fulfilled.' } };
      },
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders/not_fufilled_yet');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await user.click(await firstCell('o-1'));
    await user.click(await screen.findByRole('button', { name: 'Mark as Fulfilled' }));
    const card = within(screen.getByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    expect(await card.findByText('This order is already fulfilled.')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('getOrdersNotFufilled')).toHaveLength(2));
    expect(await screen.findByText('No orders waiting to be fulfilled.')).toBeTruthy();
    // The card stays, with the message, until closed.
    expect(card.getByText('This order is already fulfilled.')).toBeTruthy();
    await user.click(card.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Order RP-7F3K9Q2M' })).toBeNull();
  });
});
