import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { productDetail } from '@portal/shared/test/catalogueTesting';
import {
  fakeApi,
  renderWithAuth,
  showMainPicture,
  unauthorized,
  Where,
  type FakeApi,
} from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { LazyShopScreen } from '../lazyScreens';

// The shop page is a lazy chunk (with the carousel): load it once before the tests, not inside the first one's time.
beforeAll(async () => {
  await LazyShopScreen.preload();
}, 30_000);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CLIENT_SECRET = 'pi_123_secret_abc';

/** A logged-out visitor's fake /api: the shared product, the emulator's payment config, the checkout calls. */
function shop(handlers: Parameters<typeof fakeApi>[0] = {}): FakeApi {
  return fakeApi({
    checkAuth: () => unauthorized,
    getSharedProduct: () => ({
      body: {
        product: productDetail({
          id: 'p-1',
          html_description: '<p>Knit from <strong>merino</strong>.</p><script>x</script>',
        }),
        unitAmountCents: 1295,
        refKnown: true,
      },
    }),
    getPaymentConfig: () => ({ body: { publishableKey: 'pk_test_pair', emulatorBase: '/stripe-emulator' } }),
    getPaymentIntent: ({ body }) => ({
      body: { clientSecret: CLIENT_SECRET, amount: (body as { amount: number }).amount, currency: 'usd' },
    }),
    confirmCheckout: () => ({ body: { orderID: 'RP-7F3K9Q2M', qty: 2, totalPayed: 25.9 } }),
    // Not counted (as for a bot) unless a test says otherwise: no visit id goes with the checkout.
    countVisit: () => ({ body: { visitId: null, counted: false } }),
    ...handlers,
  });
}

interface StripeCall {
  url: string;
  form: Record<string, string>;
  authorization: string | null;
}

/** The emulator behind /stripe-emulator as the browser reaches it: a decline at the card token for 4000…0002. */
function stubEmulator(): StripeCall[] {
  const calls: StripeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const form = Object.fromEntries(new URLSearchParams(String(init?.body ?? '')));
      calls.push({ url, form, authorization: new Headers(init?.headers).get('authorization') });
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (url.endsWith('/v1/tokens')) {
        if (form['card[number]'] === '4000000000000002') {
          return json(402, {
            error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
          });
        }
        return json(200, { id: 'tok_1', object: 'token' });
      }
      if (url.endsWith('/v1/payment_methods')) return json(200, { id: 'pm_1', object: 'payment_method' });
      if (url.endsWith('/v1/payment_intents/pi_123/confirm')) {
        return json(200, { id: 'pi_123', object: 'payment_intent', status: 'succeeded' });
      }
      return json(404, { error: { message: 'Unexpected' } });
    }),
  );
  return calls;
}

/** Opens the shop page; its first picture then loads, as in a browser, and the Buy form follows. */
async function renderShop(api: FakeApi, path = '/shop/p-1?ref=ANNLEE42') {
  renderWithAuth(
    <>
      <MemberApp />
      <Where />
    </>,
    api,
    { path },
  );
  await showMainPicture();
}

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement & HTMLSelectElement;

async function fillBuyer(user: ReturnType<typeof userEvent.setup>, card = '4242 4242 4242 4242') {
  await user.type(input('Full name'), 'Jane Buyer');
  await user.type(input('E-mail'), 'jane@example.com');
  await user.type(input('Street address'), '1 Main St');
  await user.type(input('City'), 'Springfield');
  await user.selectOptions(input('State'), 'IL');
  await user.type(input('ZIP code'), '62701');
  await user.type(await screen.findByLabelText('Card number'), card);
  await user.type(input('Expiry'), '1234');
  await user.type(input('CVC'), '123');
}

const setQty = (value: string) => fireEvent.change(input('Quantity'), { target: { value } });

