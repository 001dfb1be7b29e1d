import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatCents, parsePrice, youMakeCents } from '../../shared/src/domain/money';
import {
  at,
  DESKTOP,
  expectAccessible,
  logIn,
  logInQuickly,
  openBrowser,
  pageErrors,
  PHONE,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * The catalogue in a real browser against the started portal: an admin imports the supplier's
 * CSV, follows the import, approves one product and bans another; a member finds the approved
 * one with the right 'You Make', moves through its carousel (past both ends) and reloads it.
 * Then descriptions carrying script payloads are imported, approved and opened in both apps
 * without anything running, and a file over 4 MB takes the presigned-POST way to the bucket.
 *
 * The portal is shared with the other e2e files: products are found by name, never by position,
 * and no step assumes an empty catalogue. Product photos live on a made-up CDN
 * (img.northwind-cdn.test); the browser is answered with drawn pictures for them, except for one
 * product whose images fail on purpose so that the placeholder shows.
 */

const baseUrl = inject('portalUrl');
const accounts = inject('accounts');

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = (name: string) => join(repoRoot, 'test', 'fixtures', 'csv', name);

const SOCKS = 'Merino Wool Crew Socks (3 Pack)';
const SOCKS_SELL = '12.95';
const SOCKS_IMAGES = 5; // three image slots and two additional images
const BOARD = 'Bamboo Cutting Board Set';
const LAMP = 'LED Desk Lamp with USB-C Charging Port';
const TRACKER = 'Fitness Tracker Band';

/** Payloads a compromised server could send; each one would record itself in window.__xss if it ran. */
const INJECTED_PAYLOADS = [
  `<img src="x" onerror="window.__xss.push('img onerror')">`,
  `<script>window.__xss.push('script')</script>`,
  `<a href="javascript:window.__xss.push('javascript link')" id="xss-link">Injected link</a>`,
  `<svg onload="window.__xss.push('svg onload')"><circle r="4"></circle></svg>`,
  `<iframe srcdoc="<script>parent.__xss.push('iframe')</script>"></iframe>`,
  `<p onclick="window.__xss.push('onclick')" style="background:url(javascript:window.__xss.push('css'))">Styled</p>`,
  `<details open ontoggle="window.__xss.push('ontoggle')"><summary>More</summary></details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.__xss.push('mxss')">`,
].join('');

/** Before any page script: record every alert/confirm/prompt (the fixture's payloads call alert). */
const RECORD_DIALOG_CALLS = `
  window.__xss = [];
  for (const name of ['alert', 'confirm', 'prompt']) {
    const original = window[name];
    window[name] = function (...args) {
      window.__xss.push(name + ': ' + String(args[0]));
      return original.apply(window, args);
    };
  }
`;

/** A drawn product photo: the SPU and the image number, on a colour of its own. */
function pictureFor(path: string): string {
  const [, spu = '?', file = '?'] = /\/spu\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  const label = file.replace(/\.jpg$/, '');
  // FNV-1a, so that every picture gets a clearly different colour.
  let fnv = 0x811c9dc5;
  for (const char of path) fnv = Math.imul(fnv ^ char.charCodeAt(0), 0x01000193) >>> 0;
  const hash = fnv % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
    <rect width="800" height="800" fill="hsl(${hash} 55% 88%)"/>
    <circle cx="400" cy="330" r="170" fill="hsl(${hash} 45% 70%)"/>
    <text x="400" y="600" font-family="sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="hsl(${hash} 40% 25%)">${spu}</text>
    <text x="400" y="690" font-family="sans-serif" font-size="52" text-anchor="middle" fill="hsl(${hash} 40% 30%)">image ${label}</text>
  </svg>`;
}

async function prepare(session: BrowserSession): Promise<{ dialogs: string[] }> {
  const dialogs: string[] = [];
  await session.context.addInitScript({ content: RECORD_DIALOG_CALLS });
  session.page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Nothing leaves the machine: the made-up hosts are answered here or refused.
  await session.context.route(/^https?:\/\/[^/]+\.test\//, async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === 'img.northwind-cdn.test' && !url.pathname.includes('SPU-10005')) {
      await route.fulfill({ status: 200, contentType: 'image/svg+xml', body: pictureFor(url.pathname) });
    } else {
      await route.abort('namenotresolved');
    }
  });
  return { dialogs };
}

const card = (page: Page, name: string) => page.getByTestId('product-card').filter({ hasText: name });

/** Chooses the file, uploads it and waits for the import to end; answers the status shown. */
async function importFile(page: Page, path: string): Promise<string> {
  await page.getByLabel('Supplier CSV file').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload and import' }).click();
  const status = page.getByTestId('import-status');
  await page
    .getByTestId('import-status')
    .filter({ hasText: /Completed|File refused|Stopped/ })
    .waitFor({ timeout: 60_000 });
  return (await status.textContent()) ?? '';
}

async function counts(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('import-counts').evaluate((list) => {
    const result: Record<string, string> = {};
    for (const stat of Array.from(list.children)) {
      const label = stat.querySelector('dt')?.textContent ?? '';
      result[label] = stat.querySelector('dd')?.textContent ?? '';
    }
    return result;
  });
}

async function activeSlide(page: Page): Promise<string | null> {
  return page.locator('.carousel .carousel__slide--active').getAttribute('aria-label');
}

/** Clicks an arrow and waits until the carousel says it shows `expected`. */
async function moveCarousel(page: Page, arrow: 'Previous image' | 'Next image', expected: string) {
  await page.getByRole('button', { name: arrow }).click();
  await page.getByTestId('carousel-status').filter({ hasText: expected }).waitFor();
  await expect.poll(() => activeSlide(page)).toBe(expected);
}

/** Presses an arrow key in the focused carousel and waits until it says it shows `expected`. */
async function pressInCarousel(page: Page, key: 'ArrowLeft' | 'ArrowRight', expected: string) {
  await page.keyboard.press(key);
  await page
    .getByTestId('carousel-status')
    .filter({ hasText: new RegExp(`^${expected}$`) })
    .waitFor();
  await expect.poll(() => activeSlide(page)).toBe(expected);
}

/** Nothing a payload would do has happened, and nothing executable reached the description. */
async function expectNoScriptRan(page: Page, dialogs: string[]) {
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual([]);
  const description = page.locator('.rich-text');
  const dangerous = await description.evaluate((root) => ({
    elements: root.querySelectorAll('script, iframe, svg, math, style, details, object, embed').length,
    handlers: Array.from(root.querySelectorAll('*')).flatMap((element) =>
      element.getAttributeNames().filter((name) => name.startsWith('on') || name === 'style'),
    ),
    scriptLinks: Array.from(root.querySelectorAll('a')).filter((link) =>
      /^\s*javascript:/i.test(link.getAttribute('href') ?? ''),
    ).length,
    links: Array.from(root.querySelectorAll('a')).map((link) => [
      link.getAttribute('target'),
      link.getAttribute('rel'),
    ]),
  }));
  expect(dangerous.elements).toBe(0);
  expect(dangerous.handlers).toEqual([]);
  expect(dangerous.scriptLinks).toBe(0);
  for (const link of dangerous.links) expect(link).toEqual(['_blank', 'noopener noreferrer']);
}

/** Answers the product call with the server's answer plus raw payloads, as a compromised API would. */
async function injectIntoDescription(page: Page, call: 'getApprovedProduct' | 'getImportedProduct') {
  await page.route(`**/api/${call}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { html_description: string };
    await route.fulfill({ response, json: { ...body, html_description: body.html_description + INJECTED_PAYLOADS } });
  });
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('catalogue', () => {
  let admin: BrowserSession;
  let member: BrowserSession;
  let adminDialogs: string[];
  let memberDialogs: string[];
  let socksDetailUrl = '';
  let trackerDetailUrl = '';

  beforeAll(async () => {
    admin = await openBrowser({ viewport: DESKTOP });
    member = await openBrowser({ viewport: DESKTOP });
    adminDialogs = (await prepare(admin)).dialogs;
    memberDialogs = (await prepare(member)).dialogs;
  });

  afterAll(async () => {
    await admin?.close();
    await member?.close();
  });

  it('the admin imports the supplier CSV and sees its products waiting for review', async () => {
    const { page } = admin;
    await logInQuickly(page, accounts.admin, '/admin/product_import');
    await page.getByRole('heading', { level: 1, name: 'Product Import' }).waitFor();
    await page.getByText('Only the supplier’s CSV format is accepted').waitFor();
    await expectAccessible(page);
    await admin.screenshot('catalogue-admin-import-empty-desktop');

    // A file of another kind is refused before anything is sent.
    await page.getByLabel('Supplier CSV file').setInputFiles({
      name: 'catalogue.xlsx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a csv'),
    });
    await page.getByText('"catalogue.xlsx" is not a .csv file').waitFor();
    expect(await page.getByRole('button', { name: 'Upload and import' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Clear' }).click();
    expect(await page.getByText('is not a .csv file').count()).toBe(0);

    const status = await importFile(page, fixture('valid-catalogue.csv'));
    expect(status).toBe('Completed');
    expect(page.url()).toMatch(/\/admin\/product_import\?job=[0-9a-f]+$/);
    const result = await counts(page);
    expect(result['Rows read']).toBe('5');
    expect(result['Rejected']).toBe('0');
    expect(Number(result['Created']) + Number(result['Updated']) + Number(result['Unchanged'])).toBe(5);

    for (const name of [SOCKS, BOARD, LAMP]) await card(page, name).waitFor();
    const socks = card(page, SOCKS);
    expect(await socks.textContent()).toContain('MSRP: $24.99');
    expect(await socks.textContent()).toContain(`Sell Price: $${SOCKS_SELL}`);
    expect(await socks.getByText(/You Make/).count()).toBe(0);
    // The lamp's photos fail to load: its card shows the drawn placeholder, not a broken image.
    await card(page, LAMP).getByTestId('image-placeholder').waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await admin.screenshot('catalogue-admin-import-result-desktop');

    // A reload shows the same import (the job is in the address).
    await page.reload();
    await page.getByTestId('import-status').filter({ hasText: 'Completed' }).waitFor();
  });

  it('the admin opens a product, sees its details and approves it', async () => {
    const { page } = admin;
    await card(page, SOCKS).click();
    await page.waitForURL(/\/admin\/product_import_detail\?id=/);
    await page.getByRole('heading', { level: 1, name: SOCKS }).waitFor();
    expect(await page.getByTestId('product-brand').textContent()).toBe('Trailhead');
    expect(await page.getByTestId('spu-no').textContent()).toBe('SPU-10001');
    const supplier = page.getByRole('link', { name: /Open on the supplier’s site/ });
    expect(await supplier.getAttribute('href')).toBe('https://www.northwind-supply.test/product/SPU-10001');
    expect(await supplier.getAttribute('target')).toBe('_blank');
    expect(await supplier.getAttribute('rel')).toBe('noopener noreferrer');
    await page.getByRole('heading', { name: 'Warm, breathable comfort' }).waitFor();
    expect(await page.getByTestId('carousel-status').textContent()).toBe(`1 of ${SOCKS_IMAGES}`);
    await expectAccessible(page);
    await admin.screenshot('catalogue-admin-detail-desktop');

    // A shared link or a reload opens the same product.
    const detailUrl = page.url();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: SOCKS }).waitFor();
    expect(page.url()).toBe(detailUrl);

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(at('/admin/product_import'));
    await page.getByText(`Approved “${SOCKS}”`).waitFor();
    await card(page, BOARD).waitFor();
    expect(await card(page, SOCKS).count()).toBe(0);

    // Once decided, the detail says so and offers no second decision.
    await page.goto(detailUrl);
    await page.getByTestId('product-status').filter({ hasText: 'Approved' }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  });

  it('the admin bans another product after confirming', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(at('/admin/product_import'));
    await card(page, BOARD).click();
    await page.getByRole('heading', { level: 1, name: BOARD }).waitFor();

    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    const question = page.getByRole('group', { name: 'Ban this product?' });
    await question.waitFor();
    await expectAccessible(page);
    await admin.screenshot('catalogue-admin-ban-confirm-desktop');
    // Cancel keeps it.
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(await question.count()).toBe(0);
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, ban it' }).click();
    await page.waitForURL(at('/admin/product_import'));
    await page.getByText(`Banned “${BOARD}”`).waitFor();
    await card(page, LAMP).waitFor();
    expect(await card(page, BOARD).count()).toBe(0);
    expect(adminDialogs).toEqual([]);
  });

  it('the member finds the approved product with the right You Make, and only that one', async () => {
    const { page } = member;
    await logInQuickly(page, accounts.member);
    const socks = card(page, SOCKS);
    await socks.waitFor();
    const price = parsePrice(SOCKS_SELL);
    if (!price.ok) throw new Error(price.message);
    const youMake = `You Make: $${formatCents(youMakeCents(price.cents))}`;
    expect(youMake).toBe('You Make: $1.30');
    const text = await socks.textContent();
    expect(text).toContain('MSRP: $24.99');
    expect(text).toContain(`Sell Price: $${SOCKS_SELL}`);
    expect(text).toContain(youMake);
    expect(text).toContain('Trailhead');
    const green = await socks.getByText(youMake).evaluate((element) => getComputedStyle(element).color);
    expect(green).toBe('rgb(24, 121, 78)');
    // Banned and unreviewed products are not in the catalogue.
    expect(await card(page, BOARD).count()).toBe(0);
    expect(await card(page, LAMP).count()).toBe(0);
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await member.screenshot('catalogue-member-list-desktop');
  });

  it('the member opens it, moves the carousel both ways and past the ends, and reloads', async () => {
    const { page } = member;
    await card(page, SOCKS).click();
    await page.waitForURL(/\/member_product_detail\?id=/);
    socksDetailUrl = page.url();
    await page.getByRole('heading', { level: 1, name: SOCKS }).waitFor();
    await page.getByText('MSRP: $24.99').waitFor();
    await page.getByText(`Sell Price: $${SOCKS_SELL}`).waitFor();
    // The description is markup, not text with tags in it.
    await page.getByRole('heading', { name: 'Warm, breathable comfort' }).waitFor();
    expect(await page.locator('.rich-text strong').textContent()).toBe('70% merino wool');
    expect(await page.getByRole('button', { name: /Show image/ }).count()).toBe(SOCKS_IMAGES);

    const last = `${SOCKS_IMAGES} of ${SOCKS_IMAGES}`;
    expect(await activeSlide(page)).toBe(`1 of ${SOCKS_IMAGES}`);
    await moveCarousel(page, 'Next image', `2 of ${SOCKS_IMAGES}`);
    await moveCarousel(page, 'Next image', `3 of ${SOCKS_IMAGES}`);
    await moveCarousel(page, 'Previous image', `2 of ${SOCKS_IMAGES}`);
    await moveCarousel(page, 'Previous image', `1 of ${SOCKS_IMAGES}`);
    // Backward past the first image: the last.
    await moveCarousel(page, 'Previous image', last);
    // Forward past the last image: the first again.
    await moveCarousel(page, 'Next image', `1 of ${SOCKS_IMAGES}`);
    for (let slide = 2; slide <= SOCKS_IMAGES; slide += 1) {
      await moveCarousel(page, 'Next image', `${slide} of ${SOCKS_IMAGES}`);
    }
    await moveCarousel(page, 'Next image', `1 of ${SOCKS_IMAGES}`);
    // The carousel takes focus (Tab from Share's Copy button) and answers the arrow keys, saying "N of M".
    await page.getByRole('button', { name: 'Copy' }).focus();
    await page.keyboard.press('Tab');
    const carousel = page.getByRole('region', { name: `${SOCKS}: images` });
    expect(await carousel.evaluate((region) => region === document.activeElement)).toBe(true);
    expect(await carousel.getAttribute('aria-roledescription')).toBe('carousel');
    // Its focus ring shows.
    expect(await carousel.evaluate((region) => getComputedStyle(region).outlineStyle)).toBe('solid');
    await pressInCarousel(page, 'ArrowRight', `2 of ${SOCKS_IMAGES}`);
    await pressInCarousel(page, 'ArrowRight', `3 of ${SOCKS_IMAGES}`);
    await pressInCarousel(page, 'ArrowLeft', `2 of ${SOCKS_IMAGES}`);
    await pressInCarousel(page, 'ArrowLeft', `1 of ${SOCKS_IMAGES}`);
    await pressInCarousel(page, 'ArrowLeft', last);
    await pressInCarousel(page, 'ArrowRight', `1 of ${SOCKS_IMAGES}`);
    expect(await page.getByTestId('carousel-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('.carousel .carousel__slide--active').getAttribute('aria-roledescription')).toBe('slide');

    // A dot goes straight to its image.
    await page.getByRole('button', { name: 'Show image 4' }).click();
    await expect.poll(() => activeSlide(page)).toBe(`4 of ${SOCKS_IMAGES}`);
    expect(await page.getByRole('button', { name: 'Show image 4' }).getAttribute('aria-current')).toBe('true');
    // The photo in view is really shown (the fourth slot is the first additional image).
    const shown = page.locator('.carousel .carousel__slide--active img');
    expect(await shown.getAttribute('src')).toBe('https://img.northwind-cdn.test/spu/SPU-10001/detail-1.jpg');
    expect(await shown.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page);
    await member.screenshot('catalogue-member-detail-desktop');

    // A window resize keeps the counter and the picture in step: the slide the counter names is
    // the one in the frame, at 390 px and back at 1280 px.
    const inFrame = () =>
      page.evaluate(() => {
        const frame = document.querySelector('.carousel__frame')?.getBoundingClientRect();
        const slide = document.querySelector('.carousel__slide--active')?.getBoundingClientRect();
        return {
          counter: document.querySelector('.carousel__counter')?.textContent?.replace(/\s+/g, ''),
          aligned: frame !== undefined && slide !== undefined && Math.abs(frame.left - slide.left) < 2,
        };
      });
    for (const viewport of [PHONE_390, DESKTOP]) {
      await page.setViewportSize(viewport);
      await expect.poll(inFrame).toEqual({ counter: `4/${SOCKS_IMAGES}`, aligned: true });
      await member.screenshot(`carousel-after-resize-${viewport.width}`, { fullPage: false });
    }

    // Share copies the member's personal link: the customer's shop page with their share code.
    await member.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseUrl).origin });
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
    const personalLink = await page.getByLabel('Your link').inputValue();
    expect(personalLink).toMatch(new RegExp(`^${new URL(baseUrl).origin}/shop/[^/?]+\\?ref=[A-Za-z0-9_-]+$`));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(personalLink);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: SOCKS }).waitFor();
    expect(page.url()).toBe(socksDetailUrl);
    expect(await page.getByTestId('carousel-status').textContent()).toBe(`1 of ${SOCKS_IMAGES}`);

    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(at('/'));
    await card(page, SOCKS).waitFor();
  });

  it('a member asking for a product that is not in the catalogue is told so', async () => {
    const { page } = member;
    await page.goto(at('/member_product_detail?id=no-such-product'));
    await page.getByRole('heading', { name: 'This product is not available.' }).waitFor();
    await page.getByText('This product is not in the catalogue.').waitFor();
    await expectAccessible(page);
  });

  it('descriptions with script payloads are imported and shown without anything running', async () => {
    const HEADER_OF_XSS_FIXTURE = readFileSync(fixture('xss-payloads.csv'), 'utf8').split(/\r?\n/)[0]!.split(',');
    const { page } = admin;
    await page.goto(at('/admin/product_import'));
    const status = await importFile(page, fixture('xss-payloads.csv'));
    expect(status).toBe('Completed');
    const result = await counts(page);
    expect(result['Rows read']).toBe('4');
    expect(result['Rejected']).toBe('2');

    // The rejected rows are listed, and can be downloaded as a file.
    const issues = page.getByRole('table', { name: /Issues found in xss-payloads.csv/ });
    await issues.waitFor();
    expect(await issues.locator('tbody tr').count()).toBe(2);
    expect(await issues.textContent()).toContain("contains HTML markup ('<script>'); it must be plain text");
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download rejected rows' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('xss-payloads-rejected-rows.csv');
    const saved = readFileSync((await download.path()) ?? '', 'utf8');
    // Each rejected row whole under the file's own header, then its line and what is wrong.
    const [savedHeader] = saved.split('\r\n');
    expect(savedHeader).toBe(
      `\uFEFF${HEADER_OF_XSS_FIXTURE.map((name) => `"${name}"`).join(',')},"[portal] outcome","[portal] row","[portal] problem"`,
    );
    expect(saved).toContain("Rejected: [product_name] contains HTML markup ('<script>'); it must be plain text");
    await expectAccessible(page);
    await admin.screenshot('catalogue-admin-import-issues-desktop');

    // The admin's detail: the server's description plus raw payloads injected into the answer.
    await injectIntoDescription(page, 'getImportedProduct');
    await card(page, TRACKER).click();
    await page.getByRole('heading', { level: 1, name: TRACKER }).waitFor();
    trackerDetailUrl = page.url();
    await page.getByText('Water-resistant to 50 m.').waitFor();
    await page.getByText('Injected link').waitFor();
    await expectNoScriptRan(page, adminDialogs);
    await admin.screenshot('catalogue-admin-detail-xss-desktop');
    await page.unroute('**/api/getImportedProduct');

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(at('/admin/product_import'));
    await page.getByText(`Approved “${TRACKER}”`).waitFor();
    expect(trackerDetailUrl).toContain('product_import_detail?id=');

    // The member's detail, the same way.
    const memberPage = member.page;
    await memberPage.goto(at('/'));
    await injectIntoDescription(memberPage, 'getApprovedProduct');
    await card(memberPage, TRACKER).click();
    await memberPage.getByRole('heading', { level: 1, name: TRACKER }).waitFor();
    await memberPage.getByText('Water-resistant to 50 m.').waitFor();
    await memberPage.getByText('Injected link').click();
    await expectNoScriptRan(memberPage, memberDialogs);
    await memberPage.unroute('**/api/getApprovedProduct');
    expect(pageErrors(member)).toEqual([]);
  });
});

