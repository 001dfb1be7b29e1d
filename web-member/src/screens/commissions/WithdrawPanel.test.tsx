import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { authAnswer, fakeApi, renderWithAuth } from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { commissionPage } from './testing';

afterEach(cleanup);

const quote = {
  available: 60,
  minimum: 10,
  canWithdraw: true,
  reason: null,
  method: 'instant',
  fee: 0.59,
  feePaidBy: 'member',
  receive: 59.41,
  card: { last4: '5556', brand: 'Visa' },
  pending: [],
  owed: 0,
  failedPayout: null,
};

const outcome = {
  memberId: 'm1',
  memberEmail: 'ann@example.com',
  batchId: 'withdraw-x',
  state: 'paid',
  commissionCount: 2,
  amount: 60,
  netted: 0,
  transfer: 60,
  payout: 59.41,
  fee: 0.59,
  method: 'instant',
  transferIds: ['tr_1'],
  payoutId: 'po_1',
  message: "Paid $59.41 to ann@example.com's debit card (instant, Stripe's instant fee $0.59): 2 commissions.",
};

const member = (handlers: Parameters<typeof fakeApi>[0]) =>
  fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAccountCreated: 1, isPayoutMethodAdded: 1 }) }),
    getCommisionsByUser: () => ({ body: commissionPage([]) }),
    ...handlers,
  });

