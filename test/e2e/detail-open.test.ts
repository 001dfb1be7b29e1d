import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { at, DESKTOP, logIn, openBrowser, pageErrors, PHONE_390, type BrowserSession } from './browser';

/**
 * Opening a product from a list, in a real browser against the started portal, for the member's
 * and the admin's detail: the clicked product is the one shown, its name and sell price come first
 * and its description after them (or with them when the hover already fetched it), the detail
 * screen's code was loaded while the list sat idle, and on the share page the first picture is
 * asked for before anything else. How fast is the web bench's business (`npm run bench -- web`);
 * this file times nothing.
 *
 * The products are this run's own (a tag in their names and SPUs), so the file does not depend on
 * what the other e2e files left in the shared portal.
 */

const accounts = inject('accounts');
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tag = randomUUID().slice(0, 8);

interface Product {
  name: string;
  sell: string;
  spu: string;
  description: string;
}

const PRODUCTS: Product[] = [1, 2, 3].map((index) => ({
  name: `Speed Test Kettle ${tag} ${index}`,
  sell: `${20 + index}.50`,
  spu: `SPEED-${tag}-${index}`,
  description: `Boils a litre in ${index + 2} minutes (${tag}).`,
}));

function catalogueCsv(): string {
  const header = readFileSync(join(repoRoot, 'test', 'fixtures', 'csv', 'valid-catalogue.csv'), 'utf8').split('\n')[0];
  const rows = PRODUCTS.map((product) => {
    const image = (n: number) => `https://img.speed-cdn.test/spu/${product.spu}/${n}.jpg`;
    return [
      product.name,
      'Copper & Co.',
      '49.99',
      product.sell,
      image(1),
      image(2),
      image(3),
      '',
      '',
      '',
      image(4),
      `"<p>${product.description}</p>"`,
      `https://www.speed-supply.test/product/${product.spu}`,
      product.spu,
    ].join(',');
  });
  return `${header}\n${rows.join('\n')}\n`;
}

/** Product photos from the made-up CDN are answered with a small drawing; nothing leaves the machine. */
async function answerImages(session: BrowserSession) {
  await session.context.route(/^https?:\/\/[^/]+\.test\//, async (route) => {
    if (new URL(route.request().url()).hostname === 'img.speed-cdn.test') {
      await route.fulfill({
        status: 200,
        contentType: 'image/svg+xml',
        // So the page may read when each picture was shown (Element Timing's renderTime).
        headers: { 'timing-allow-origin': '*' },
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#c9d8f0"/></svg>',
      });
    } else {
      await route.abort('namenotresolved');
    }
  });
}

type Shown = 'detail' | 'list';

/**
 * Starts a stopwatch at the next click (capture phase, so before the app's own handler) and stops
 * it at the first animation frame where `what` is on screen: for a detail, the heading with
 * `name` and the text `Sell Price: $<sell>`; for a list, a product card. Also notes whether the
 * description was already there in that frame.
 */
async function armStopwatch(page: Page, what: Shown, expected: { name?: string; sell?: string } = {}) {
  await page.evaluate(
    ({ what, name, sell }) => {
      const visible = (element: Element | null | undefined) => {
        if (!element) return false;
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      };
      const shown = () => {
        if (what === 'list') return visible(document.querySelector('[data-testid="product-card"]'));
        const heading = document.querySelector('h1#product-name');
        if (!visible(heading) || heading?.textContent !== name) return false;
        const info = document.querySelector('.product-detail__info');
        return Array.from(info?.querySelectorAll('*') ?? []).some(
          (element) =>
            element.children.length === 0 && element.textContent === `Sell Price: $${sell}` && visible(element),
        );
      };
      const watch = {
        clickedAt: 0,
        shownAfterMs: -1,
        descriptionAtFirstPaint: false,
        descriptionAfterMs: -1,
      };
      (window as unknown as { __stopwatch: typeof watch }).__stopwatch = watch;
      document.addEventListener(
        'click',
        () => {
          watch.clickedAt = performance.now();
          const frame = () => {
            const since = Math.round(performance.now() - watch.clickedAt);
            if (watch.shownAfterMs < 0 && shown()) {
              watch.shownAfterMs = since;
              watch.descriptionAtFirstPaint = document.querySelector('.rich-text') !== null;
            }
            if (watch.shownAfterMs >= 0 && document.querySelector('.rich-text')) watch.descriptionAfterMs = since;
            if (watch.shownAfterMs >= 0 && (what === 'list' || watch.descriptionAfterMs >= 0)) return;
            if (since > 30_000) return;
            requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        },
        { capture: true, once: true },
      );
    },
    { what, name: expected.name ?? '', sell: expected.sell ?? '' },
  );
}

/** Milliseconds from the click to the description on screen (-1 while it is not). */
const descriptionAfter = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __stopwatch: { descriptionAfterMs: number } }).__stopwatch.descriptionAfterMs,
  );

