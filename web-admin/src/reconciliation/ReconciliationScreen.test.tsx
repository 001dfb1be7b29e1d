import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { authAnswer, deferred, fakeApi, type FakeReply } from '@portal/shared/test/testing';
import { renderAdminAt } from '../screens/testing';

afterEach(() => cleanup());

const checked = {
  charges: 3,
  refunds: 1,
  transfers: 2,
  reversals: 0,
  payouts: 1,
  accounts: 1,
  orders: 3,
  commissions: 3,
};
const HAND_TRANSFER =
  'Transfer tr_hand of $12.00 to acct_1 (member Dana Demo) on 2026-11-20 is in Stripe but not in our ledger.';

function admin(reconcile: () => FakeReply | Promise<FakeReply>) {
  return fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true, email: 'admin@example.com' }) }),
    reconcile,
  });
}

describe('the Reconciliation screen', () => {
  it('runs the labelled period with the keyboard, shows it loading, then the differences in words with both sides’ ids', async () => {
    const answer = deferred<FakeReply>();
    const api = admin(() => answer.promise);
    renderAdminAt(api, '/admin/reconciliation');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reconciliation' })).toBeTruthy();
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    const user = userEvent.setup();
    await user.clear(from);
    await user.type(from, '2026-11-01');
    await user.clear(to);
    await user.type(to, '2026-11-25{Enter}');
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Comparing…' })).toHaveProperty('disabled', true);
    expect(api.callsTo('reconcile').map((call) => call.body)).toEqual([{ from: '2026-11-01', to: '2026-11-25' }]);
    answer.resolve({
      body: {
        from: '2026-11-01',
        to: '2026-11-25',
        checked,
        differences: [
          {
            kind: 'missing_in_ledger',
            subject: 'transfer',
            text: HAND_TRANSFER,
            stripeIds: ['tr_hand', 'acct_1'],
            ledgerIds: [],
          },
        ],
      },
    });
    expect(await screen.findByRole('heading', { level: 2, name: '2026-11-01 to 2026-11-25' })).toBeTruthy();
    expect(screen.getByText('1 difference')).toBeTruthy();
    const [item] = screen.getAllByRole('listitem');
    expect(within(item!).getByText(HAND_TRANSFER)).toBeTruthy();
    expect(within(item!).getByText('Transfer: in Stripe only')).toBeTruthy();
    expect(within(item!).getByText('tr_hand, acct_1')).toBeTruthy();
    expect(within(item!).getByText('nothing')).toBeTruthy();
  });

  it('says "No differences" when both sides agree', async () => {
    renderAdminAt(
      admin(() => ({ body: { from: '2026-11-01', to: '2026-11-25', checked, differences: [] } })),
      '/admin/reconciliation',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'No differences' })).toBeTruthy();
    expect(screen.getByText(/^Compared 3 charges, 1 refund, 2 transfers with 0 reversals, 1 payout/)).toBeTruthy();
  });

  it('shows a refused period at its field, and another failure in a banner that retries', async () => {
    let answers: FakeReply[] = [
      {
        status: 400,
        body: {
          message: 'to: The period ends before it starts.',
          fields: { to: 'The period ends before it starts: choose an end on or after 2026-11-20.' },
        },
      },
      { status: 503, body: { message: 'Stripe did not answer. Nothing was done twice; try again in a minute.' } },
      { body: { from: '2026-11-01', to: '2026-11-25', checked, differences: [] } },
    ];
    renderAdminAt(
      admin(() => {
        const [next, ...rest] = answers;
        answers = rest;
        return next!;
      }),
      '/admin/reconciliation',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    const to = screen.getByLabelText('To');
    expect(
      await screen.findByText('The period ends before it starts: choose an end on or after 2026-11-20.'),
    ).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(to);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const banner = await screen.findByRole('alert');
    expect(
      within(banner).getByText('Stripe did not answer. Nothing was done twice; try again in a minute.'),
    ).toBeTruthy();
    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'No differences' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
