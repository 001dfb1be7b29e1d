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
    expect(dialog.textContent).toContain('Send $20.00 to ann.lee@example.com’s Stripe balance, one transfer per sale.');
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
    expect(dialog.textContent).toContain(
      'Pay $41.25 to bob@example.com’s debit card ending 4242: one transfer per sale and one payout.',
    );
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

  it('names the net amount after what members owe from refunds, and its parts', async () => {
    const user = userEvent.setup();
    const cy = { id: 'm-3', email: 'cy@example.com' };
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([
          commission({ id: 'c-1', amount: 12.4 }),
          commission({ id: 'c-2', amount: 3.5, member: bob }),
          commission({ id: 'c-3', amount: 5, member: cy }),
        ]),
      getMemberDebts: () => ({
        body: { items: [{ member: { id: bob.id, email: bob.email }, owed: 2.5 }], nextCursor: null },
      }),
    });
    renderAdminAt(api, '/admin/payouts/to_stripe');
    await screen.findByRole('option', { name: 'bob@example.com ($1.00, after $2.50 owed)' });
    await user.click(screen.getByRole('button', { name: 'Send all available' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send all available: $18.40?' });
    expect(dialog.textContent).toContain(
      'Send $18.40 to 3 members ($20.90 in commissions, less $2.50 owed from refunds), one transfer per sale.',
    );
    expect(dialog.textContent).toContain('In commissions$20.90');
    expect(dialog.textContent).toContain('Less owed from refunds−$2.50');
    expect(dialog.textContent).toContain('To send$18.40');
    expect(within(dialog).getByRole('button', { name: 'Send $18.40' })).toBeTruthy();
  }, 20_000);

  it('nets a debt only from what is not sent yet: "Pay all" pays what is in Stripe as it is', async () => {
    const user = userEvent.setup();
    const api = salesApi({
      getCommisionsToStripe: () => commissionPage([commission({ id: 'c-1', amount: 2, member: bob })]),
      getCommisionsToBePayed: () =>
        commissionPage([
          commission({ id: 'c-2', amount: 6, member: bob, state: 'in_stripe', isInCustomersAccount: 1 }),
        ]),
      getMemberDebts: () => ({
        body: { items: [{ member: { id: bob.id, email: bob.email }, owed: 5 }], nextCursor: null },
      }),
    });
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    await screen.findByRole('option', { name: 'Everyone (1 member)' });
    await user.click(screen.getByRole('button', { name: 'Pay all' }));
    // $2.00 not sent yet settles $2.00 of the $5.00 owed; the $6.00 in Stripe is paid out.
    const dialog = await screen.findByRole('dialog', { name: 'Pay all: $6.00?' });
    expect(dialog.textContent).toContain(
      'Pay $6.00 to the debit cards of 1 member ($8.00 in commissions, less $2.00 owed from refunds): one transfer per sale and one payout each.',
    );
  }, 20_000);

  it('offers nothing to send when no member has a commission that can move', async () => {
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([
          commission({ id: 'c-4', amount: 99, member: bob, blockedReason: 'The member has no debit card yet.' }),
        ]),
    });
    renderAdminAt(api, '/admin/payouts/to_stripe');
    await screen.findByTestId('payout-batch-none');
    expect(screen.getByTestId('payout-batch-none').textContent).toBe('No commission can move right now.');
    expect(screen.queryByRole('button', { name: 'Send all available' })).toBeNull();
    expect(screen.queryByRole('option', { name: /^Everyone/ })).toBeNull();
  }, 20_000);

  it('says what a batch for everyone did once: the summary, each member that moved, and those with nothing in one line', async () => {
    const user = userEvent.setup();
    const cy = { id: 'm-3', email: 'cy@example.com' };
    const base = { batchId: 'admin-x', commissionCount: 0, amount: 0, netted: 0, transfer: 0, payout: 0, fee: 0 };
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([commission({ id: 'c-1', amount: 12.5 }), commission({ id: 'c-3', amount: 3, member: bob })]),
      runPayoutBatch: () => ({
        body: {
          outcomes: [
            {
              ...base,
              memberId: 'm-1',
              memberEmail: 'ann.lee@example.com',
              state: 'sent',
              commissionCount: 1,
              amount: 12.5,
              transfer: 12.5,
              method: null,
              transferIds: ['tr_1'],
              payoutId: null,
              message: "Sent $12.50 to ann.lee@example.com's Stripe balance in one transfer: 1 commission.",
            },
            ...[bob, cy].map((who) => ({
              ...base,
              memberId: who.id,
              memberEmail: who.email,
              state: 'empty',
              method: null,
              transferIds: [],
              payoutId: null,
              message: `Nothing to send for ${who.email}: no available commission that no other payout holds.`,
            })),
          ],
          remaining: 0,
          message: '1 member done.',
        },
      }),
    });
    renderAdminAt(api, '/admin/payouts/to_stripe');
    await screen.findByRole('option', { name: 'Everyone (2 members)' });
    await user.click(screen.getByRole('button', { name: 'Send all available' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send all available: $15.50?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send $15.50' }));
    const status = await screen.findByText('1 member done.');
    const banner = status.closest('[role="status"]')!;
    const items = within(banner as HTMLElement)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      "Sent $12.50 to ann.lee@example.com's Stripe balance in one transfer: 1 commission.",
      'Nothing to send now for 2 members (bob@example.com, cy@example.com): no available commission that no other payout holds.',
    ]);
  }, 20_000);
});
