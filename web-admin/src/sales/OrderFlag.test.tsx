import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { renderAdminAt } from '../screens/testing';
import { counters, order, orderPage, salesApi } from './salesTesting';

beforeAll(async () => {
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
});

describe('a flagged order', () => {
  it('says its flag in the list’s status and on its card; an order without one says nothing of it', async () => {
    const flagged = order({ flag: 'Product was banned before payment' });
    const plain = order({ id: 'o-2', orderID: 'RP-2222AAAA' });
    const api = salesApi({ getOrders: () => orderPage([flagged, plain], counters({ all: 2 })) });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/orders');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    expect((await findGridRow('o-1')).textContent).toContain(
      'Not ordered yet. Flagged: Product was banned before payment',
    );
    expect((await findGridRow('o-2')).textContent).not.toContain('Flagged');

    await user.click((await findGridRow('o-1')).querySelector<HTMLElement>('[role="gridcell"]')!);
    const card = within(await screen.findByRole('region', { name: 'Order RP-7F3K9Q2M' }));
    expect(card.getByRole('note').textContent).toBe(
      'Flagged: Product was banned before payment. The customer paid, so the order stands; its commission is held in Payouts → Held for review.',
    );
  });
});