async function readStopwatch(page: Page): Promise<{ ms: number; descriptionAtFirstPaint: boolean }> {
  const handle = await page.waitForFunction(() => {
    const watch = (window as unknown as { __stopwatch: { shownAfterMs: number; descriptionAtFirstPaint: boolean } })
      .__stopwatch;
    return watch.shownAfterMs >= 0
      ? { ms: watch.shownAfterMs, descriptionAtFirstPaint: watch.descriptionAtFirstPaint }
      : null;
  });
  return (await handle.jsonValue()) as { ms: number; descriptionAtFirstPaint: boolean };
}

/** Whether the browser has loaded a script whose file name starts with `chunk` (Vite names chunks after their module). */
const chunkLoaded = (page: Page, chunk: string) =>
  page.evaluate(
    (prefix) =>
      performance
        .getEntriesByType('resource')
        .some((entry) => new URL(entry.name).pathname.split('/').pop()?.startsWith(prefix) ?? false),
    chunk,
  );

const card = (page: Page, name: string) => page.getByTestId('product-card').filter({ hasText: name });

/** Clicks the card of `product` on the list shown, and answers the click → name and price figure. */
async function openFromList(page: Page, product: Product) {
  await armStopwatch(page, 'detail', { name: product.name, sell: product.sell });
  await card(page, product.name).click();
  const { ms } = await readStopwatch(page);
  // The clicked product, and then its description.
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  await page.getByText(product.description).waitFor();
  await expect.poll(() => descriptionAfter(page)).toBeGreaterThanOrEqual(ms);
  expect(await page.locator('h1#product-name').textContent()).toBe(product.name);
  expect(await page.getByTestId('pending-text').count()).toBe(0);
  return ms;
}