describe('catalogue on a phone (375px)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE });
    await prepare(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lays out the member catalogue and detail for a phone', async () => {
    const { page } = session;
    await logInQuickly(page, accounts.member);
    await card(page, SOCKS).waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await session.screenshot('catalogue-member-list-phone');
    await card(page, SOCKS).click();
    await page.getByRole('heading', { level: 1, name: SOCKS }).waitFor();
    await page.getByRole('button', { name: 'Next image' }).click();
    await page
      .getByTestId('carousel-status')
      .filter({ hasText: `2 of ${SOCKS_IMAGES}` })
      .waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await session.screenshot('catalogue-member-detail-phone');
  });

  it('lays out the import screen and the review detail for a phone', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    await logIn(page, accounts.admin);
    await page.goto(at('/admin/product_import'));
    await card(page, LAMP).waitFor();
    await page.getByLabel('Supplier CSV file').setInputFiles(fixture('valid-catalogue.csv'));
    await page.getByText('valid-catalogue.csv').first().waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await session.screenshot('catalogue-admin-import-phone');
    await card(page, LAMP).click();
    await page.getByRole('heading', { level: 1, name: LAMP }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    // Two images whose files fail: placeholders, and the loop works with just two slides.
    await page.locator('.carousel .carousel__slide--active').getByTestId('image-placeholder').waitFor();
    await moveCarousel(page, 'Next image', '2 of 2');
    await moveCarousel(page, 'Next image', '1 of 2');
    await moveCarousel(page, 'Previous image', '2 of 2');
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page);
    await session.screenshot('catalogue-admin-detail-phone');
  });
});

