import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, type CsvColumn } from '../../shared/src/domain/csv-product';
import { startPortal, type Portal } from '../../infra/local/start';
import { api } from './api';
import { DESKTOP, PHONE_390, expectAccessible, openBrowser } from './browser';

/**
 * Pictures we host (issue 28), in the browser: a portal of its own that hosts pictures (the
 * suite's shared one does not), a catalogue imported from its test image server, and then the
 * member's catalogue, a product's detail and the public shop page at 390 and 1280 px. Every
 * picture the browser asks for comes from the portal's own origin, the cards and slides carry
 * srcset, and axe finds nothing.
 */

let portal: Portal;
let dataDir = '';

/** The API of this file's own portal (test/e2e/api.ts). */
const call = <T>(name: string, body: unknown, token?: string) => api<T>(name, body, token, { origin: portal.url });

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-pictures-'));
  portal = await startPortal({ port: 0, dataDir, quiet: true, hostPictures: true });
  const origin = portal.picturesOrigin!;
  const photos = join(dataDir, 'demo-images');
  mkdirSync(photos, { recursive: true, mode: 0o700 });
  for (const [name, colour] of [
    ['lamp-1', '#d9822b'],
    ['lamp-2', '#2b6cd9'],
    ['mug-1', '#2bd97a'],
  ] as const) {
    const photo = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(photos, `${name}.jpg`), photo, { mode: 0o600 });
  }
  const row = (values: Partial<Record<CsvColumn, string>>) =>
    CSV_COLUMNS.map((column) => quote(values[column] ?? '')).join(',');
  const csv = [
    CSV_COLUMNS.join(','),
    row({
      product_name: 'Hosted Lamp',
      brand: 'Lumo',
      msrp_us: '59.00',
      dropshipping_price_us: '32.00',
      product_images_1: `${origin}/lamp-1.jpg`,
      product_images_2: `${origin}/lamp-2.jpg`,
      product_images_3: 'https://tracker.example.invalid/gone.jpg',
      html_description: `<p>Warm light.</p><p><img src="${origin}/lamp-2.jpg" alt="The lamp from the side"><img src="https://tracker.example.invalid/pixel.gif" alt=""></p>`,
      spu_no: 'PIC-E2E-1',
    }),
    row({
      product_name: 'Hosted Mug',
      brand: 'Kettle & Co',
      msrp_us: '24.00',
      dropshipping_price_us: '12.00',
      product_images_1: `${origin}/mug-1.jpg`,
      spu_no: 'PIC-E2E-2',
    }),
  ].join('\n');
  const admin = (await call<{ access_token: string }>('login', portal.accounts.admin)).access_token;
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'hosted.csv');
  const { job } = await call<{ job: { id: string } }>('products', form, admin);
  // The import, then its pictures: they are hosted through the picture queue after the import
  // completes (a loaded run opened the catalogue before they were, and the card had no picture yet).
  for (let wait = 0; ; wait++) {
    const { status, pictures } = await call<{
      status: string;
      pictures?: { total: number; hosted: number; failed: number };
    }>('getImportJob', { id: job.id }, admin);
    if (status === 'completed' && pictures && pictures.hosted + pictures.failed >= pictures.total) break;
    if (status === 'rejected' || status === 'failed' || wait > 1200) throw new Error(`The import ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { items } = await call<{ items: { id: string }[] }>('getUnApprovedProducts', {}, admin);
  for (const item of items) {
    const { version } = await call<{ version: string }>('getImportedProduct', { id: item.id }, admin);
    await call('approveProduct', { id: item.id, version }, admin);
  }
}, 600_000);

afterAll(async () => {
  await portal?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every picture request the page makes, by address. */
function recordPictures(page: Page): string[] {
  const pictures: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image') pictures.push(request.url());
  });
  return pictures;
}

describe.each([
  ['390', PHONE_390],
  ['1280', DESKTOP],
])('hosted pictures at %s px', (width, viewport) => {
  it('the catalogue, a detail and the shop page ask only the portal for pictures, with srcset', async () => {
    const session = await openBrowser({ viewport });
    const { page } = session;
    const pictures = recordPictures(page);
    try {
      await page.goto(`${portal.url}/login`);
      await page.getByLabel('Email', { exact: true }).fill(portal.accounts.member.email);
      await page.getByLabel('Password', { exact: true }).fill(portal.accounts.member.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
      const card = page.getByTestId('product-card').filter({ hasText: 'Hosted Lamp' });
      const cardImage = card.locator('img');
      await expect
        .poll(() => cardImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await cardImage.getAttribute('srcset')).toMatch(
        /^\/images\/[0-9a-f]{64}\/320\.webp 320w, \/images\/[0-9a-f]{64}\/640\.webp 640w, \/images\/[0-9a-f]{64}\/1024\.webp 1024w$/,
      );
      expect(await cardImage.getAttribute('sizes')).toBeTruthy();
      expect([await cardImage.getAttribute('width'), await cardImage.getAttribute('height')]).toEqual(['640', '640']);
      await session.screenshot(`pictures-catalogue-${width}`, { fullPage: false });
      await expectAccessible(page);

      await card.click();
      await page.getByRole('heading', { name: 'Hosted Lamp' }).waitFor();
      // Two slides: the dead address was left out at import, so no slide shows a broken picture.
      const slides = page.locator('[aria-roledescription="slide"]');
      await expect.poll(() => slides.count()).toBe(2);
      const first = slides.first().locator('img');
      await expect
        .poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await first.getAttribute('srcset')).toContain('/images/');
      // The description's picture is our copy; the tracking pixel is gone.
      const described = page.getByRole('img', { name: 'The lamp from the side' });
      await described.waitFor();
      expect(await described.getAttribute('src')).toMatch(/^\/images\/[0-9a-f]{64}\/640\.webp$/);
      expect(await page.locator('img[src*="tracker"]').count()).toBe(0);
      await session.screenshot(`pictures-detail-${width}`, { fullPage: false });
      await expectAccessible(page);

      const id = new URL(page.url()).searchParams.get('id');
      await page.goto(`${portal.url}/shop/${id}`);
      const shopImage = page.locator('[aria-roledescription="slide"] img').first();
      await expect
        .poll(() => shopImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await shopImage.getAttribute('srcset')).toContain('/images/');
      await session.screenshot(`pictures-shop-${width}`, { fullPage: false });
      await expectAccessible(page);

      expect(pictures.length).toBeGreaterThan(0);
      const elsewhere = pictures.filter(
        (address) => !address.startsWith(`${portal.url}/`) && !address.startsWith('data:'),
      );
      expect(elsewhere).toEqual([]);
      expect(pictures.some((address) => address.startsWith(`${portal.url}/images/`))).toBe(true);
      expect(session.problems.filter((problem) => problem.startsWith('page error'))).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