describe('opening a product from a list', () => {
  let admin: BrowserSession;
  let member: BrowserSession;

  beforeAll(async () => {
    admin = await openBrowser({ viewport: DESKTOP });
    member = await openBrowser({ viewport: DESKTOP });
    await answerImages(admin);
    await answerImages(member);
  });

  afterAll(async () => {
    await admin?.close();
    await member?.close();
  });

  it('the admin’s review list and product detail', async () => {
    const { page } = admin;
    await logIn(page, accounts.admin);
    const folder = mkdtempSync(join(tmpdir(), 'portal-speed-csv-'));
    try {
      const path = join(folder, `speed-${tag}.csv`);
      writeFileSync(path, catalogueCsv());
      await page.goto(at('/admin/product_import'));
      await page.getByLabel('Supplier CSV file').setInputFiles(path);
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.getByTestId('import-status').filter({ hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }

    // From the admin home to the review list.
    await page.goto(at('/admin/'));
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: /Product Import/ })
      .click();

    // The detail's code loads while the list sits idle, before any card is touched.
    for (const product of PRODUCTS) await card(page, product.name).waitFor();
    await expect.poll(() => chunkLoaded(page, 'ProductImportDetailScreen'), { timeout: 10_000 }).toBe(true);

    for (const product of PRODUCTS.slice(0, 2)) {
      await openFromList(page, product);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText(`Approved “${product.name}”`).waitFor();
      expect(await card(page, product.name).count()).toBe(0);
    }
    expect(pageErrors(admin)).toEqual([]);
  });

  it('the member’s catalogue and product detail', async () => {
    const { page } = member;
    await logIn(page, accounts.member);

    // From My Account (a fresh page, nothing cached) to the catalogue.
    await page.goto(at('/my_account'));
    await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Product List' }).click();

    for (const product of PRODUCTS.slice(0, 2)) await card(page, product.name).waitFor();
    expect(await card(page, PRODUCTS[2]!.name).count()).toBe(0);
    await expect.poll(() => chunkLoaded(page, 'ProductDetailScreen'), { timeout: 10_000 }).toBe(true);

    for (const product of PRODUCTS.slice(0, 2)) {
      await openFromList(page, product);
      await page.getByRole('link', { name: 'Back' }).click();
      await card(page, product.name).waitFor();
    }
    expect(pageErrors(member)).toEqual([]);
  });

  it('the customer’s share page asks for what its first picture does not need only once that picture is shown', async () => {
    const product = PRODUCTS[0]!;
    await member.page.goto(at('/'));
    await card(member.page, product.name).click();
    await member.page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    const id = new URL(member.page.url()).searchParams.get('id');
    expect(id).toBeTruthy();

    const customer = await openBrowser({ viewport: PHONE_390 });
    try {
      await answerImages(customer);
      // When the browser showed each marked element (the main picture carries elementtiming).
      await customer.context.addInitScript(() => {
        const shown: Record<string, number> = {};
        (window as unknown as { __shown: typeof shown }).__shown = shown;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            identifier: string;
            renderTime: number;
            loadTime: number;
          })[]) {
            shown[entry.identifier] = entry.renderTime || entry.loadTime;
          }
        }).observe({ type: 'element', buffered: true });
      });
      const { page } = customer;
      await page.goto(at(`/shop/${id}`));
      await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
      await page.getByLabel('Quantity').waitFor();
      await page.getByText(product.description).waitFor();
      // The card fields follow the payment config's answer.
      await page.getByTestId('test-cards-hint').waitFor();
      const patterns = {
        'the first picture': `/spu/${product.spu}/1\\.jpg$`,
        'the Buy form': '/assets/CheckoutForm-[^/]+\\.js$',
        'the payment config': '/api/getPaymentConfig$',
        'the sanitizer': '/assets/sanitize-description-[^/]+\\.js$',
        'the other pictures': `/spu/${product.spu}/[2-4]\\.jpg$`,
      };
      // A request is in the page's resource timings once its answer is complete: read them when all are.
      const read = () =>
        page.evaluate((sources) => {
          const entries = performance.getEntriesByType('resource');
          return {
            pictureShownAt: (window as unknown as { __shown: Record<string, number> }).__shown['main-picture'] ?? -1,
            started: Object.fromEntries(
              Object.entries(sources).map(([what, source]) => [
                what,
                entries.filter((entry) => new RegExp(source).test(entry.name)).map((entry) => entry.startTime),
              ]),
            ),
          };
        }, patterns);
      await expect
        .poll(async () => Object.values((await read()).started).filter((list) => list.length === 0).length, {
          timeout: 10_000,
        })
        .toBe(0);
      const { pictureShownAt, started } = await read();
      const { 'the first picture': first, ...waiting } = started;
      expect(first).toHaveLength(1);
      expect(pictureShownAt).toBeGreaterThan(first![0]!);
      for (const [what, starts] of Object.entries(waiting)) {
        for (const startTime of starts) {
          expect(startTime, `${what} asked for after the picture was shown`).toBeGreaterThanOrEqual(pictureShownAt);
        }
      }
      expect(pageErrors(customer)).toEqual([]);
    } finally {
      await customer.close();
    }
  });
});
