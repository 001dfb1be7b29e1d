import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  at,
  atBothWidths as checkAtBothWidths,
  DESKTOP,
  ensureApprovedProduct,
  logIn,
  openBrowser,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * Link statistics in a real browser against the started portal (issue 39): a customer's visit of a
 * share page is counted once (a headless browser's is not: it is a bot to isbot), the member sees it
 * on My Account's chart and table, and the admin on Link statistics with the funnel, each screen
 * checked with axe and for overflow at 390 and 1280 px.
 */

/** An ordinary desktop Chrome, as a customer's browser says it is. */
const CUSTOMER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('link statistics', () => {
  const id = randomUUID().slice(0, 8);
  const email = `e2e-links-${id}@example.com`;
  const password = 'e2e links password';
  let shareCode = '';
  let productId = '';
  const sessions: BrowserSession[] = [];

  const atBothWidths = (name: string, session: BrowserSession) => checkAtBothWidths(session, `links-${name}`);

  /** Opens the share page and answers what countVisit said. */
  async function openSharePage(page: Page) {
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/countVisit'));
    await page.goto(at(`/shop/${productId}?ref=${shareCode}`));
    return (await (await answer).json()) as { visitId: string | null; counted: boolean };
  }

  beforeAll(async () => {
    await ensureApprovedProduct();
    const signedUp = await api<{ access_token: string; userProfile: { shareCode: string } }>('signup', {
      email,
      password,
    });
    shareCode = signedUp.userProfile.shareCode;
    const { items } = await api<{ items: { id: string }[] }>(
      'getApprovedProducts',
      { limit: 1 },
      signedUp.access_token,
    );
    productId = items[0]!.id;
  }, 120_000);

  afterAll(async () => {
    for (const session of sessions) await session.close();
  });

  it('counts a customer’s visit of a share page once an hour, and not a headless browser’s', async () => {
    const customer = await openBrowser({ viewport: PHONE_390 });
    sessions.push(customer);
    // Playwright's Chromium says HeadlessChrome: a bot, not counted.
    expect(await openSharePage(customer.page)).toEqual({ visitId: null, counted: false });
    await customer.context.setExtraHTTPHeaders({ 'user-agent': CUSTOMER_AGENT });
    const first = await openSharePage(customer.page);
    expect(first.counted).toBe(true);
    expect(first.visitId).toMatch(/^[0-9a-f]{32}$/);
    // A reload within the hour: the same visit, not counted again.
    expect(await openSharePage(customer.page)).toEqual({ visitId: first.visitId, counted: false });
  });

  it('shows the member the visit on My Account: the chart, its totals, the days as a table', async () => {
    const member = await openBrowser({ viewport: DESKTOP });
    sessions.push(member);
    const { page } = member;
    await logIn(page, { email, password });
    await page.goto(at('/my_account'));
    await page.getByRole('heading', { level: 2, name: 'Your links' }).waitFor();
    const chart = page.getByRole('img', { name: /^Visits by day, / });
    await chart.waitFor();
    const totals = page.getByLabel('The last 90 days');
    expect(await totals.getByRole('definition').first().textContent()).toBe('1');
    await atBothWidths('member', member);
    await page.getByText('Show the days as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    const row = page.getByRole('row', { name: new RegExp(`^${today}`) });
    expect(await row.getByRole('cell').first().textContent()).toBe('1');
    await page.getByRole('radio', { name: 'Your earnings' }).check();
    await page.getByRole('img', { name: /^Your earnings by day, / }).waitFor();
    await atBothWidths('member-table', member);
  });

  it('shows the admin every link with the funnel, and one member’s links by e-mail', async () => {
    const admin = await openBrowser({ viewport: DESKTOP });
    sessions.push(admin);
    const { page } = admin;
    await logIn(page, inject('accounts').admin);
    await page.goto(at('/admin/link_statistics'));
    await page.getByRole('heading', { level: 1, name: 'Link statistics' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'All links' }).waitFor();
    await page.getByRole('region', { name: 'Funnel' }).waitFor();
    await atBothWidths('admin-all', admin);

    await page.getByLabel("Member's e-mail").fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No member has this e-mail address.').waitFor();
    await atBothWidths('admin-unknown', admin);

    await page.getByLabel("Member's e-mail").fill(email);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { level: 2, name: `The links of ${email}` }).waitFor();
    const funnel = page.getByRole('region', { name: 'Funnel' });
    expect(await funnel.getByRole('listitem').first().textContent()).toBe('Visits1 (100 %)');
    await atBothWidths('admin-member', admin);
  });
});