describe('large files and long lists', () => {
  let admin: BrowserSession;

  beforeAll(async () => {
    admin = await openBrowser({ viewport: DESKTOP });
    await prepare(admin);
    await logInQuickly(admin.page, accounts.admin);
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('a file over 4 MB goes to the bucket with a presigned POST and imports the same way', async () => {
    const { page } = admin;
    const tag = randomUUID().slice(0, 8);
    const folder = mkdtempSync(join(tmpdir(), 'portal-large-csv-'));
    try {
      const header = readFileSync(fixture('valid-catalogue.csv'), 'utf8').split('\n')[0];
      const description = `<p>${'Sturdy, washable and made to last. '.repeat(2_800)}</p>`;
      const rows = Array.from({ length: 45 }, (_, index) =>
        [
          `Large File Product ${tag} ${index + 1}`,
          'Bulk Co.',
          '20.00',
          '10.00',
          `https://img.northwind-cdn.test/spu/BULK-${tag}-${index}/1.jpg`,
          '',
          '',
          '',
          '',
          '',
          '',
          `"${description}"`,
          `https://www.northwind-supply.test/product/BULK-${tag}-${index}`,
          `BULK-${tag}-${index}`,
        ].join(','),
      );
      const path = join(folder, `large-${tag}.csv`);
      writeFileSync(path, `${header}\n${rows.join('\n')}\n`);
      const size = readFileSync(path).length;
      expect(size).toBeGreaterThan(4 * 1024 * 1024);

      await page.goto(at('/admin/product_import'));
      const direct: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/products')) direct.push(request.url());
      });
      const presigned = page.waitForRequest((request) => request.url().endsWith('/api/createProductUpload'));
      // The file itself goes cross-origin, straight to the bucket.
      const stored = page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' && new URL(response.url()).origin !== new URL(baseUrl).origin,
      );
      const status = await importFile(page, path);
      await presigned;
      expect((await stored).status()).toBeGreaterThanOrEqual(200);
      expect((await stored).status()).toBeLessThan(300);
      expect(direct).toEqual([]);
      expect(status).toBe('Completed');
      expect((await counts(page))['Rows read']).toBe('45');
      expect((await counts(page))['Created']).toBe('45');
      await card(page, `Large File Product ${tag}`).first().waitFor();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the review list loads further pages as the admin scrolls, never everything at once', async () => {
    const { page } = admin;
    await page.goto(at('/admin/product_import'));
    const cards = page.getByTestId('product-card');
    await cards.first().waitFor();
    // One page first (at most 24; fewer when the products are large, as DynamoDB reads at most
    // 1 MB per page), although more than 45 products wait.
    const first = await cards.count();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(24);
    await page.getByRole('button', { name: 'Load more products' }).waitFor();
    // Scrolling to the end loads the next pages, until the oldest product of this run shows.
    for (let round = 0; round < 5 && (await card(page, LAMP).count()) === 0; round += 1) {
      const before = await cards.count();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThan(before);
    }
    await card(page, LAMP).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Load more products' }).count()).toBe(0);
    await expectAccessible(page);
    const ids = await cards.evaluateAll((links) => links.map((link) => link.getAttribute('data-product-id')));
    expect(new Set(ids).size).toBe(ids.length);
    await admin.screenshot('catalogue-admin-review-long-list-desktop');
  });
});

