import { cellTexts, findGridRow, gridRows } from '@portal/shared/test/dataTableTesting';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { preloadDataTable } from '@portal/shared/ui/components/LazyDataTable';
import { authAnswer, fakeApi, profile, renderWithAuth, Where, type FakeApi } from '@portal/shared/test/testing';
import { MemberApp } from '../../MemberApp';
import { commission, commissionPage } from '../commissions/testing';
import { formatCardNumber, formatExpiry, formatTaxId } from './format';
import { SOCIAL_PROFILE_INVALID } from '@portal/shared/api/payments';

beforeAll(async () => {
  // The grid's chunk, loaded before the screens render (as the browser would have it once a
  // table has been hovered or focused; until then a table is its plain first page).
  await preloadDataTable();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DEBIT_REFUSED = "This card doesn't appear to be a debit card.";

function renderAt(api: FakeApi, path: string) {
  return renderWithAuth(
    <>
      <MemberApp />
      <Where />
    </>,
    api,
    { path },
  );
}

const member = (flags: Parameters<typeof authAnswer>[0] = {}) =>
  fakeApi({ checkAuth: () => ({ body: authAnswer(flags) }) });

const badgeText = () => screen.queryByTestId('attention-badge')?.textContent ?? '';

async function openForm(api: FakeApi) {
  renderAt(api, '/my_account/create_payout_account');
  await screen.findByRole('heading', { level: 1, name: 'Create payout account' });
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement & HTMLSelectElement;

/** A valid form, filled as a person would (the street typed, city, state and ZIP chosen). */
async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  fireEvent.change(field('Social profile link'), { target: { value: 'https://instagram.com/ann' } });
  fireEvent.change(field('First name'), { target: { value: 'Ann' } });
  fireEvent.change(field('Last name'), { target: { value: 'Lee' } });
  fireEvent.change(field('Phone'), { target: { value: '(202) 555-0143' } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Street address' }), { target: { value: '12 Main St' } });
  fireEvent.change(field('City'), { target: { value: 'Springfield' } });
  await user.selectOptions(field('State'), 'IL');
  fireEvent.change(field('ZIP code'), { target: { value: '62701' } });
  await user.selectOptions(field('Month'), '3');
  await user.selectOptions(field('Year'), '1990');
  await user.selectOptions(field('Day'), '14');
  fireEvent.change(field('Social Security number or ITIN'), { target: { value: '000000000' } });
  await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
}

/** The message shown under a field (its aria-describedby error). */
const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .find((element) => element?.classList.contains('field__error'))?.textContent ?? null;

describe('formatting while typing', () => {
  it('inserts the tax ID dashes, keeps nine digits', () => {
    expect(formatTaxId('1234')).toBe('123-4');
    expect(formatTaxId('123456789')).toBe('123-45-6789');
    expect(formatTaxId('123-45-67890000')).toBe('123-45-6789');
    expect(formatTaxId('abc')).toBe('');
  });

  it('groups card numbers and writes the expiry MM / YY', () => {
    expect(formatCardNumber('4000056655665556')).toBe('4000 0566 5566 5556');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('4')).toBe('04');
  });
});

describe('create payout account', () => {
  it('checks every field on submit with the shared schema and shows each message under its field', async () => {
    const api = member();
    await openForm(api);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    await user.click(screen.getByRole('button', { name: 'Create Payout Account' }));
    expect(errorOf(field('Social profile link'))).toBe('The social profile link is required.');
    expect(errorOf(field('First name'))).toBe('The first name is required.');
    expect(errorOf(field('State'))).toBe('Choose a US state (2-letter code)');
    expect(errorOf(field('ZIP code'))).toBe('Enter a 5-digit ZIP code (or ZIP+4)');
    expect(errorOf(field('Social Security number or ITIN'))).toBe('The Social Security number or ITIN is required.');
    expect(errorOf(field('Apartment, unit (optional)'))).toBeNull();
    expect(document.activeElement).toBe(field('Social profile link'));
    expect(api.callsTo('createPayoutAccount')).toHaveLength(0);
  });

  it('checks a field when it loses focus', async () => {
    await openForm(member());
    const phone = field('Phone');
    fireEvent.change(phone, { target: { value: '555-01' } });
    expect(errorOf(phone)).toBeNull();
    fireEvent.blur(phone);
    expect(errorOf(phone)).toBe('Enter a 10-digit US phone number');
    fireEvent.change(phone, { target: { value: '202-555-0143' } });
    expect(errorOf(phone)).toBeNull();
  });

  it('adds https:// to a social profile link typed without it, and says so', async () => {
    await openForm(member());
    const link = field('Social profile link');
    expect(screen.queryByText(/We added https:\/\//)).toBeNull();
    fireEvent.change(link, { target: { value: ' instagram.com/ann ' } });
    fireEvent.blur(link);
    expect(link.value).toBe('https://instagram.com/ann');
    expect(errorOf(link)).toBeNull();
    expect(screen.getByText(/We added https:\/\/ to your link/)).toBeTruthy();
    expect(link.getAttribute('aria-describedby') ?? '').toContain(`${link.id}-hint`);
    // A link with its scheme stays as typed; something that is no link is refused in words.
    fireEvent.change(link, { target: { value: 'http://example.com/ann' } });
    fireEvent.blur(link);
    expect(link.value).toBe('http://example.com/ann');
    fireEvent.change(link, { target: { value: 'not a link' } });
    fireEvent.blur(link);
    expect(errorOf(link)).toBe(SOCIAL_PROFILE_INVALID);
  });

  it('inserts dashes in the tax ID while typing, as a numeric field the browser does not remember', async () => {
    await openForm(member());
    const taxId = field('Social Security number or ITIN');
    await userEvent.setup().type(taxId, '123456789');
    expect(taxId.value).toBe('123-45-6789');
    expect(taxId.getAttribute('inputmode')).toBe('numeric');
    expect(taxId.getAttribute('autocomplete')).toBe('off');
  });

  it('offers the days the chosen month has: 29 in February of a leap year, and clamps the day', async () => {
    await openForm(member());
    const user = userEvent.setup();
    const days = () => within(field('Day')).getAllByRole('option').length - 1;
    const years = within(field('Year'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(years[1]).toBe(String(new Date().getFullYear()));
    // The spec's years only (no payment config: not known to be test mode).
    expect(years.at(-1)).toBe('1937');
    expect(days()).toBe(31);
    await user.selectOptions(field('Month'), '2');
    await user.selectOptions(field('Year'), '2000');
    expect(days()).toBe(29);
    await user.selectOptions(field('Day'), '29');
    await user.selectOptions(field('Year'), '2001');
    expect(days()).toBe(28);
    expect(field('Day').value).toBe('28');
    await user.selectOptions(field('Month'), '4');
    expect(days()).toBe(30);
    expect(field('Day').value).toBe('28');
  });

  it('acts only once the terms are accepted, and says so when clicked before', async () => {
    const api = member();
    await openForm(api);
    const user = userEvent.setup();
    await fillValid(user);
    const terms = screen.getByRole('checkbox', { name: /I agree to the/ });
    await user.click(terms);
    const button = screen.getByRole('button', { name: 'Create Payout Account' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.click(button);
    expect(errorOf(terms)).toBe('Accept the Terms of Service to continue');
    expect(api.callsTo('createPayoutAccount')).toHaveLength(0);
    const link = screen.getByRole('link', { name: /Terms of Service/ });
    expect(link.getAttribute('href')).toBe('https://stripe.com/connect-account/legal');
  });

  it('shows a field the server refused next to that field, other failures in a banner', async () => {
    const api = member();
    api.on('createPayoutAccount', () => ({
      status: 400,
      body: { message: 'Check the highlighted fields.', fields: { tax_id: 'Stripe could not verify this tax ID.' } },
    }));
    await openForm(api);
    const user = userEvent.setup();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Create Payout Account' }));
    await waitFor(() =>
      expect(errorOf(field('Social Security number or ITIN'))).toBe('Stripe could not verify this tax ID.'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.callsTo('createPayoutAccount')[0]?.body).toMatchObject({
      tax_id: '000-00-0000',
      state: 'IL',
      dob_day: 14,
      dob_month: 3,
      dob_year: 1990,
      tos_accepted: true,
    });

    api.on('createPayoutAccount', () => ({ status: 503, body: { message: 'Stripe is not answering. Try again.' } }));
    await user.click(screen.getByRole('button', { name: 'Create Payout Account' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Stripe is not answering. Try again.');
  });

  it('on success takes the new profile at once (the badges follow) and goes on to the payout methods', async () => {
    const api = member();
    const created = profile({ isAccountCreated: 1, stripeID: 'acct_1' });
    api.on('createPayoutAccount', () => ({ body: { user: created } }));
    api.on('getExternalAccounts', () => ({ body: [] }));
    api.on('getPaymentConfig', () => ({ body: { publishableKey: 'pk_test_x', emulatorBase: '/stripe-emulator' } }));
    await openForm(api);
    expect(badgeText()).toBe('Action needed: Create your payout account. Add a debit card.');
    const user = userEvent.setup();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Create Payout Account' }));
    await screen.findByRole('heading', { level: 1, name: 'Payout Methods' });
    expect(screen.getByTestId('where').textContent).toBe('/my_account/payout_methods');
    expect(await screen.findByText('Your payout account is created. Now add a debit card to get paid.')).toBeTruthy();
    // The badges follow the new profile without another checkAuth (a render may still be on its way under load).
    await waitFor(() => expect(badgeText()).toBe('Action needed: Add a debit card.'), { timeout: 5000 });
    expect(api.callsTo('checkAuth')).toHaveLength(1);
  });

  it('says so when the account exists already, and links on', async () => {
    renderAt(member({ isAccountCreated: 1, stripeID: 'acct_1' }), '/my_account/create_payout_account');
    expect(await screen.findByText('Your payout account is already created.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add a debit card' }).getAttribute('href')).toBe(
      '/my_account/payout_methods',
    );
  });
});

describe('payout account', () => {
  it('prompts to create one, or shows the total and an empty commission list', async () => {
    renderAt(member(), '/my_account/payout_account');
    expect(await screen.findByText('Create your payout account to get paid')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create payout account' }).getAttribute('href')).toBe(
      '/my_account/create_payout_account',
    );
    cleanup();
    const api = member({ isAccountCreated: 1, stripeID: 'acct_1' });
    api.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderAt(api, '/my_account/payout_account');
    expect(await screen.findByText('Commissions You Made')).toBeTruthy();
    expect(screen.getByTestId('commissions-paid').textContent).toBe('$0.00');
    expect(await screen.findByText('No commissions yet.')).toBeTruthy();
  });

  it('says Verifying while Stripe checks the account, and what Stripe needs in words when it could not verify it', async () => {
    const verifying = member({
      isAccountCreated: 1,
      isPayoutMethodAdded: 1,
      stripeID: 'acct_1',
      payoutAccount: {
        transfers: 'pending',
        payoutsEnabled: false,
        requirementsDue: [],
        pendingVerification: ['individual.id_number'],
        errors: [],
      },
    });
    verifying.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderAt(verifying, '/my_account/payout_account');
    const heading = await screen.findByRole('heading', { name: 'Verifying' });
    expect(heading.closest('section')?.getAttribute('role')).toBe('status');
    expect(heading.closest('section')?.textContent).toContain('Stripe is verifying your details.');
    cleanup();
    const failed = member({
      isAccountCreated: 1,
      isPayoutMethodAdded: 1,
      stripeID: 'acct_1',
      payoutAccount: {
        transfers: 'inactive',
        payoutsEnabled: false,
        requirementsDue: ['individual.verification.document'],
        pendingVerification: [],
        errors: [
          {
            requirement: 'individual.verification.document',
            code: 'verification_failed_keyed_identity',
            reason: 'The identity information you entered cannot be verified.',
          },
        ],
      },
    });
    failed.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderAt(failed, '/my_account/payout_account');
    const needs = await screen.findByRole('heading', { name: 'Needs attention' });
    const alert = within(needs.closest('section')!).getByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Stripe could not confirm who you are from your name, date of birth and Social Security number. Check them for typing errors.',
    ]);
    // The details Stripe's keyed identity check reads, to correct and send to Stripe: name, date of birth, tax ID.
    failed.on('updatePayoutAccount', () => ({
      body: {
        user: profile({
          isAccountCreated: 1,
          isPayoutMethodAdded: 1,
          stripeID: 'acct_1',
          payoutAccount: {
            transfers: 'pending',
            payoutsEnabled: false,
            requirementsDue: [],
            pendingVerification: ['individual.dob.day'],
            errors: [],
          },
        }),
      },
    }));
    const user = userEvent.setup();
    expect(screen.getByRole('group', { name: 'Your legal name' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Home address' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send to Stripe for checking' }));
    // Nothing sent while a field is missing; the first one says why and has the focus.
    expect(failed.callsTo('updatePayoutAccount')).toHaveLength(0);
    expect(errorOf(field('Month'))).toBe('The month of birth is required.');
    fireEvent.change(field('First name'), { target: { value: 'Ann' } });
    fireEvent.change(field('Last name'), { target: { value: 'Lee' } });
    await user.selectOptions(field('Month'), '1');
    await user.selectOptions(field('Day'), '1');
    await user.selectOptions(field('Year'), '1990');
    fireEvent.change(field('Social Security number or ITIN'), { target: { value: '000000000' } });
    await user.click(screen.getByRole('button', { name: 'Send to Stripe for checking' }));
    await screen.findByRole('heading', { name: 'Verifying' });
    expect(failed.callsTo('updatePayoutAccount').map((call) => call.body)).toEqual([
      { first_name: 'Ann', last_name: 'Lee', dob_month: 1, dob_day: 1, dob_year: 1990, tax_id: '000-00-0000' },
    ]);
  });

  it('says Ready once Stripe verified the account, on the screen and on My Account', async () => {
    const ready = member({
      isAccountCreated: 1,
      isPayoutMethodAdded: 1,
      stripeID: 'acct_1',
      payoutAccount: {
        transfers: 'active',
        payoutsEnabled: true,
        requirementsDue: [],
        pendingVerification: [],
        errors: [],
      },
    });
    ready.on('getCommisionsByUser', () => ({ body: commissionPage() }));
    renderAt(ready, '/my_account/payout_account');
    const heading = await screen.findByRole('heading', { name: 'Ready' });
    expect(heading.closest('section')?.textContent).toContain(
      'Stripe verified your details: your commissions are paid to your debit card.',
    );
  });

  it('shows the member’s own commissions: date, product, order ID, amount, status in words (on hold until its date) and a payout failure', async () => {
    const user = userEvent.setup();
    const items = [
      commission({
        id: 'c-0',
        orderID: 'RP-PAID0001',
        amount: 12.5,
        state: 'paid',
        status: 'paid',
        isPayed: 1,
        isInCustomersAccount: 1,
        // Its standard payout is in transit until Stripe's arrival_date.
        payoutExpected: '2026-11-23T00:00:00.000Z',
      }),
      commission({
        id: 'c-1',
        orderID: 'RP-STRIPE01',
        state: 'in_stripe',
        status: 'in_stripe',
        isInCustomersAccount: 1,
        payoutFailure: 'The card was declined by the bank.',
      }),
      ...Array.from({ length: 5 }, (_, index) =>
        commission({
          id: `c-p${index}`,
          orderID: `RP-PROC000${index}`,
          status: 'on_hold',
          availableAt: '2026-12-05T10:00:00.000Z',
        }),
      ),
    ];
    const api = member({ isAccountCreated: 1, stripeID: 'acct_1' });
    api.on('getCommisionsByUser', () => ({ body: commissionPage(items, { paid: 12.5, processing: 15.54 }) }));
    renderAt(api, '/my_account/payout_account');
    const table = await screen.findByTestId('commission-table');
    expect(screen.getByTestId('commissions-paid').textContent).toBe('$12.50');
    expect(screen.getByTestId('commissions-processing').textContent).toBe('$15.54');
    const first = await findGridRow('c-0', table);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent?.trim()),
    ).toEqual(['Date', 'Product', 'Order ID', 'Amount', 'Status']);
    // Five a page by default.
    await waitFor(() => expect(gridRows(table)).toHaveLength(5));
    expect(cellTexts(first)).toEqual([
      'November 21st, 2026 8:08 PM',
      'Merino Wool Crew Socks (3 Pack)',
      'RP-PAID0001',
      '$12.50',
      'Paid: on its way, expected November 23rd, 2026',
    ]);
    const failed = await findGridRow('c-1', table);
    expect(failed.textContent).toContain('In Stripe. Payout failed: The card was declined by the bank.');
    expect((await findGridRow('c-p0', table)).textContent).toContain('On hold until December 5th, 2026');
    const size = within(table).getByLabelText('Rows per page') as HTMLSelectElement;
    expect([...size.options].map((option) => option.textContent)).toEqual([
      '5',
      '7',
      '10',
      '15',
      '20',
      '25',
      '50',
      'All',
    ]);
    await user.selectOptions(size, 'All');
    await waitFor(() => expect(gridRows(table)).toHaveLength(7));
    expect(api.callsTo('getCommisionsByUser')[0]?.body).toMatchObject({ id: 'user-1' });
  });
});

describe('payout methods', () => {
  const withAccount = (flags: Parameters<typeof authAnswer>[0] = {}) => {
    const api = member({ isAccountCreated: 1, stripeID: 'acct_1', ...flags });
    api.on('getPaymentConfig', () => ({ body: { publishableKey: 'pk_test_pair', emulatorBase: '/stripe-emulator' } }));
    return api;
  };

  it('shows the card the account has', async () => {
    const api = withAccount({ isPayoutMethodAdded: 1 });
    api.on('getExternalAccounts', () => ({ body: [{ brand: 'Visa', exp_month: 4, exp_year: 2031, last4: '5556' }] }));
    renderAt(api, '/my_account/payout_methods');
    const card = await screen.findByTestId('payout-card');
    expect(card.getAttribute('aria-label')).toBe('Visa debit card ending in 5556');
    expect(card.textContent).toContain('04/2031');
    expect(api.callsTo('getExternalAccounts')[0]?.body).toEqual({ id: 'acct_1' });
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });

  it('says to create the payout account first when there is none', async () => {
    renderAt(member(), '/my_account/payout_methods');
    expect(await screen.findByText('Create your payout account first')).toBeTruthy();
  });

  it('makes the token at the emulator as Stripe.js would, shows a credit card refused in red, then adds a debit card', async () => {
    const api = withAccount();
    api.on('getExternalAccounts', () => ({ body: [] }));
    api.on('addPayoutMethod', () => ({
      status: 400,
      body: { message: DEBIT_REFUSED, fields: { token: DEBIT_REFUSED } },
    }));
    const tokens: { url: string; init: RequestInit | undefined }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      tokens.push({ url, init });
      return new Response(JSON.stringify({ id: `tok_${tokens.length}`, object: 'token' }), { status: 200 });
    });
    renderAt(api, '/my_account/payout_methods');
    const user = userEvent.setup();
    const number = (await screen.findByLabelText('Card number')) as HTMLInputElement;
    expect(number.getAttribute('autocomplete')).toBe('cc-number');
    expect(screen.getByTestId('test-cards-hint').textContent).toContain('4000 0566 5566 5556');
    await user.type(number, '4242424242424242');
    expect(number.value).toBe('4242 4242 4242 4242');
    await user.type(screen.getByLabelText('Expiry'), '1234');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.type(screen.getByLabelText('ZIP'), '62701');
    await user.click(screen.getByRole('button', { name: 'Add debit card' }));
    await waitFor(() => expect(errorOf(number)).toBe(DEBIT_REFUSED));
    expect(screen.queryByTestId('payout-card')).toBeNull();
    expect(badgeText()).toBe('Action needed: Add a debit card.');

    expect(tokens[0]?.url).toBe('/stripe-emulator/v1/tokens');
    expect(new Headers(tokens[0]?.init?.headers).get('authorization')).toBe('Bearer pk_test_pair');
    expect(Object.fromEntries(new URLSearchParams(String(tokens[0]?.init?.body)))).toMatchObject({
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '2034',
      'card[cvc]': '123',
      'card[currency]': 'usd',
    });
    expect(api.callsTo('addPayoutMethod')[0]?.body).toEqual({ id: 'acct_1', token: 'tok_1' });

    api.on('addPayoutMethod', () => ({
      body: {
        user: profile({ isAccountCreated: 1, isPayoutMethodAdded: 1, stripeID: 'acct_1' }),
        card: { brand: 'Visa', exp_month: 12, exp_year: 2034, last4: '5556' },
      },
    }));
    await user.clear(number);
    await user.type(number, '4000056655665556');
    await user.click(screen.getByRole('button', { name: 'Add debit card' }));
    const card = await screen.findByTestId('payout-card');
    expect(card.getAttribute('aria-label')).toBe('Visa debit card ending in 5556');
    expect(screen.queryByTestId('attention-badge')).toBeNull();
  });
});
