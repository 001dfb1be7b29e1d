import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { salesApi } from '../sales/salesTesting';
import { renderAdminAt } from '../screens/testing';
import { preloadLazyScreens } from '../screens/routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

afterEach(() => cleanup());

const card = (id: string, name: string, status = 'approved') => ({
  id,
  product_name: name,
  brand: 'Acme',
  msrp_us: '24.99',
  dropshipping_price_us: '12.95',
  you_make: '1.30',
  image: null,
  spu_no: `SPU-${id}`,
  status,
  hasApprovedVersion: status === 'approved',
  updatedAt: '2026-11-20T10:00:00.000Z',
});

const summary = {
  orders: { toOrder: 3, toShip: 2, toFulfil: 1 },
  commissions: { toSend: 4, toSendAmount: 14.5, toPay: 2, toPayAmount: 6 },
  failedPayouts: { count: 1, atLeast: false },
  productsInReview: { count: 500, atLeast: true },
};

describe('/catalogue', () => {
  it('lists a catalogue list, searches it on the server and withdraws a product after a confirmation naming it', async () => {
    let withdrawn = false;
    const api = salesApi({
      getCatalogueProducts: ({ body }) => {
        const { list, search } = body as { list: string; search?: string };
        if (list !== 'approved') return { body: { items: [], nextCursor: null } };
        const items = [card('a', 'Alpha lamp'), card('b', 'Bravo mug')].filter(
          (item) => !(withdrawn && item.id === 'a') && (!search || item.product_name.toLowerCase().startsWith(search)),
        );
        return { body: { items, nextCursor: null } };
      },
      withdrawProduct: ({ body }) => {
        withdrawn = true;
        return { body: { id: (body as { id: string }).id, status: 'withdrawn' } };
      },
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/catalogue');
    expect(await screen.findByRole('heading', { level: 1, name: 'Catalogue' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Alpha lamp' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Approved' }).getAttribute('aria-current')).toBe('page');

    await user.type(screen.getByLabelText('Search by name or SPU'), 'bra');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Alpha lamp' })).toBeNull());
    expect(await screen.findByRole('link', { name: 'Bravo mug' })).toBeTruthy();
    expect(api.callsTo('getCatalogueProducts').at(-1)?.body).toEqual({ list: 'approved', search: 'bra', limit: 25 });
    await user.clear(screen.getByLabelText('Search by name or SPU'));
    expect(await screen.findByRole('link', { name: 'Alpha lamp' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Withdraw Alpha lamp' }));
    const confirm = within(screen.getByRole('group', { name: 'Confirm for Alpha lamp' }));
    expect(confirm.getByText(/Withdraw “Alpha lamp” from members\?/)).toBeTruthy();
    expect(document.activeElement).toBe(confirm.getByRole('button', { name: 'Withdraw it' }));
    expect(api.callsTo('withdrawProduct')).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Withdraw it' }));
    expect(await screen.findByText(/“Alpha lamp” was withdrawn/)).toBeTruthy();
    expect(api.callsTo('withdrawProduct')[0]?.body).toEqual({ id: 'a' });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Alpha lamp' })).toBeNull());
  }, 20_000);

  it('follows the cancelling of the withdrawn product’s unpaid checkouts until it is done', async () => {
    const counts = [
      { total: 1000, cancelled: 400, paid: 0, notCancelled: 0, done: false },
      { total: 1000, cancelled: 1000, paid: 0, notCancelled: 0, done: true },
    ];
    const api = salesApi({
      getCatalogueProducts: ({ body }) => ({
        body: {
          items: (body as { list: string }).list === 'approved' ? [card('a', 'Alpha lamp')] : [],
          nextCursor: null,
        },
      }),
      withdrawProduct: () => ({
        body: {
          id: 'a',
          status: 'withdrawn',
          openCheckouts: { total: 1000, cancelled: 0, paid: 0, notCancelled: 0, done: false },
        },
      }),
      getCheckoutCancels: () => ({ body: counts.length > 1 ? counts.shift()! : counts[0]! }),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/catalogue');
    await user.click(await screen.findByRole('button', { name: 'Withdraw Alpha lamp' }));
    await user.click(screen.getByRole('button', { name: 'Withdraw it' }));
    const status = await screen.findByRole('status');
    expect(within(status).getByText(/“Alpha lamp” was withdrawn/)).toBeTruthy();
    expect(
      await within(status).findByText('Cancelling 1,000 open checkouts at Stripe… 400 cancelled so far.'),
    ).toBeTruthy();
    expect(
      await within(status).findByText('1,000 open checkouts: 1,000 cancelled at Stripe.', undefined, {
        timeout: 5_000,
      }),
    ).toBeTruthy();
    expect(api.callsTo('getCheckoutCancels')[0]?.body).toEqual({ id: 'a' });
    const reads = api.callsTo('getCheckoutCancels').length;
    // Done: no more reads.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(api.callsTo('getCheckoutCancels')).toHaveLength(reads);
  }, 20_000);

  it('shows the server’s 409 in words when a product was moved by someone else, and says when a list is empty', async () => {
    const api = salesApi({
      getCatalogueProducts: ({ body }) => ({
        body: {
          items: (body as { list: string }).list === 'banned' ? [card('c', 'Charlie cup', 'banned')] : [],
          nextCursor: null,
        },
      }),
      returnProductToReview: () => ({
        status: 409,
        body: { message: 'This product is already waiting for review.' },
      }),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/catalogue?list=withdrawn');
    expect(await screen.findByText('There are no withdrawn products.')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Banned' }));
    expect(await screen.findByRole('link', { name: 'Charlie cup' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Put back into review Charlie cup' }));
    await user.click(screen.getByRole('button', { name: 'Put it back into review' }));
    expect(await screen.findByText('This product is already waiting for review.')).toBeTruthy();
  });
});

describe('the admin home', () => {
  it('shows the day’s figures, each linking to its list', async () => {
    const api = salesApi({ getAdminSummary: () => ({ body: summary }) });
    renderAdminAt(api, '/admin/');
    const figures = within(await screen.findByRole('region', { name: 'Today’s work' }));
    const link = async (name: RegExp) => (await figures.findByRole('link', { name })).getAttribute('href');
    expect(await link(/^3 Orders to order/)).toBe('/admin/orders/not_ordered_yet');
    expect(await link(/^2 Orders to ship/)).toBe('/admin/orders/not_shipped_yet');
    expect(await link(/^1 Orders to mark fulfilled/)).toBe('/admin/orders/not_fufilled_yet');
    expect(await link(/^4 Commissions to send to Stripe \$14\.50/)).toBe('/admin/payouts/to_stripe');
    expect(await link(/^2 Commissions to pay out \$6\.00/)).toBe('/admin/payouts/to_be_payed');
    expect(await link(/^1 Failed payout/)).toBe('/admin/payouts/to_be_payed');
    expect(await link(/^500\+ Products waiting for review/)).toBe('/admin/product_import');
  });

  it('says in words when the figures cannot be loaded', async () => {
    const api = salesApi({
      getAdminSummary: () => ({ status: 503, body: { message: 'The service is busy just now.' } }),
    });
    renderAdminAt(api, '/admin/');
    expect(await screen.findByText('The service is busy just now.', {}, { timeout: 5000 })).toBeTruthy();
  });
});
