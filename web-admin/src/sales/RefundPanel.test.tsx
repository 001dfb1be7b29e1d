import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { renderAdminAt } from '../screens/testing';
import { counters, order, orderPage, salesApi } from './salesTesting';
import { formatDate } from '@portal/shared/domain/format';
import { commissionChange } from './RefundPanel';
import { preloadLazyScreens } from '../screens/routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

beforeAll(async () => {
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
});

const firstCell = async (id: string) => (await findGridRow(id)).querySelector<HTMLElement>('[role="gridcell"]')!;

describe('the order card’s refund', () => {
  it('asks for a reason, then confirms the refund and the seller’s commission change before refunding', async () => {
    let refunded = false;
    const api = salesApi({
      getOrders: () =>
        orderPage([refunded ? order({ refunded: 10, refundState: 'partial' }) : order()], counters({ all: 1 })),
      refundOrder: () => {
        refunded = true;
        return { body: { order: order({ refunded: 10, refundState: 'partial' }), commission: null } };
      },
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await user.click(await firstCell('o-1'));
    const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    expect(card.getByTestId('order-refund-state').textContent).toBe('Not refunded');
    await user.click(card.getByRole('button', { name: 'Refund…' }));
    const amount = card.getByLabelText('Amount to refund (USD)') as HTMLInputElement;
    expect(amount.value).toBe('49.98');
    await user.clear(amount);
    await user.type(amount, '60');
    await user.click(card.getByRole('button', { name: 'Review the refund' }));
    expect(card.getByText('At most $49.98 is left to refund of this order.')).toBeTruthy();
    expect(card.getByText('Choose why the order is refunded')).toBeTruthy();
    expect(api.callsTo('refundOrder')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '10.00');
    await user.selectOptions(card.getByLabelText('Reason'), 'duplicate');
    await user.click(card.getByRole('button', { name: 'Review the refund' }));
    // 2 × $24.99 sold by ann.lee: a $5.00 commission; round(500 × 1000 / 4998) = $1.00 of it goes.
    expect(card.getByRole('heading', { name: 'Refund $10.00 of order RP-7F3K9Q2M?' })).toBeTruthy();
    // The one effect that applies to this commission (not sent yet: reduced), not every case that could.
    await waitFor(() =>
      expect(card.getByTestId('refund-summary').textContent).toContain(
        'ann.lee@example.com’s commission goes down by $1.00, from $5.00 to $4.00: it was not sent to Stripe yet, so it is reduced.',
      ),
    );
    expect(card.getByTestId('refund-summary').textContent).not.toMatch(/reversed|clawed back/);
    // The card the money goes back to, by its last four, read for the confirmation.
    await waitFor(() => expect(card.getByTestId('refund-summary').textContent).toContain('’s card ending 4242'));
    expect(api.callsTo('getOrderPaymentCard')[0]?.body).toEqual({ id: 'o-1' });
    expect(api.callsTo('refundOrder')).toHaveLength(0);
    await user.click(card.getByRole('button', { name: 'Refund $10.00' }));
    expect(await screen.findByText('Refunded $10.00 of order RP-7F3K9Q2M.')).toBeTruthy();
    expect(api.callsTo('refundOrder')[0]?.body).toEqual({ id: 'o-1', amountCents: 1000, reason: 'duplicate' });
    // Typing into the fields is slow on a shared machine: room beyond vitest's 5 s.
  }, 30_000);

  it('says a hand-entered order has no card payment to refund, and shows a refunded one as Refunded', async () => {
    const api = salesApi({
      getOrders: () =>
        orderPage(
          [
            order({ refundable: false, source: 'admin' }),
            order({ id: 'o-2', orderID: 'RP-22222222', refunded: 49.98, refundState: 'full' }),
          ],
          counters({ all: 2 }),
        ),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    await user.click(await firstCell('o-1'));
    const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    expect(card.getByText('Entered by hand: there is no card payment to refund.')).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Refund…' })).toBeNull();
    // Opened from All orders, its card offers its next step.
    expect(card.getByRole('button', { name: 'Mark as Ordered' })).toBeTruthy();
    await user.click(await firstCell('o-2'));
    const refunded = within(await screen.findByRole('region', { name: 'Order RP-22222222' }));
    expect(refunded.getByTestId('order-refund-state').textContent).toBe('Refunded');
    expect(refunded.queryByRole('button', { name: 'Refund…' })).toBeNull();
    // Refunded in full: nothing to send, no step to mark.
    expect(refunded.queryByRole('button', { name: 'Mark as Ordered' })).toBeNull();
    expect(refunded.getByTestId('order-closed').textContent).toContain('nothing is left to send');
  });
});

describe('a refund that failed at Stripe', () => {
  it('is one line on the card: how much, when, why, where the order is now and what to do', async () => {
    const failed = {
      amount: 26,
      at: '2026-12-02T14:30:00.000Z',
      reason: "the customer's card was expired or cancelled",
    };
    const api = salesApi({
      getOrders: () =>
        orderPage(
          [
            order({ totalPayed: 26, failedRefunds: [{ ...failed, backInList: true }] }),
            order({
              id: 'o-2',
              orderID: 'RP-22222222',
              isOrdered: 1,
              failedRefunds: [{ ...failed, backInList: false }],
            }),
            order({ id: 'o-3', orderID: 'RP-33333333' }),
          ],
          counters({ all: 3 }),
        ),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders');
    await waitFor(() => expect(gridRows()).toHaveLength(3));
    await user.click(await firstCell('o-1'));
    const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    expect(card.getAllByTestId('order-refund-failed').map((line) => line.textContent)).toEqual([
      `A refund of $26.00 failed on ${formatDate(failed.at)}: the customer's card was expired or cancelled. The order is back in Not ordered yet; refund again or contact the customer.`,
    ]);
    // The order is worked as before: its next step is offered.
    expect(card.getByRole('button', { name: 'Mark as Ordered' })).toBeTruthy();
    // A partial refund that failed never took the order out of its list: the card says the money did not go back.
    await user.click(await firstCell('o-2'));
    const partial = within(await screen.findByRole('region', { name: 'Order RP-22222222' }));
    expect(partial.getByTestId('order-refund-failed').textContent).toBe(
      `A refund of $26.00 failed on ${formatDate(failed.at)}: the customer's card was expired or cancelled. The customer did not get that money back; refund again or contact the customer.`,
    );
    // An order without a failed refund says nothing of it.
    await user.click(await firstCell('o-3'));
    const plain = within(await screen.findByRole('region', { name: 'Order RP-33333333' }));
    expect(plain.queryByTestId('order-refund-failed')).toBeNull();
  });
});

describe('commissionChange', () => {
  const sold = order();
  it('names the one effect where the commission’s money is', () => {
    const inStripe = commissionChange(sold, 4998, { where: 'in_stripe', amount: 5, originalAmount: 5 });
    expect(inStripe).toBe(
      'ann.lee@example.com’s commission goes down by $5.00, from $5.00 to $0.00: $5.00 is reversed from their Stripe balance.',
    );
    const paid = commissionChange(sold, 1000, { where: 'paid', amount: 5, originalAmount: 5 });
    expect(paid).toBe(
      'ann.lee@example.com’s commission goes down by $1.00, from $5.00 to $4.00: it was paid out, so $1.00 is clawed back from their next payouts.',
    );
    expect(commissionChange(sold, 4998, { where: 'not_sent', amount: 5, originalAmount: 5 })).toContain(
      'so it is cancelled.',
    );
    expect(commissionChange(sold, 1000, { where: 'none', amount: 0, originalAmount: 5 })).toBe(
      'ann.lee@example.com’s commission is $0.00 already: the refund does not change it.',
    );
    expect(commissionChange(sold, 1000, null)).toBe('No commission changes: no member’s share link sold this order.');
  });
});
