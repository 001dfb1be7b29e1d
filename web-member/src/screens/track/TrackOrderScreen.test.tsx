import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OrderPage } from '@portal/shared/api/order-page';
import { authAnswer, fakeApi, renderWithAuth, unauthorized } from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { preloadLazyScreens } from '../lazyScreens';
import { commissionPage } from '../commissions/testing';

beforeAll(preloadLazyScreens, 60_000);
afterEach(() => cleanup());

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

const page = (overrides: Partial<OrderPage> = {}): OrderPage => ({
  orderID: 'RP-7F3K9Q2M',
  product_name: 'Trail Lantern',
  qty: 2,
  placedAt: '2026-11-20T10:00:00.000Z',
  steps: [
    { step: 'ordered', done: true, at: '2026-11-21T10:00:00.000Z' },
    { step: 'shipped', done: true, at: '2026-11-22T10:00:00.000Z' },
    { step: 'fulfilled', done: false, at: null },
  ],
  shipment: {
    carrier: 'FedEx',
    trackingNumber: '123456789012',
    trackingUrl: 'https://www.fedex.com/fedextrack/?trknbr=123456789012',
  },
  ...overrides,
});

describe('the customer’s order page', () => {
  it('says a delivered order refunded in full is closed, and a lost dispute, with when; a partial refund with its amount', async () => {
    const delivered = page({
      steps: [
        { step: 'ordered', done: true, at: '2026-11-21T10:00:00.000Z' },
        { step: 'shipped', done: true, at: '2026-11-22T10:00:00.000Z' },
        { step: 'fulfilled', done: true, at: '2026-11-23T10:00:00.000Z' },
      ],
      refund: {
        inFull: true,
        pending: false,
        entries: [{ at: '2026-11-25T10:00:00.000Z', kind: 'refund', amount: null }],
      },
    });
    const api = fakeApi({ checkAuth: () => unauthorized, getOrderPage: () => ({ body: delivered }) });
    renderWithAuth(<MemberApp />, api, { path: `/track_order#${TOKEN}` });
    await screen.findByRole('heading', { level: 1, name: 'Order RP-7F3K9Q2M' });
    // Not "Delivered": closed by the refund.
    expect(screen.getByTestId('order-status').textContent).toBe(
      'Refunded in full: this order is closed and will not be sent.',
    );
    expect(screen.getByTestId('order-refunds').textContent).toMatch(
      /Your whole payment was refunded to your card on November 25th, 2026/,
    );
    cleanup();

    const lost = page({
      steps: [
        { step: 'ordered', done: false, at: null },
        { step: 'shipped', done: false, at: null },
        { step: 'fulfilled', done: false, at: null },
      ],
      shipment: null,
      refund: {
        inFull: true,
        pending: false,
        entries: [{ at: '2026-11-26T10:00:00.000Z', kind: 'dispute', amount: null }],
      },
    });
    renderWithAuth(<MemberApp />, fakeApi({ checkAuth: () => unauthorized, getOrderPage: () => ({ body: lost }) }), {
      path: `/track_order#${TOKEN}`,
    });
    await screen.findByRole('heading', { level: 1, name: 'Order RP-7F3K9Q2M' });
    // Not "we are ordering it".
    expect(screen.getByTestId('order-status').textContent).toBe(
      'Closed: your bank returned your payment after a dispute. This order will not be sent.',
    );
    expect(screen.queryByText(/To be ordered from the supplier/)).toBeNull();
    cleanup();

    const partial = page({
      refund: {
        inFull: false,
        pending: false,
        entries: [{ at: '2026-11-24T10:00:00.000Z', kind: 'refund', amount: 5 }],
      },
    });
    renderWithAuth(<MemberApp />, fakeApi({ checkAuth: () => unauthorized, getOrderPage: () => ({ body: partial }) }), {
      path: `/track_order#${TOKEN}`,
    });
    await screen.findByRole('heading', { level: 1, name: 'Order RP-7F3K9Q2M' });
    expect(screen.getByTestId('order-status').textContent).toBe('Shipped');
    expect(screen.getByTestId('order-refunds').textContent).toMatch(
      /\$5\.00 was refunded to your card on November 24th/,
    );
  });

  it('asks for the order with the token from the address’s fragment, without a session, and shows its steps and shipment', async () => {
    const api = fakeApi({ checkAuth: () => unauthorized, getOrderPage: () => ({ body: page() }) });
    renderWithAuth(<MemberApp />, api, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'Order RP-7F3K9Q2M' })).toBeTruthy();
    expect(api.callsTo('getOrderPage')[0]).toMatchObject({ body: { token: TOKEN }, authorization: null });
    expect(screen.getByText('Trail Lantern × 2')).toBeTruthy();
    expect(screen.getByTestId('order-status').textContent).toBe('Shipped');
    const steps = within(screen.getByTestId('order-steps')).getAllByRole('listitem');
    expect(steps.map((step) => step.querySelector('.track-step__name')?.textContent)).toEqual([
      'Order placed',
      'Ordered from the supplier (done)',
      'Shipped (done)',
      'Not delivered yet (waiting)',
    ]);
    expect(steps[2]!.textContent).toMatch(/November 22nd, 2026/);
    const track = screen.getByRole('link', { name: /Track the parcel at FedEx/ });
    expect(track.getAttribute('href')).toBe('https://www.fedex.com/fedextrack/?trknbr=123456789012');
    expect(track.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows another carrier’s number without a link, and no shipment before it ships', async () => {
    const api = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () => ({
        body: page({ shipment: { carrier: 'Speedy Couriers', trackingNumber: 'SPD 42', trackingUrl: null } }),
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByTestId('tracking-number')).toBeTruthy();
    expect(screen.getByTestId('carrier').textContent).toBe('Speedy Couriers');
    expect(screen.queryByRole('link', { name: /Track the parcel/ })).toBeNull();
    cleanup();

    const waiting = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () => ({
        body: page({
          steps: [
            { step: 'ordered', done: false, at: null },
            { step: 'shipped', done: false, at: null },
            { step: 'fulfilled', done: false, at: null },
          ],
          shipment: null,
        }),
      }),
    });
    renderWithAuth(<MemberApp />, waiting, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByText('Received: we are ordering it from the supplier')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Shipment' })).toBeNull();
  });

  it('says a refund is pending until it goes out; nothing of it once it went out', async () => {
    const entries = [{ at: '2026-11-23T10:00:00.000Z', kind: 'refund' as const, amount: 5 }];
    const pending = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () => ({ body: page({ refund: { inFull: false, pending: true, entries } }) }),
    });
    renderWithAuth(<MemberApp />, pending, { path: `/track_order#${TOKEN}` });
    expect((await screen.findByTestId('order-refund-pending')).textContent).toMatch(
      /^A refund of this order is pending/,
    );
    cleanup();
    const refunded = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () => ({ body: page({ refund: { inFull: false, pending: false, entries } }) }),
    });
    renderWithAuth(<MemberApp />, refunded, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByTestId('order-refunds')).toBeTruthy();
    expect(screen.queryByTestId('order-refund-pending')).toBeNull();
  });

  it('says a link is not valid when the API does not know it, or when it has no token, without asking', async () => {
    const api = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () => ({ status: 404, body: { message: 'This order link is not valid.' } }),
    });
    renderWithAuth(<MemberApp />, api, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByText('This order link is not valid.')).toBeTruthy();
    cleanup();
    const none = fakeApi({ checkAuth: () => unauthorized });
    renderWithAuth(<MemberApp />, none, { path: '/track_order' });
    expect(await screen.findByText('This order link is not valid.')).toBeTruthy();
    expect(none.callsTo('getOrderPage')).toHaveLength(0);
  });

  it('offers Retry when the server does not answer', async () => {
    let fail = true;
    const api = fakeApi({
      checkAuth: () => unauthorized,
      getOrderPage: () =>
        fail ? { status: 503, body: { message: 'The service is busy just now.' } } : { body: page() },
    });
    renderWithAuth(<MemberApp />, api, { path: `/track_order#${TOKEN}` });
    expect(await screen.findByText('The service is busy just now.', {}, { timeout: 10_000 })).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /Retry|Try again/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Order RP-7F3K9Q2M' })).toBeTruthy();
  }, 20_000);
});