/** Where the page or any table cell of the import report goes past the right edge of the viewport. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const cells = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="import-job"] td'));
    return {
      width,
      scrollWidth: document.documentElement.scrollWidth,
      cells: cells.length,
      // A cell past the edge, or whose content is wider than the cell (cut off or scrolled).
      outside: cells
        .filter((cell) => {
          const box = cell.getBoundingClientRect();
          return box.left < 0 || box.right > width || cell.scrollWidth > cell.clientWidth;
        })
        .map((cell) => `${cell.dataset.label ?? '?'}: ${cell.textContent ?? ''}`),
    };
  });
}

describe('the import report and the drawer on a 390px phone', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: PHONE_390 });
    await prepare(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('the report of a file with rejected rows fits: no cell cut off, no sideways scroll', async () => {
    const { page } = session;
    await logInQuickly(page, accounts.admin);
    for (const [file, rejected] of [
      ['bad-urls.csv', 2],
      ['missing-values.csv', 3],
    ] as const) {
      // A fresh screen, so that the previous report's status is not taken for this one's.
      await page.goto(at('/admin/product_import'));
      expect(await importFile(page, fixture(file))).toBe('Completed');
      expect(Number((await counts(page))['Rejected'])).toBeGreaterThanOrEqual(rejected);
      const issues = page.getByRole('table', { name: `Issues found in ${file}` });
      await issues.locator('tbody tr').first().waitFor();
      const fit = await overflow(page);
      expect(fit.width).toBe(PHONE_390.width);
      expect(fit.cells).toBeGreaterThanOrEqual(4 * rejected);
      expect(fit.scrollWidth).toBeLessThanOrEqual(PHONE_390.width);
      expect(fit.outside).toEqual([]);
      // Each cell still says which column it is.
      const label = await issues
        .locator('td')
        .first()
        .evaluate((cell) => getComputedStyle(cell, '::before').content);
      expect(label).toBe('"Row"');
      await expectAccessible(page);
      await session.screenshot(`catalogue-admin-import-${file.replace('.csv', '')}-phone-390`);
    }
  });

  it('the drawer keeps a long e-mail address on one line (ellipsis, the whole address in its title), at 390px and in the 200px drawer', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(at('/login'));
    const email = `e2e-${randomUUID().slice(0, 8)}.with.a.rather.long.name@reseller-team.example.com`;
    await page.goto(at('/signup'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('e2e-member-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();

    for (const viewport of [PHONE_390, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.waitFor();
      const shown = drawer.getByTestId('drawer-email');
      expect(await shown.textContent()).toBe(email);
      const fit = await shown.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const panel = element.closest('[role="dialog"]')?.getBoundingClientRect();
        return {
          clipped: element.scrollWidth > element.clientWidth,
          ellipsis: getComputedStyle(element).textOverflow === 'ellipsis',
          inside: panel !== undefined && box.left >= panel.left && box.right <= panel.right,
          // More than one line of text (line heights are under twice the font size).
          wrapped: box.height > 2 * parseFloat(getComputedStyle(element).fontSize),
        };
      });
      // One line, never broken mid-address; too long for the drawer, it ends in an ellipsis and
      // the title holds the whole address.
      expect(fit).toMatchObject({ ellipsis: true, inside: true, wrapped: false });
      expect(await shown.getAttribute('title')).toBe(email);
      await expectAccessible(page);
      await session.screenshot(`drawer-long-email-${viewport.width}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
  });
});
