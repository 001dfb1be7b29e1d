import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { productDetail } from '@portal/shared/test/catalogueTesting';
import { fakeApi, renderWithAuth, showMainPicture, unauthorized } from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { LazyShopScreen } from '../lazyScreens';

/**
 * With a real publishable key the card is Stripe Elements' (its iframe cannot run here): Stripe.js
 * is replaced by a stand-in that records what the page asks of it, so the test checks what our
 * page does with Stripe's answers — the client secret and buyer it confirms with, a decline said
 * by the card field, the thank-you after a success.
 */
const stripe = vi.hoisted(() => ({ confirmCardPayment: vi.fn() }));
const card = { kind: 'card-element' };

vi.mock('@stripe/stripe-js', () => ({ loadStripe: () => Promise.resolve(stripe) }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: ReactNode }) => children,
  useStripe: () => stripe,
  useElements: () => ({ getElement: () => card }),
  CardElement: ({ onChange }: { onChange: (event: { complete: boolean; error?: { message: string } }) => void }) => (
    <button type="button" onClick={() => onChange({ complete: true })}>
      Fill the card
    </button>
  ),
}));

beforeAll(async () => {
  await LazyShopScreen.preload();
}, 30_000);

afterEach(() => {
  cleanup();
  stripe.confirmCardPayment.mockReset();
});

const api = () =>
  fakeApi({
    checkAuth: () => unauthorized,
    getSharedProduct: () => ({
      body: { product: productDetail({ id: 'p-1' }), unitAmountCents: 1295, refKnown: true },
    }),
    getPaymentConfig: () => ({ body: { publishableKey: 'pk_test_real' } }),
    getPaymentIntent: () => ({ body: { clientSecret: 'pi_9_secret_z', amount: 1295, currency: 'usd' } }),
    confirmCheckout: () => ({ body: { orderID: 'RP-ABCDEFGH', qty: 1, totalPayed: 12.95 } }),
  });

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Full name'), 'Jane Buyer');
  await user.type(screen.getByLabelText('E-mail'), 'jane@example.com');
  await user.type(screen.getByLabelText('Street address'), '1 Main St');
  await user.type(screen.getByLabelText('City'), 'Springfield');
  await user.selectOptions(screen.getByLabelText('State'), 'IL');
  await user.type(screen.getByLabelText('ZIP code'), '62701');
}

describe('the shop page with a real publishable key (Stripe Elements)', () => {
  it('asks for the card while Elements says it is incomplete, and asks Stripe nothing', async () => {
    const user = userEvent.setup();
    const fake = api();
    renderWithAuth(<MemberApp />, fake, { path: '/shop/p-1?ref=ANNLEE42' });
    await showMainPicture();
    await screen.findByRole('button', { name: 'Fill the card' });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByText('Enter your card details.')).toBeTruthy();
    expect(fake.callsTo('getPaymentIntent')).toHaveLength(0);
    expect(stripe.confirmCardPayment).not.toHaveBeenCalled();
  });

  it('confirms the intent with the card and the buyer; a decline is said by the card, then a success thanks', async () => {
    const user = userEvent.setup();
    const fake = api();
    stripe.confirmCardPayment
      .mockResolvedValueOnce({
        error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      })
      .mockResolvedValueOnce({ paymentIntent: { id: 'pi_9', status: 'succeeded' } });
    renderWithAuth(<MemberApp />, fake, { path: '/shop/p-1?ref=ANNLEE42' });
    await showMainPicture();
    await user.click(await screen.findByRole('button', { name: 'Fill the card' }));
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_9_secret_z', {
      payment_method: {
        card,
        billing_details: {
          name: 'Jane Buyer',
          email: 'jane@example.com',
          address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
        },
      },
    });
    expect(fake.callsTo('confirmCheckout')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect((await screen.findByTestId('order-number')).textContent).toBe('RP-ABCDEFGH');
    expect(fake.callsTo('confirmCheckout')[0]?.body).toEqual({ paymentIntentId: 'pi_9' });
  });
});
