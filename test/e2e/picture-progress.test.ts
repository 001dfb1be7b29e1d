import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, type CsvColumn } from '../../shared/src/domain/csv-product';
import { startPortal, type Portal } from '../../infra/local/start';
import { api } from './api';
import { DESKTOP, PHONE_390, expectAccessible, openBrowser } from './browser';

/**
 * The import screen's picture progress and the retry of the failed pictures (issue 38), in the
 * browser at 390 and 1280 px with axe: a portal of its own that hosts pictures (its picture
 * function behind the local SQS), a catalogue whose picture addresses on the test image server are
 * partly missing (404: failed at once, not retried). The screen says "N of M hosted, K failed" with
 * the warning and its one action; once the supplier's host has the pictures, the action sends
 * them again and the count reaches all hosted.
 */

const PRODUCTS = 16;
const MISSING = 3;

let portal: Portal;
let dataDir = '';
let photos = '';
let adminToken = '';

const call = <T>(name: string, body: unknown, token?: string) => api<T>(name, body, token, { origin: portal.url });
const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
const picture = (index: number) =>
  sharp({
    create: {
      width: 300,
      height: 300,
      channels: 3,
      background: `#${(index * 997).toString(16).padStart(6, '0').slice(0, 6)}`,
    },
  })
    .png()
    .toBuffer();
const fileName = (prefix: string, index: number) => `${prefix}-${index}.png`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-picture-progress-'));
  portal = await startPortal({ port: 0, dataDir, quiet: true, hostPictures: true });
  photos = join(dataDir, 'demo-images');
  mkdirSync(photos, { recursive: true, mode: 0o700 });
  adminToken = (await call<{ access_token: string }>('login', portal.accounts.admin)).access_token;
}, 600_000);

afterAll(async () => {
  await portal?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A catalogue of PRODUCTS products with one picture each; the last MISSING are not on the host yet.
 * Answers the import job's id once the import is done.
 */
async function importCatalogue(prefix: string): Promise<string> {
  for (let index = 0; index < PRODUCTS - MISSING; index++) {
    writeFileSync(join(photos, fileName(prefix, index)), await picture(index), { mode: 0o600 });
  }
  const row = (values: Partial<Record<CsvColumn, string>>) =>
    CSV_COLUMNS.map((column) => quote(values[column] ?? '')).join(',');
  const csv = [
    CSV_COLUMNS.join(','),
    ...Array.from({ length: PRODUCTS }, (_, index) =>
      row({
        product_name: `Progress Lamp ${prefix} ${index}`,
        brand: 'Lumo',
        msrp_us: '40.00',
        dropshipping_price_us: '20.00',
        product_images_1: `${portal.picturesOrigin!}/${fileName(prefix, index)}`,
        spu_no: `PP-${prefix}-${index}`,
      }),
    ),
  ].join('\n');
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), `${prefix}.csv`);
  const { job } = await call<{ job: { id: string } }>('products', form, adminToken);
  for (let wait = 0; ; wait++) {
    const { status } = await call<{ status: string }>('getImportJob', { id: job.id }, adminToken);
    if (status === 'completed') return job.id;
    if (status === 'rejected' || status === 'failed' || wait > 1200) throw new Error(`The import ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each([
  ['390', PHONE_390],
  ['1280', DESKTOP],
])('the import’s picture progress at %s px', (width, viewport) => {
  it('says how many are hosted and failed, and the one action hosts the failed ones once their host has them', async () => {
    const prefix = `w${width}`;
    const jobId = await importCatalogue(prefix);
    const session = await openBrowser({ viewport });
    const { page } = session;
    try {
      await page.goto(`${portal.url}/login`);
      await page.getByLabel('Email', { exact: true }).fill(portal.accounts.admin.email);
      await page.getByLabel('Password', { exact: true }).fill(portal.accounts.admin.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${portal.url}/`);
      await page.goto(`${portal.url}/admin/product_import?job=${jobId}`);

      const summary = page.getByTestId('import-pictures-summary');
      await expect
        .poll(() => summary.textContent(), { timeout: 120_000, interval: 500 })
        .toBe(`${PRODUCTS - MISSING} of ${PRODUCTS} hosted, ${MISSING} failed`);
      const retry = page.getByRole('button', { name: 'Try the failed pictures again' });
      await retry.waitFor();
      await expect
        .poll(() => page.getByText(`${MISSING} pictures could not be hosted`, { exact: false }).count())
        .toBe(1);
      // The bar says the same: every picture tried.
      expect(await page.locator('progress').first().getAttribute('max')).toBe(String(PRODUCTS));
      await session.screenshot(`picture-progress-failed-${width}`);
      await expectAccessible(page);
      // Fits the width: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // The supplier's host has them now; one action sends them again.
      for (let index = PRODUCTS - MISSING; index < PRODUCTS; index++) {
        writeFileSync(join(photos, fileName(prefix, index)), await picture(index), { mode: 0o600 });
      }
      await retry.focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: `The failed pictures of ${MISSING} products are being tried again.` })
        .waitFor();
      await expect
        .poll(() => summary.textContent(), { timeout: 120_000, interval: 500 })
        .toBe(`${PRODUCTS} of ${PRODUCTS} hosted, 0 failed`);
      await expect.poll(() => retry.count()).toBe(0);
      await session.screenshot(`picture-progress-retried-${width}`);
      await expectAccessible(page);
      expect(session.problems.filter((problem) => problem.startsWith('page error'))).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
