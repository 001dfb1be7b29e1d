import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cellTexts, findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { deferred, type FakeReply } from '@portal/shared/test/testing';
import { commission, commissionPage, salesApi } from '../sales/salesTesting';
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

const rowOf = async (id: string) => within(await findGridRow(id));
/** The money action's confirmation, once open. */
const dialog = async () => within(await screen.findByRole('dialog'));

describe('/payouts', () => {
  it('lists what each member still owes from refunds after payout, and says when nobody owes', async () => {
    const api = salesApi({
      getMemberDebts: () => ({
        body: {
          items: [
            { member: { id: 'm-2', email: 'bob@example.com' }, owed: 2.5 },
            { member: { id: 'm-1', email: 'ann.lee@example.com' }, owed: 1234.56 },
          ],
          nextCursor: null,
        },
      }),
    });
    renderAdminAt(api, '/admin/payouts');
    const section = within(await screen.findByRole('region', { name: 'Owed from refunds' }));
    const list = await section.findByTestId('member-debts');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['ann.lee@example.comowes $1,234.56', 'bob@example.comowes $2.50']);
    expect(section.getByText(/it comes off their next payouts/)).toBeTruthy();
    cleanup();
    renderAdminAt(salesApi(), '/admin/payouts');
    expect((await screen.findByTestId('member-debts-none')).textContent).toBe('No member owes anything from refunds.');
  });

  it('says when there are no commissions yet, and links to the three lists', async () => {
    renderAdminAt(salesApi(), '/admin/payouts');
    expect(await screen.findByText('No commissions yet.')).toBeTruthy();
    const lists = within(screen.getByRole('navigation', { name: 'Payout lists' }));
    expect(lists.getByRole('link', { name: 'To Stripe' }).getAttribute('href')).toBe('/admin/payouts/to_stripe');
    expect(lists.getByRole('link', { name: 'To Be Payed' }).getAttribute('href')).toBe('/admin/payouts/to_be_payed');
    expect(lists.getByRole('link', { name: 'Top Earners' }).getAttribute('href')).toBe('/admin/payouts/top_earners');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('shows every commission with the totals', async () => {
    const api = salesApi({
      getCommisions: () =>
        commissionPage(
          [commission(), commission({ id: 'c-2', amount: 12.5, state: 'paid', status: 'paid', isPayed: 1 })],
          {
            paid: 12.5,
            processing: 1005,
            count: 2,
          },
        ),
    });
    renderAdminAt(api, '/admin/payouts');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    expect(screen.getByTestId('commissions-count').textContent).toBe('2');
    expect(screen.getByTestId('commissions-total').textContent).toBe('$1,017.50');
    expect(cellTexts(await findGridRow('c-2'))).toEqual(
      expect.arrayContaining(['$12.50', 'Paid', 'ann.lee@example.com']),
    );
  });

  it('To Stripe: a commission that cannot move has its button disabled and says why', async () => {
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([
          commission({ id: 'c-ready' }),
          commission({ id: 'c-blocked', orderID: 'RP-BLOCKED1', blockedReason: 'The order is not fulfilled yet' }),
        ]),
    });
    renderAdminAt(api, '/admin/payouts/to_stripe');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    const blocked = (await rowOf('c-blocked')).getByRole('button', { name: 'Send to Stripe' }) as HTMLButtonElement;
    expect(blocked.disabled).toBe(true);
    expect((await rowOf('c-blocked')).getByText('The order is not fulfilled yet')).toBeTruthy();
    expect(blocked.getAttribute('aria-describedby')).toBe('reason-c-blocked');
    expect(
      ((await rowOf('c-ready')).getByRole('button', { name: 'Send to Stripe' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('To Stripe: sending shows its progress, takes one click only, then goes to /payouts with a notice', async () => {
    const answer = deferred<FakeReply>();
    const api = salesApi({
      getCommisionsToStripe: () => commissionPage([commission({ id: 'c-ready', amount: 5 })]),
      addCommisionToStripe: () => answer.promise,
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/payouts/to_stripe');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await user.click((await rowOf('c-ready')).getByRole('button', { name: 'Send to Stripe' }));
    // Nothing moves before the confirmation, which names the amount, the member and the order.
    const confirm = await dialog();
    expect(confirm.getByRole('heading').textContent).toBe('Send $5.00 to ann.lee@example.com’s Stripe balance?');
    expect(confirm.getByText('RP-7F3K9Q2M')).toBeTruthy();
    expect(api.callsTo('addCommisionToStripe')).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Send $5.00' }));
    const busy = (await (await rowOf('c-ready')).findByRole('button', { name: 'Sending…' })) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    await user.click(busy);
    answer.resolve({
      body: { commission: commission({ id: 'c-ready', state: 'in_stripe', isInCustomersAccount: 1 }) },
    });
    expect(
      await screen.findByText(
        'Sent the $5.00 commission for order RP-7F3K9Q2M to ann.lee@example.com’s Stripe account.',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/payouts');
    expect(api.callsTo('addCommisionToStripe')).toEqual([expect.objectContaining({ body: { id: 'c-ready' } })]);
  });

  it('To Stripe: Enter on a focused action cell presses its button, unless the row is blocked', async () => {
    const api = salesApi({
      getCommisionsToStripe: () =>
        commissionPage([
          commission({ id: 'c-blocked', blockedReason: 'The order is not fulfilled yet' }),
          commission({ id: 'c-ready' }),
        ]),
      addCommisionToStripe: () => ({ body: { commission: commission({ id: 'c-ready', state: 'in_stripe' }) } }),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/payouts/to_stripe');
    const actionCell = async (id: string) =>
      (await findGridRow(id)).querySelector<HTMLElement>('[role="gridcell"][col-id="action"]')!;
    (await actionCell('c-blocked')).focus();
    await user.keyboard('{Enter}');
    expect(api.callsTo('addCommisionToStripe')).toHaveLength(0);
    (await actionCell('c-ready')).focus();
    await user.keyboard('{Enter}');
    // The confirmation takes the focus (Cancel first: Enter again does not confirm by accident).
    const confirm = await dialog();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    await user.click(confirm.getByRole('button', { name: 'Send $5.00' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/payouts'));
    expect(api.callsTo('addCommisionToStripe')[0]?.body).toEqual({ id: 'c-ready' });
  });

  it('To Be Payed: shows a failed payout on its row; paying goes to /payouts with a notice', async () => {
    const api = salesApi({
      getCommisionsToBePayed: () =>
        commissionPage([
          commission({
            id: 'c-failed',
            state: 'in_stripe',
            isInCustomersAccount: 1,
            payoutFailure: 'The card was declined',
          }),
        ]),
      payCommisionToMember: () => ({ body: { commission: commission({ id: 'c-failed', state: 'paid', isPayed: 1 }) } }),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    expect((await rowOf('c-failed')).getByText('Last payout failed: The card was declined')).toBeTruthy();
    await user.click((await rowOf('c-failed')).getByRole('button', { name: 'Pay to debit card' }));
    // The confirmation names the amount, the member and their card's last four, read for it.
    const confirm = await dialog();
    expect(await confirm.findByRole('heading', { name: 'Pay $5.00 to the card ending 5556?' })).toBeTruthy();
    expect(confirm.getByText('Visa ending 5556')).toBeTruthy();
    expect(confirm.getByText('ann.lee@example.com')).toBeTruthy();
    expect(api.callsTo('getMemberPayoutCard')[0]?.body).toEqual({ memberId: expect.any(String) });
    expect(api.callsTo('payCommisionToMember')).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Pay $5.00' }));
    expect(
      await screen.findByText('Started the payout of $5.00 for order RP-7F3K9Q2M to ann.lee@example.com’s debit card.'),
    ).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/payouts');
    expect(api.callsTo('payCommisionToMember')[0]?.body).toEqual({ id: 'c-failed' });
  });

  it('a refused action stays on the list with the reason and reloads it', async () => {
    const api = salesApi({
      getCommisionsToBePayed: () => commissionPage([commission({ id: 'c-1', state: 'in_stripe' })]),
      payCommisionToMember: () => ({ status: 409, body: { message: 'The member has no debit card yet.' } }),
    });
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await userEvent.click((await rowOf('c-1')).getByRole('button', { name: 'Pay to debit card' }));
    await userEvent.click(await (await dialog()).findByRole('button', { name: 'Pay $5.00' }));
    expect(
      await screen.findByText('Order RP-7F3K9Q2M (ann.lee@example.com): The member has no debit card yet.'),
    ).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/payouts/to_be_payed');
    await waitFor(() => expect(api.callsTo('getCommisionsToBePayed')).toHaveLength(2));
  });

  it('To Be Payed: a member without a debit card at Stripe cannot be confirmed, and Cancel moves nothing', async () => {
    const api = salesApi({
      getCommisionsToBePayed: () => commissionPage([commission({ id: 'c-1', state: 'in_stripe' })]),
      getMemberPayoutCard: () => ({ body: { memberId: 'm-1', card: null } }),
    });
    const user = userEvent.setup();
    renderAdminAt(api, '/admin/payouts/to_be_payed');
    await waitFor(() => expect(gridRows()).toHaveLength(1));
    await user.click((await rowOf('c-1')).getByRole('button', { name: 'Pay to debit card' }));
    const confirm = await dialog();
    expect(
      await confirm.findByText('ann.lee@example.com has no debit card at Stripe to pay out to: ask them to add one.'),
    ).toBeTruthy();
    expect((confirm.getByRole('button', { name: 'Pay $5.00' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('payCommisionToMember')).toHaveLength(0);
  });

  it('Top Earners: e-mail, number of commissions and total, highest first; empty says so', async () => {
    const api = salesApi({
      getTopEarners: () => ({
        body: {
          items: [
            { id: 'm-1', email: 'top@example.com', count: 12, totalCommisions: 1250.5 },
            { id: 'm-2', email: 'next@example.com', count: 3, totalCommisions: 30 },
          ],
          nextCursor: null,
        },
      }),
    });
    renderAdminAt(api, '/admin/payouts/top_earners');
    await waitFor(() => expect(gridRows()).toHaveLength(2));
    expect(gridRows().map(cellTexts)).toEqual([
      ['top@example.com', '12', '$1,250.50'],
      ['next@example.com', '3', '$30.00'],
    ]);
    cleanup();
    renderAdminAt(salesApi(), '/admin/payouts/top_earners');
    expect(await screen.findByText('No earners yet.')).toBeTruthy();
  });

  it('searches All commissions on the server by member and state', async () => {
    const user = userEvent.setup();
    const api = salesApi({
      getCommisions: ({ body }) =>
        (body as { member?: string }).member ? commissionPage([commission({ id: 'c-7' })]) : commissionPage([]),
    });
    renderAdminAt(api, '/admin/payouts');
    const form = within(await screen.findByRole('search', { name: 'Search commissions' }));
    // Every status a commission can be in, in the lists' words.
    expect(
      within(form.getByLabelText('Status'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Any status',
      'Waiting for fulfilment',
      'On hold',
      'Available',
      'In Stripe',
      'Paid',
      'Cancelled',
      'Reversed',
      'Clawed back',
      'Held for review',
    ]);
    await user.type(form.getByLabelText('Member e-mail'), 'ann.lee@example.com');
    await user.selectOptions(form.getByLabelText('Status'), 'paid');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(api.callsTo('getCommisions').at(-1)?.body).toEqual({
        limit: 100,
        member: 'ann.lee@example.com',
        status: 'paid',
      }),
    );
    await waitFor(() => expect(gridRows()).toHaveLength(1));
  });
});