describe('Withdraw on My Account', () => {
  it('confirms the amount, the instant fee and the card’s last four, then withdraws what was confirmed', async () => {
    const user = userEvent.setup();
    const api = member({
      getWithdrawalQuote: () => ({ body: quote }),
      withdraw: () => ({ body: { outcome } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    expect((await screen.findByTestId('withdraw-available')).textContent).toBe('$60.00');
    // The button withdraws the available balance; beside it, the fee and what reaches the card.
    const button = screen.getByRole('button', { name: 'Withdraw $60.00' });
    const arrives = "Instant payout: Stripe's fee is $0.59, so $59.41 reaches your Visa card ending 5556 in minutes.";
    expect(screen.getByTestId('withdraw-arrives').textContent).toBe(arrives);
    expect(button.getAttribute('aria-describedby')).toBe(screen.getByTestId('withdraw-arrives').id);
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw $60.00?' });
    expect(dialog.textContent).toContain('Instant payout to your Visa card ending 5556');
    expect(dialog.textContent).toContain('Available balance$60.00');
    expect(dialog.textContent).toContain('Stripe instant fee (you pay)$0.59');
    expect(dialog.textContent).toContain('To your card$59.41');
    expect(api.callsTo('withdraw')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw $60.00' }));
    await screen.findByText(
      "Withdrew $59.41 to your card ending 5556: an instant payout (Stripe's fee $0.59), there in minutes.",
    );
    expect(api.callsTo('withdraw')).toHaveLength(1);
    expect(api.callsTo('withdraw')[0]?.body).toMatchObject({ receive: 59.41, fee: 0.59 });
    expect(String((api.callsTo('withdraw')[0]?.body as { requestId: string }).requestId)).toMatch(/^[0-9a-f-]{36}$/);
  }, 20_000);

  it('says in words when instant is not available: standard, no fee, and when it is expected', async () => {
    const user = userEvent.setup();
    const note =
      'Instant payouts are not available (an instant payout is at most $9,999.00); paid by standard payout, no fee.';
    const api = member({
      getWithdrawalQuote: () => ({
        body: { ...quote, available: 11_000, method: 'standard', fee: 0, receive: 11_000, note },
      }),
      withdraw: () => ({
        body: {
          outcome: {
            ...outcome,
            amount: 11_000,
            transfer: 11_000,
            payout: 11_000,
            fee: 0,
            method: 'standard',
            message: `Instant payouts are not available (an instant payout is at most $9,999.00); paid by standard payout, arriving on November 30, 2026, no fee. Paid $11,000.00 to ann@example.com's debit card: 1 commission.`,
          },
        },
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    await user.click(await screen.findByRole('button', { name: 'Withdraw $11,000.00' }));
    expect(screen.getByTestId('withdraw-arrives').textContent).toBe(
      'Standard payout, free: $11,000.00 reaches your Visa card ending 5556 in 1–2 business days.',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw $11,000.00?' });
    expect(dialog.textContent).toContain(note);
    expect(dialog.textContent).not.toContain('instant fee');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw $11,000.00' }));
    await screen.findByText(
      'Withdrew $11,000.00 to your card ending 5556. Instant payouts are not available (an instant payout is at most $9,999.00); paid by standard payout, arriving on November 30, 2026, no fee.',
    );
  }, 20_000);

  it('shows the refusal in the dialog in words, and the reason instead of the button below the minimum', async () => {
    const user = userEvent.setup();
    const busy = 'A withdrawal or payout of yours is already under way. Wait for it to finish, then try again.';
    const api = member({
      getWithdrawalQuote: () => ({ body: quote }),
      withdraw: () => ({ status: 409, body: { message: busy } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    await user.click(await screen.findByRole('button', { name: 'Withdraw $60.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw $60.00?' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw $60.00' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(busy);
    cleanup();

    const low = member({
      getWithdrawalQuote: () => ({
        body: {
          ...quote,
          available: 9,
          canWithdraw: false,
          reason: 'You can withdraw once your available balance reaches $10.00.',
          method: null,
          fee: 0,
          receive: 0,
        },
      }),
    });
    renderWithAuth(<MemberApp />, low, { path: '/my_account' });
    await screen.findByText('You can withdraw once your available balance reaches $10.00.');
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Withdraw/ })).toBeNull());
  }, 20_000);

  it('keeps the confirmed figures in the dialog when a refusal empties the quote (never "Withdraw $0.00?")', async () => {
    const user = userEvent.setup();
    let refused = false;
    const api = member({
      getWithdrawalQuote: () => ({
        body: refused
          ? { ...quote, available: 0, canWithdraw: false, reason: 'Nothing yet.', method: null, fee: 0, receive: 0 }
          : quote,
      }),
      withdraw: () => {
        refused = true;
        return {
          status: 409,
          body: { message: 'Nothing is available to withdraw yet: $12.40 becomes available on 30 Nov.' },
        };
      },
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    await user.click(await screen.findByRole('button', { name: 'Withdraw $60.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw $60.00?' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw $60.00' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Nothing is available to withdraw yet: $12.40 becomes available on 30 Nov.',
    );
    await waitFor(() => expect(api.callsTo('getWithdrawalQuote').length).toBeGreaterThan(1));
    expect(screen.getByRole('dialog', { name: 'Withdraw $60.00?' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Withdraw $0.00?' })).toBeNull();
  }, 20_000);

  it('says a payout failed, why and what to do; pending funds with their day; what is still owed', async () => {
    const api = member({
      getWithdrawalQuote: () => ({
        body: {
          ...quote,
          available: 25,
          receive: 24.75,
          fee: 0.25,
          pending: [{ amount: 12.4, availableOn: '2026-11-30T00:00:00.000Z' }],
          owed: 5,
          owedNetted: 2,
          failedPayout: { amount: 25, reason: 'your bank could not process it', at: '2026-11-28T10:00:00.000Z' },
        },
      }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/my_account' });
    const banner = await screen.findByTestId('payout-failed-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('Your payout of $25.00 failed');
    expect(banner.textContent).toContain('Why: your bank could not process it. The money is back in your balance');
    expect(within(banner).getByRole('link', { name: 'Replace your card' }).getAttribute('href')).toBe(
      '/my_account/payout_methods',
    );
    expect(screen.getByTestId('withdraw-pending').textContent).toBe('$12.40 becomes available on 30 Nov');
    expect(screen.getByTestId('withdraw-owed').textContent).toBe(
      'You owe $5.00 from a refunded sale; it comes off your next payouts. The available figure is after $2.00 of it.',
    );
  });
});