describe('the customer’s shop page', () => {
  it('shows the shared product to a logged-out visitor, with no menu: images, name, brand, sell price, description', async () => {
    const stripe = stubEmulator();
    const api = shop();
    await renderShop(api);
    const name = await screen.findByText('Merino Wool Crew Socks (3 Pack)', { selector: 'h1' });
    expect(name.id).toBe('product-name');
    expect(api.callsTo('getSharedProduct')[0]?.body).toEqual({ id: 'p-1', ref: 'ANNLEE42' });
    expect(api.callsTo('getSharedProduct')[0]?.authorization).toBeNull();
    expect(screen.getByTestId('product-brand').textContent).toBe('Trailhead');
    expect(screen.getByTestId('shop-price').textContent).toBe('$12.95');
    // The sanitizer loads when the description first renders (SafeHtml): the markup follows.
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
    expect(document.querySelector('script')).toBeNull();
    expect(
      document.querySelector('.product-detail__name')?.closest('article')?.querySelector('.carousel'),
    ).toBeTruthy();
    // The store layout: no top bar, no menu button, no drawer.
    expect(document.querySelector('.topbar')).toBeNull();
    expect(screen.queryByLabelText(/menu/i)).toBeNull();
    expect(screen.queryByText('You Make', { exact: false })).toBeNull();
    expect(await screen.findByTestId('test-cards-hint')).toBeTruthy();
    expect(stripe).toHaveLength(0);
  });

  it('asks for the Buy form and the payment config only once the first picture is shown', async () => {
    stubEmulator();
    const api = shop();
    renderWithAuth(<MemberApp />, api, { path: '/shop/p-1?ref=ANNLEE42' });
    await screen.findByText('Merino Wool Crew Socks (3 Pack)', { selector: 'h1' });
    // The picture has not loaded: its card says the checkout is coming, and nothing of it was asked for.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('region', { name: 'Buy' }).textContent).toContain('Loading the checkout…');
    expect(screen.queryByLabelText('Quantity')).toBeNull();
    expect(api.callsTo('getPaymentConfig')).toHaveLength(0);
    expect(document.querySelectorAll('.carousel img')).toHaveLength(1);
    await showMainPicture();
    expect(await screen.findByLabelText('Quantity')).toBeTruthy();
    expect(await screen.findByTestId('test-cards-hint')).toBeTruthy();
    expect(api.callsTo('getPaymentConfig')).toHaveLength(1);
    expect(document.querySelectorAll('.carousel img').length).toBeGreaterThan(1);
  });

  it('says a product that is gone is no longer available', async () => {
    renderWithAuth(
      <MemberApp />,
      shop({ getSharedProduct: () => ({ status: 404, body: { message: 'This product is not available.' } }) }),
      { path: '/shop/p-1?ref=ANNLEE42' },
    );
    expect(await screen.findByText('This product is no longer available.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('says a product withdrawn from sale was withdrawn, with nothing to buy', async () => {
    renderWithAuth(
      <MemberApp />,
      shop({
        getSharedProduct: () => ({
          status: 404,
          body: { message: 'This product has been withdrawn from sale and can no longer be bought.' },
        }),
      }),
      { path: '/shop/p-1?ref=ANNLEE42' },
    );
    expect(await screen.findByText('This product has been withdrawn from sale.')).toBeTruthy();
    expect(screen.getByText(/It can no longer be bought/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('the total follows the quantity (unit price × qty), and a quantity outside 1–99 is refused', async () => {
    await renderShop(shop());
    const total = await screen.findByTestId('checkout-total');
    expect(total.textContent).toBe('$12.95');
    setQty('3');
    expect(total.textContent).toBe('$38.85');
    expect(screen.getByRole('button', { name: 'Pay $38.85' })).toBeTruthy();
    setQty('100');
    fireEvent.blur(input('Quantity'));
    expect(total.textContent).toBe('—');
    expect(await screen.findByText('Choose a quantity from 1 to 99')).toBeTruthy();
  });

  it('checks the buyer with the Customer schema on blur and on submit, and asks for no payment while anything is wrong', async () => {
    const user = userEvent.setup();
    stubEmulator();
    const api = shop();
    await renderShop(api);
    await screen.findByLabelText('Card number');
    await user.type(input('E-mail'), 'not-an-email');
    await user.tab();
    expect(input('E-mail').getAttribute('aria-invalid')).toBe('true');
    await user.type(input('ZIP code'), '123');
    await user.tab();
    expect(await screen.findByText('Enter a 5-digit ZIP code (or ZIP+4)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(input('Full name').getAttribute('aria-invalid')).toBe('true');
    expect(await screen.findByText('Choose a US state (2-letter code)')).toBeTruthy();
    expect(screen.getByText('Enter your card number.')).toBeTruthy();
    expect(document.activeElement).toBe(input('Full name'));
    expect(api.callsTo('getPaymentIntent')).toHaveLength(0);
  });

  it('pays: the intent request carries amount, qty, ref, checkoutId and the customer; then the emulator confirms and the thank-you shows the order', async () => {
    const user = userEvent.setup();
    const stripe = stubEmulator();
    const api = shop();
    await renderShop(api);
    await screen.findByLabelText('Card number');
    setQty('2');
    await fillBuyer(user);
    await user.click(screen.getByRole('button', { name: 'Pay $25.90' }));
    expect(await screen.findByTestId('thank-you')).toBeTruthy();
    const [request] = api.callsTo('getPaymentIntent');
    expect(request?.authorization).toBeNull();
    expect(request?.body).toEqual({
      id: 'p-1',
      amount: 2590,
      qty: 2,
      ref: 'ANNLEE42',
      checkoutId: expect.stringMatching(/^[A-Za-z0-9-]{16,64}$/),
      customer: {
        name: 'Jane Buyer',
        email: 'jane@example.com',
        address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701' },
      },
    });
    expect(stripe.map((call) => call.url)).toEqual([
      '/stripe-emulator/v1/tokens',
      '/stripe-emulator/v1/payment_methods',
      '/stripe-emulator/v1/payment_intents/pi_123/confirm',
    ]);
    expect(stripe.every((call) => call.authorization === 'Bearer pk_test_pair')).toBe(true);
    expect(stripe[0]?.form).toMatchObject({
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '2034',
    });
    expect(stripe[1]?.form).toEqual({ type: 'card', 'card[token]': 'tok_1' });
    expect(stripe[2]?.form).toEqual({ payment_method: 'pm_1', client_secret: CLIENT_SECRET });
    expect(api.callsTo('confirmCheckout')[0]?.body).toEqual({ paymentIntentId: 'pi_123' });
    const thanks = screen.getByTestId('thank-you');
    expect(within(thanks).getByRole('heading', { level: 1, name: 'Thank you for your order!' })).toBeTruthy();
    expect(within(thanks).getByTestId('order-number').textContent).toBe('RP-7F3K9Q2M');
    expect(within(thanks).getByTestId('total-paid').textContent).toBe('$25.90');
    // The payment's id is in the address now, so that a reload shows this thank-you again.
    // (The router applies the address change in a transition of its own: under load it lands a
    // render after the thank-you.)
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/shop/p-1?ref=ANNLEE42&paid=pi_123'));
  });

  it('opened again with the paid payment in its address (a reload), reads the order back and shows the thank-you, no Buy form', async () => {
    const api = shop();
    renderWithAuth(<MemberApp />, api, { path: '/shop/p-1?ref=ANNLEE42&paid=pi_123' });
    const thanks = await screen.findByTestId('thank-you');
    expect(api.callsTo('confirmCheckout').map((call) => call.body)).toEqual([{ paymentIntentId: 'pi_123' }]);
    expect(within(thanks).getByTestId('order-number').textContent).toBe('RP-7F3K9Q2M');
    expect(within(thanks).getByTestId('total-paid').textContent).toBe('$25.90');
    expect(await within(thanks).findByText('Product')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(api.callsTo('getPaymentIntent')).toHaveLength(0);
    expect(document.title).toMatch(/^Thank you/);
  });

  it('counts the visit once, after the product is shown, and carries its id into the payment intent request', async () => {
    const user = userEvent.setup();
    stubEmulator();
    const visitId = 'a'.repeat(32);
    const api = shop({ countVisit: () => ({ body: { visitId, counted: true } }) });
    await renderShop(api);
    await screen.findByLabelText('Card number');
    expect(api.callsTo('countVisit').map((request) => [request.body, request.authorization])).toEqual([
      [{ id: 'p-1', ref: 'ANNLEE42' }, null],
    ]);
    await fillBuyer(user);
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByTestId('thank-you')).toBeTruthy();
    expect(api.callsTo('getPaymentIntent')[0]?.body).toMatchObject({ id: 'p-1', visitId });
    expect(api.callsTo('countVisit')).toHaveLength(1);
  });

  it('a paid payment whose order cannot be read says so in words, with Retry, and offers no Buy form', async () => {
    const api = shop({
      confirmCheckout: () => ({ status: 409, body: { message: 'This payment has not been made.' } }),
    });
    renderWithAuth(<MemberApp />, api, { path: '/shop/p-1?ref=ANNLEE42&paid=pi_404' });
    expect(
      await screen.findByRole('heading', { level: 1, name: "We could not load your order's confirmation" }),
    ).toBeTruthy();
    expect(screen.getByText('This payment has not been made.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Retry|Try again/ })).toBeTruthy();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.queryByTestId('thank-you')).toBeNull();
  });

  it('a declined card is said in plain words by the card field, and nothing is recorded; the same checkout is tried again', async () => {
    const user = userEvent.setup();
    stubEmulator();
    const api = shop();
    await renderShop(api);
    await screen.findByLabelText('Card number');
    await fillBuyer(user, '4000 0000 0000 0002');
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(input('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('confirmCheckout')).toHaveLength(0);
    expect(screen.queryByTestId('thank-you')).toBeNull();
    await user.clear(input('Card number'));
    await user.type(input('Card number'), '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByTestId('thank-you')).toBeTruthy();
    const [first, second] = api.callsTo('getPaymentIntent') as { body: { checkoutId: string } }[];
    expect(second?.body.checkoutId).toBe(first?.body.checkoutId);
  });

  it('a payment the server refuses to start is said in words, with no card charged', async () => {
    const user = userEvent.setup();
    const stripe = stubEmulator();
    const api = shop({
      getPaymentIntent: () => ({ status: 404, body: { message: 'This product is no longer available.' } }),
    });
    await renderShop(api);
    await screen.findByLabelText('Card number');
    await fillBuyer(user);
    await user.click(screen.getByRole('button', { name: 'Pay $12.95' }));
    expect(await screen.findByText('This product is no longer available.')).toBeTruthy();
    await waitFor(() => expect(stripe).toHaveLength(0));
  });
});
