import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { renderAdminAt } from '../screens/testing';
import { commission, commissionPage, salesApi } from './salesTesting';
import { preloadLazyScreens } from '../screens/routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

beforeAll(async () => {
  await preloadDataTable();
});
afterEach(cleanup);

const bob = { id: 'm-2', email: 'bob@example.com' };

describe('"Send all available" and "Pay all"', () => {
  it('confirms the amount, the members and the commissions of the chosen member, then says what moved', async () => {
    const user = userEvent.setup();
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([
          commission({ id: 'c-1', amount: 12.5 }),
          commission({ id: 'c-2', amount: 7.5 }),
          commission({ id: 'c-3', amount: 3, member: bob }),
          commission({ id: 'c-4', amount: 99, member: bob, blockedReason: 'The member has no debit card yet.' }),
        ]),
      runPayoutBatch: () => ({
        body: {
          outcomes: [
            {
              memberId: 'm-1',
              memberEmail: 'ann.lee@example.com',
              batchId: 'admin-x',
              state: 'sent',
              commissionCount: 2,
              amount: 20,
              netted: 0,
              transfer: 20,
              payout: 0,
              fee: 0,
              method: null,
              transferIds: ['tr_1'],
              payoutId: null,
              message: "Sent $20.00 to ann.lee@example.com's Stripe balance in one transfer: 2 commissions.",
            },
          ],
          remaining: 0,
          message: '1 member done.',
        },
      }),
    });
    renderAdminAt(api, '/admin/payouts/to_stripe');
    const select = (await screen.findByLabelText('Member')) as HTMLSelectElement;
    // Everyone: the blocked row is left out of what can move.
    await screen.findByRole('option', { name: 'Everyone (2 members)' });
    await user.selectOptions(select, 'm-1');
    await user.click(screen.getByRole('button', { name: 'Send all available' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send all available: $20.00?' });
    expect(dialog.textContent).toContain('goes to the Stripe balance of ann.lee@example.com');
    expect(dialog.textContent).toContain('Commissions2');
    expect(api.callsTo('runPayoutBatch')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Send $20.00' }));
    await screen.findByText("Sent $20.00 to ann.lee@example.com's Stripe balance in one transfer: 2 commissions.");
    expect(api.callsTo('runPayoutBatch')[0]?.body).toMatchObject({ step: 'send', memberId: 'm-1' });
  }, 20_000);

  it('"Pay all" for one member names their debit card’s last four, read for the confirmation', async () => {
    const user = userEvent.setup();
    const api = salesApi({
      getCommisionsToBePayed: () =>
        commissionPage([commission({ id: 'c-9', amount: 41.25, member: bob, state: 'in_stripe' })]),
      getMemberPayoutCard: () => ({
        body: { memberId: bob.id, card: { last4: '4242', brand: 'Visa', instant: false } },
      }),
    });
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    const select = (await screen.findByLabelText('Member')) as HTMLSelectElement;
    await screen.findByRole('option', { name: 'bob@example.com ($41.25)' });
    await user.selectOptions(select, bob.id);
    await user.click(screen.getByRole('button', { name: 'Pay all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay all: $41.25?' });
    await within(dialog).findByText('Visa ending 4242');
    expect(dialog.textContent).toContain('$41.25 is paid out to bob@example.com’s debit card ending 4242');
    expect(api.callsTo('getMemberPayoutCard')[0]?.body).toEqual({ memberId: bob.id });
    expect((within(dialog).getByRole('button', { name: 'Pay $41.25' }) as HTMLButtonElement).disabled).toBe(false);
    expect(api.callsTo('runPayoutBatch')).toHaveLength(0);
  }, 20_000);

  it('"Pay all" for everyone counts the rows in Stripe too, and a refusal stays in the dialog in words', async () => {
    const user = userEvent.setup();
    const busy =
      'A payout for bob@example.com is already under way (another batch or their withdrawal): try again in a minute.';
    const api = salesApi({
      getCommisionsToStripe: () => commissionPage([commission({ id: 'c-1', amount: 10 })]),
      getCommisionsToBePayed: () =>
        commissionPage([
          commission({ id: 'c-5', amount: 4.25, member: bob, state: 'in_stripe', isInCustomersAccount: 1 }),
        ]),
      runPayoutBatch: () => ({ status: 409, body: { message: busy } }),
    });
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    await screen.findByRole('option', { name: 'Everyone (2 members)' });
    await user.click(screen.getByRole('button', { name: 'Pay all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay all: $14.25?' });
    await user.click(within(dialog).getByRole('button', { name: 'Pay $14.25' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(busy);
    expect(api.callsTo('runPayoutBatch')[0]?.body).toMatchObject({ step: 'pay' });
    expect(api.callsTo('runPayoutBatch')[0]?.body).not.toHaveProperty('memberId');
  }, 20_000);
});
