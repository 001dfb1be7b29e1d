import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, DESKTOP, expectAccessible, openBrowser, pageErrors, type BrowserSession } from './browser';
import { mailsTo } from './outbox';

/**
 * E-mail verification in a real browser: a new member's profile shows the unverified hint until
 * the link the portal wrote to its outbox (.local/outbox under npm start) is followed.
 */
function linkFor(email: string): string {
  const links = mailsTo(email).map((mail) => mail.link?.url);
  expect(links, `the outbox holds one mail for ${email}`).toHaveLength(1);
  return links[0]!;
}

describe('e-mail verification', () => {
  let session: BrowserSession;
  const email = `e2e-verify-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    session = await openBrowser({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the hint on My Profile until the outbox link is followed', async () => {
    const { page } = session;
    await page.goto(at('/signup'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('e2e-verify-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(at('/'));

    await page.goto(at('/my_account/my_profile'));
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await page.getByText('Check your email and click the verification link').waitFor();
    await expectAccessible(page);
    await session.screenshot('my-profile-unverified-desktop');

    const link = linkFor(email);
    expect(new URL(link).origin).toBe(new URL(at('/')).origin);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Your e-mail is verified' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Go to My Profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await page.getByText('Verified', { exact: true }).waitFor();
    expect(await page.getByText('Check your email and click the verification link').count()).toBe(0);

    // The same link again: already used.
    // The same link again: already used, which means the address is verified. Only that shows,
    // with no "not verified" title or error banner over it.
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Your e-mail is already verified' }).waitFor();
    await page.getByText('your e-mail address is verified already').waitFor();
    expect(await page.getByText('not verified').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page);
    await session.screenshot('verify-link-used-again-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await session.screenshot('verify-link-used-again-phone');
    expect(pageErrors(session)).toEqual([]);
  });
});
