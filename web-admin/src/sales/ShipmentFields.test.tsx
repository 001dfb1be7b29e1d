import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { counters, order, orderPage, salesApi } from './salesTesting';
import { renderAdminAt } from '../screens/testing';
import { preloadLazyScreens } from '../screens/routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

beforeAll(async () => {
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
});

async function openShippingCard(api: ReturnType<typeof salesApi>) {
  const user = userEvent.setup({ delay: null });
  renderAdminAt(api, '/admin/orders/not_shipped_yet');
  await waitFor(() => expect(gridRows()).toHaveLength(1));
  await user.click((await findGridRow('o-1')).querySelector<HTMLElement>('[role="gridcell"]')!);
  const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
  return { user, card };
}

const shippingApi = (answer?: () => { status?: number; body: unknown }) =>
  salesApi({
    getOrdersNotShipped: () => orderPage([order({ isOrdered: 1 })], counters({ notShipped: 1 })),
    markAsShipped: answer ?? (() => ({ body: { order: order({ isOrdered: 1, isShipped: 1 }) } })),
  });

describe('the Mark as Shipped card', () => {
  it('sends the carrier and the tracking number as typed, once they have the carrier’s format', async () => {
    const api = shippingApi();
    const { user, card } = await openShippingCard(api);
    await user.selectOptions(card.getByLabelText('Carrier'), 'ups');
    const number = card.getByLabelText('Tracking number');
    expect(card.getByText(/For example 1Z999AA10123456784/)).toBeTruthy();
    await user.click(number);
    await user.paste('1Z123');
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    // Refused here, at the field, as the server would: nothing is sent.
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(card.getByText(/^This is not a UPS tracking number/)).toBeTruthy();
    expect(api.callsTo('markAsShipped')).toHaveLength(0);

    await user.clear(number);
    await user.click(number);
    await user.paste('1z 999 aa1 0123 456 784');
    expect(number.getAttribute('aria-invalid')).toBeNull();
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    // Confirmed before anything is sent, saying what the customer is told.
    expect(card.getByRole('heading', { name: 'Mark order RP-7F3K9Q2M as shipped?' })).toBeTruthy();
    expect(card.getByTestId('ship-summary').textContent).toBe(
      'The customer is mailed that it has shipped with UPS, tracking number 1z 999 aa1 0123 456 784.',
    );
    expect(api.callsTo('markAsShipped')).toHaveLength(0);
    await user.click(card.getByRole('button', { name: 'Mark as Shipped' }));
    expect(await screen.findByText('Order RP-7F3K9Q2M marked as shipped.')).toBeTruthy();
    expect(api.callsTo('markAsShipped')[0]?.body).toEqual({
      id: 'o-1',
      carrier: 'ups',
      trackingNumber: '1z 999 aa1 0123 456 784',
    });
  }, 20_000);

  it('asks for a carrier or an explicit “No tracking number”, another carrier’s name, and sends the spec’s { id } without one', async () => {
    const api = shippingApi();
    const { user, card } = await openShippingCard(api);
    // Nothing is chosen for the admin.
    expect((card.getByLabelText('Carrier') as HTMLSelectElement).value).toBe('');
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    expect(card.getByLabelText('Carrier').getAttribute('aria-invalid')).toBe('true');
    expect(card.getByText('Choose the carrier, or “No tracking number” if the parcel has none.')).toBeTruthy();
    await user.selectOptions(card.getByLabelText('Carrier'), 'other');
    await user.click(card.getByLabelText('Tracking number'));
    await user.paste('SPD 42');
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    expect(card.getByLabelText('Carrier name').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('markAsShipped')).toHaveLength(0);
    await user.selectOptions(card.getByLabelText('Carrier'), 'none');
    expect(card.queryByLabelText('Tracking number')).toBeNull();
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    expect(card.getByTestId('ship-summary').textContent).toBe(
      'The customer is mailed that the order has shipped without a tracking number.',
    );
    await user.click(card.getByRole('button', { name: 'Mark as Shipped' }));
    await screen.findByText('Order RP-7F3K9Q2M marked as shipped.');
    expect(api.callsTo('markAsShipped')[0]?.body).toEqual({ id: 'o-1' });
  }, 20_000);

  it('shows the server’s refusal at the field it names', async () => {
    const api = shippingApi(() => ({
      status: 400,
      body: { message: 'Check the tracking number.', fields: { trackingNumber: 'The server says no.' } },
    }));
    const { user, card } = await openShippingCard(api);
    await user.selectOptions(card.getByLabelText('Carrier'), 'dhl');
    await user.click(card.getByLabelText('Tracking number'));
    await user.paste('1234567890');
    await user.click(card.getByRole('button', { name: 'Review shipping…' }));
    await user.click(card.getByRole('button', { name: 'Mark as Shipped' }));
    // Back at the fields, with the refusal at the one it names.
    expect(await card.findByText('The server says no.')).toBeTruthy();
    expect(card.getByLabelText('Tracking number').getAttribute('aria-invalid')).toBe('true');
  }, 20_000);
});
