import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAnswer as api,
  at,
  atBothWidths as checkAtBothWidths,
  DESKTOP,
  ensureApprovedProduct,
  logIn,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';
import { linksTo } from './outbox';

/**
 * A member's self-service in a real browser against the started portal (issue 28): the profile with
 * its display name and address search, "Recommended by" on the shop page, a new e-mail address
 * confirmed from the outbox, a new password, the debit card replaced at the Stripe emulator, and a
 * forgotten password reset by its link. Every screen is checked with axe at 390 and 1280 px.
 */
describe('a member’s self-service', () => {
  let session: BrowserSession;
  const id = randomUUID().slice(0, 8);
  let email = `e2e-self-${id}@example.com`;
  let password = 'e2e self password one';
  let shareCode = '';
  let token = '';

  /** The screen as it is now, checked and photographed at 390 px and at 1280 px. */
  const atBothWidths = (name: string, on: BrowserSession = session) => checkAtBothWidths(on, `self-${name}`);

  beforeAll(async () => {
    await ensureApprovedProduct();
    const signedUp = await api<{ access_token: string; userProfile: { shareCode: string } }>('signup', {
      email,
      password,
    });
    expect(signedUp.status).toBe(200);
    shareCode = signedUp.body.userProfile.shareCode;
    token = signedUp.body.access_token;
    session = await openBrowser({ viewport: DESKTOP });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('edits the profile with the address search and a display name', async () => {
    const { page } = session;
    await logIn(page, { email, password });
    await page.goto(at('/my_account/my_profile'));
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await atBothWidths('profile');

    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByLabel('First name').fill('Erin');
    await page.getByLabel('Last name').fill('Tester');
    await page.getByLabel('Display name (optional)').fill('Erin the e2e fan');
    await page.getByLabel('Phone (optional)').fill('(202) 555-0143');
    await page
      .getByRole('combobox', { name: 'Street address' })
      .pressSequentially('1600 Pennsylvania Ave NW, Washington DC');
    await page
      .getByRole('option', { name: /^1600 Pennsylvania Ave NW, Washington, DC/ })
      .first()
      .click();
    expect(await page.getByLabel('City').inputValue()).toBe('Washington');
    expect(await page.getByLabel('State').inputValue()).toBe('DC');
    await atBothWidths('profile-form');

    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Your profile is saved.').waitFor();
    const details = page.getByRole('region', { name: 'Your details' });
    await details.getByText('Erin the e2e fan').waitFor();
    await details.getByText('Washington', { exact: true }).waitFor();
    expect(pageErrors(session)).toEqual([]);
  });

  it('the shop page of the member’s link says “Recommended by” with the display name', async () => {
    const { page } = session;
    const products = await api<{ items: { id: string }[] }>('getApprovedProducts', { limit: 1 }, token);
    const productId = products.body.items[0]!.id;
    await page.goto(at(`/shop/${productId}?ref=${shareCode}`));
    const recommended = page.getByTestId('shop-recommended');
    await recommended.waitFor();
    expect(await recommended.textContent()).toBe('Recommended by Erin the e2e fan');
    expect(await page.content()).not.toContain(email);
    await atBothWidths('shop-recommended');
  });

  it('changes the e-mail address through the link mailed to the new one', async () => {
    const { page } = session;
    const next = `e2e-self-new-${id}@example.com`;
    await page.goto(at('/my_account/my_profile'));
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByLabel('New e-mail address').fill(next);
    await page.getByLabel('Your current password').fill(password);
    await atBothWidths('change-email-form');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`We mailed ${next}`).waitFor();
    await atBothWidths('change-email-sent');
    // Until the link is used, the old address is the login.
    expect((await api('login', { email: next, password })).status).toBe(401);

    const [link] = linksTo(next, 'E-mail change link');
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByRole('heading', { level: 1, name: 'Your e-mail is verified' }).waitFor();
    expect((await api('login', { email: next, password })).status).toBe(200);
    expect((await api('login', { email, password })).status).toBe(401);
    email = next;
  });

  it('changes the password with the current one', async () => {
    const { page } = session;
    const next = 'e2e self password two';
    await page.goto(at('/my_account/my_profile'));
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill(next);
    await atBothWidths('change-password-form');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    await atBothWidths('change-password-done');
    // This session stays: the profile still loads.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    expect((await api('login', { email, password: next })).status).toBe(200);
    password = next;
  });

  it('replaces the debit card after a confirmation naming the old one', async () => {
    const { page } = session;
    const loggedIn = await api<{ access_token: string }>('login', { email, password });
    token = loggedIn.body.access_token;
    const account = await api<{ user: { stripeID: string } }>(
      'createPayoutAccount',
      {
        social_profile: 'https://social.example.com/erin',
        first_name: 'Erin',
        last_name: 'Tester',
        phone: '2025550143',
        street_address_1: '1600 Pennsylvania Ave NW',
        city: 'Washington',
        state: 'DC',
        zipcode: '20500',
        dob_day: 1,
        dob_month: 1,
        dob_year: 1902,
        tax_id: '222222222',
        tos_accepted: true,
      },
      token,
    );
    expect(account.status).toBe(200);
    // A card token as the page's card form makes one: at the emulator, with the publishable key.
    const config = await api<{ publishableKey: string; emulatorBase: string }>('getPaymentConfig', {}, token);
    const made = await fetch(at(`${config.body.emulatorBase}/v1/tokens`), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.body.publishableKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        'card[number]': '4000056655665556',
        'card[exp_month]': '12',
        'card[exp_year]': '2034',
        'card[cvc]': '123',
        'card[currency]': 'usd',
      }).toString(),
    });
    const cardToken = ((await made.json()) as { id: string }).id;
    expect((await api('addPayoutMethod', { id: account.body.user.stripeID, token: cardToken }, token)).status).toBe(
      200,
    );

    await page.goto(at('/my_account/payout_methods'));
    await page.getByRole('button', { name: 'Replace this card' }).click();
    await page.getByRole('heading', { name: 'Replace your Visa card ending in 5556' }).waitFor();
    await atBothWidths('replace-card-confirm');
    await page.getByRole('button', { name: 'Replace the card ending in 5556' }).click();
    await page.getByLabel('Card number').fill('5200828282828210');
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('ZIP').fill('20500');
    await atBothWidths('replace-card-entry');
    await page.getByRole('button', { name: 'Add debit card' }).click();
    await page.getByText('Your new card ending in 8210 is in place').waitFor();
    expect(await page.getByTestId('payout-card').getAttribute('aria-label')).toBe(
      'MasterCard debit card ending in 8210',
    );
    await atBothWidths('replace-card-done');
  });

  it('resets a forgotten password with the mailed link, and every session ends', async () => {
    const { page } = session;
    const stranger = await openBrowser({ viewport: PHONE_390 });
    try {
      const other = stranger.page;
      await other.goto(at('/login'));
      await other.getByRole('link', { name: 'Forgot password?' }).click();
      await other.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
      await other.getByLabel('Email').fill(email);
      await other.getByRole('button', { name: 'Send me a link' }).click();
      await other.getByText('Check your inbox.').waitFor();
      await atBothWidths('forgot-sent', stranger);

      const [link] = linksTo(email, 'Password reset link');
      expect(link).toBeDefined();
      await other.goto(link!);
      await other.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      await atBothWidths('reset-form', stranger);
      const next = 'e2e self password three';
      await other.getByLabel('New password').fill(next);
      await other.getByRole('button', { name: 'Set my new password' }).click();
      await other.getByText('Your new password is set.').waitFor();
      await atBothWidths('reset-done', stranger);
      await other.goto(at('/forgot_password'));
      await other.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
      await atBothWidths('forgot-form', stranger);

      // The first browser's session ended with the others: it is sent to log in.
      await page.goto(at('/my_account/my_profile'));
      await page.waitForURL(/\/login/);
      await logIn(page, { email, password: next });
      expect(pageErrors(stranger)).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});
