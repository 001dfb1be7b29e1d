import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, DESKTOP, expectAccessible, logInQuickly, openBrowser, PHONE_390, type BrowserSession } from './browser';
import { mailsTo, waitForMail } from './outbox';
import { fulfilledOrders, fundPlatform, payoutMember, portalStripe, type PayoutMember } from './payout-member';

/**
 * A member's payouts after the happy path (issue 34), in a real browser at 390 and 1280 px with
 * axe, against the started portal and its Stripe emulator: a withdrawal whose payout the card's
 * bank fails (from the first click to the member's mail in the outbox, then My Account's banner),
 * and Stripe's identity check (Verifying, Needs attention with the details to correct, the
 * correction sent to Stripe, Verifying again, Ready).
 */

describe('a withdrawal whose payout the bank fails', () => {
  let phone: BrowserSession;
  let desktop: BrowserSession;
  let member: PayoutMember;

  beforeAll(async () => {
    await fundPlatform(100_000);
    member = await payoutMember({ tag: 'payout-fails', firstName: 'Fay', lastName: 'Lure' });
    // Stripe's test debit card whose payouts fail (docs.stripe.com/connect/testing).
    const token = await portalStripe().tokens.create({
      card: { number: '4000056655665572', exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    });
    const { api } = await import('./browser');
    await api('addPayoutMethod', { id: member.accountId, token: token.id }, member.session.access_token);
    await fulfilledOrders(member, { count: 1, qty: 10 });
    phone = await openBrowser({ viewport: PHONE_390 });
    desktop = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await phone?.close();
    await desktop?.close();
  });

  it('withdraws from My Account, mails why it failed and what to do, and shows the banner at 390 and 1280 px', async () => {
    const { page } = phone;
    await logInQuickly(page, member, '/my_account');
    await page.getByTestId('withdraw-available').waitFor();
    expect(await page.locator('.withdraw').textContent()).toMatch(/Withdraw \$/);
    await page.getByRole('button', { name: /^Withdraw \$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // What reaches the card (the button withdraws the available balance; an instant fee may come off it).
    const amount = /To your card(\$[\d,.]+)/.exec((await dialog.textContent()) ?? '')?.[1];
    expect(amount).toBeTruthy();
    await dialog.getByRole('button', { name: /^Withdraw \$/ }).click();
    await page.getByText(/^Withdrew \$/).waitFor();

    const mail = await waitForMail(member.email, /^Your payout of \$[\d,.]+ failed$/);
    expect(mail.subject).toBe(`Your payout of ${amount} failed`);
    expect(mail.text).toContain(`Your payout of ${amount} failed: your bank could not process it.`);
    expect(mail.text).toContain('Replace your card on My Account (Payout Methods)');

    for (const [session, width] of [
      [phone, 390],
      [desktop, 1280],
    ] as const) {
      if (session === desktop) await logInQuickly(session.page, member, '/my_account');
      else await session.page.goto(at('/my_account'));
      const banner = session.page.getByTestId('payout-failed-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(`Your payout of ${amount} failed`);
      expect(await banner.textContent()).toContain('Why: your bank could not process it.');
      expect(await banner.getByRole('link', { name: 'Replace your card' }).getAttribute('href')).toBe(
        '/my_account/payout_methods',
      );
      await expectAccessible(session.page);
      await session.screenshot(`member-payout-failed-${width}`);
    }
  });
});

describe("Stripe's identity check on the payout account", () => {
  let phone: BrowserSession;
  let desktop: BrowserSession;
  let member: PayoutMember;

  beforeAll(async () => {
    const { api } = await import('./browser');
    member = await payoutMember({ tag: 'verify', firstName: 'Vera', lastName: 'Fied', debitCard: true });
    // A date of birth Stripe's test mode does not verify: the check fails a few seconds later.
    await api(
      'updatePayoutAccount',
      { dob_day: 5, dob_month: 5, dob_year: 1990, tax_id: '000000000' },
      member.session.access_token,
    );
    phone = await openBrowser({ viewport: PHONE_390 });
    desktop = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await phone?.close();
    await desktop?.close();
  });

  it('mails the member once what Stripe could not verify and where to correct it', async () => {
    const mail = await waitForMail(member.email, /^Stripe could not verify your payout details$/);
    expect(mail.text).toContain(
      'Stripe could not confirm who you are from your name, date of birth and Social Security number. Check them for typing errors.',
    );
    expect(mail.text).toContain('Correct them on My Account (Payout Account)');
    expect(mail.text).toMatch(/Correct your details:\nhttps?:\/\/[^/]+\/my_account\/payout_account\n/);
  });

  it('says Verifying, then Needs attention with the fields to correct; the correction goes to Stripe; then Ready', async () => {
    const { page } = phone;
    await logInQuickly(page, member, '/my_account/payout_account');
    await page.getByRole('heading', { name: 'Needs attention' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').first().textContent()).toContain(
      'Stripe could not confirm who you are from your name, date of birth and Social Security number.',
    );
    await expectAccessible(page);
    await phone.screenshot('member-payout-needs-attention-390');
    await logInQuickly(desktop.page, member, '/my_account/payout_account');
    await desktop.page.getByRole('heading', { name: 'Needs attention' }).waitFor();
    await expectAccessible(desktop.page);
    await desktop.screenshot('member-payout-needs-attention-1280');
    await desktop.page.goto(at('/my_account'));
    expect(await desktop.page.getByTestId('account-link-payout_account').textContent()).toContain('Needs attention');

    // Stripe's test date that verifies, and its test ID number.
    await page.getByLabel('Month').selectOption('1');
    await page.getByLabel('Day').selectOption('1');
    await page.getByLabel('Year').selectOption('1901');
    await page.getByLabel('Social Security number or ITIN').pressSequentially('000000000');
    await page.getByRole('button', { name: 'Send to Stripe for checking' }).click();
    await page.getByRole('heading', { name: 'Verifying' }).waitFor();
    await expectAccessible(page);
    await phone.screenshot('member-payout-verifying-390');
    await page.getByRole('heading', { name: 'Ready' }).waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await phone.screenshot('member-payout-ready-390');
    const account = await portalStripe().accounts.retrieve(member.accountId);
    expect(account.individual?.dob).toMatchObject({ day: 1, month: 1, year: 1901 });
    expect(account.capabilities?.transfers).toBe('active');

    await desktop.page.goto(at('/my_account/payout_account'));
    await desktop.page.getByRole('heading', { name: 'Ready' }).waitFor();
    await desktop.screenshot('member-payout-ready-1280');
    await desktop.page.goto(at('/my_account'));
    expect(await desktop.page.getByTestId('account-link-payout_account').textContent()).toContain('Ready');
    // One mail for the one failure, however many account.updated events said it.
    expect(
      mailsTo(member.email).filter((mail) => mail.subject === 'Stripe could not verify your payout details'),
    ).toHaveLength(1);
  });
});