describe('My Account’s e-mail choices', () => {
  it('shows the stored choices, saves a change and says so, and keeps Save off until something changed', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer({ mailPreferences: { saleMails: true, payoutMails: false } }) }),
      getCommisionsByUser: () => ({ body: commissionPage() }),
      saveMailPreferences: ({ body }) => ({ body: { mailPreferences: body } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    const sale = (await screen.findByLabelText('When I make a sale')) as HTMLInputElement;
    const payout = screen.getByLabelText('When a payout is on its way') as HTMLInputElement;
    expect([sale.checked, payout.checked]).toEqual([true, false]);
    const save = screen.getByRole('button', { name: 'Save e-mail choices' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.click(payout);
    await user.click(save);
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe('Saved.'));
    expect(api.callsTo('saveMailPreferences')[0]?.body).toEqual({ saleMails: true, payoutMails: true });
    expect((screen.getByRole('button', { name: 'Save e-mail choices' }) as HTMLButtonElement).disabled).toBe(true);
  }, 20_000);

  it('says when the choice was not saved', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      checkAuth: () => ({ body: authAnswer() }),
      getCommisionsByUser: () => ({ body: commissionPage() }),
      saveMailPreferences: () => ({ status: 503, body: { message: 'The service is busy just now.' } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    await user.click(await screen.findByLabelText('When I make a sale'));
    await user.click(screen.getByRole('button', { name: 'Save e-mail choices' }));
    expect(await screen.findByText('Your choice was not saved')).toBeTruthy();
  }, 20_000);
});
