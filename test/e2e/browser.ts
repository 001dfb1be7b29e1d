import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, expect, inject } from 'vitest';
import { processWide } from '../../infra/local/process-wide';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium';
import { api } from './api';

/**
 * Chromium through playwright-core (no bundled browsers): the Debian package, or CHROMIUM_PATH.
 * One browser for all the browser files of a worker, started with the first session; each session
 * is a fresh context of its own (its own cookies, storage and cache), so nothing leaks between
 * sessions (decision 0360: a browser start costs about a second here, a context a few
 * milliseconds; decision 0472: the files share their worker).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCREENSHOT_DIR = join(repoRoot, 'test-results', 'e2e');
/**
 * `E2E_SCREENSHOTS=1` keeps every screenshot a test names (to look at the screens); otherwise
 * only the failing tests' pages are saved, as `failed-<test>-<n>.png`.
 */
const KEEP_SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

export const PHONE = { width: 375, height: 740 };
/** The phone the catalogue issue names: an iPhone 12 to 15 in portrait. */
export const PHONE_390 = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors seen so far (for failure messages). */
  problems: string[];
  /**
   * With `E2E_SCREENSHOTS=1`, saves test-results/e2e/<name>.png (the whole page unless
   * `fullPage: false`) and returns its path; otherwise does nothing (a failing test's pages are
   * saved anyway).
   */
  screenshot: (name: string, options?: { fullPage?: boolean }) => Promise<string | undefined>;
  close: () => Promise<void>;
}

/**
 * The worker's browser: the browser files share their worker (vitest.config.ts, `isolate: false`)
 * and one Chromium, started by the first file's first session and left for the next file (each
 * session is a context of its own); Playwright closes it when the worker exits.
 */
const shared = processWide('e2eBrowser', () => ({ browser: undefined as Promise<Browser> | undefined }));
const openSessions = new Set<BrowserSession>();

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail' || openSessions.size === 0) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const name = context.task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
  let n = 0;
  for (const session of openSessions) {
    n += 1;
    const path = join(SCREENSHOT_DIR, `failed-${name}-${n}.png`);
    await session.page.screenshot({ path, fullPage: true, timeout: 5_000 }).catch(() => undefined);
  }
});

// The file's sessions left open end with the file; the browser stays for the next file.
afterAll(async () => {
  await Promise.all([...openSessions].map((session) => session.close()));
});

export async function openBrowser(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<BrowserSession> {
  // Started by the first session; started again if it crashed or was closed.
  if (!shared.browser || !(await shared.browser).isConnected()) {
    shared.browser = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
  }
  const context = await (
    await shared.browser
  ).newContext({
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  const session: BrowserSession = {
    context,
    page,
    problems,
    screenshot: async (name, screenshotOptions = {}) => {
      if (!KEEP_SCREENSHOTS) return undefined;
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: screenshotOptions.fullPage ?? true });
      return path;
    },
    close: async () => {
      openSessions.delete(session);
      await context.close().catch(() => undefined);
    },
  };
  openSessions.add(session);
  return session;
}

/** The address of `path` on the portal that global-setup.ts started. */
export const at = (path: string) => `${inject('portalUrl')}${path}`;

/** Logs in on /login and waits for the member app's product list. */
export async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto(at('/login'));
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(at('/'));
  await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
}

/**
 * Logs in through the API instead of the login screen, for tests that are not about logging in:
 * posts /api/login from the page's own context (`page.request` shares the context's cookies, so
 * the HttpOnly refresh cookie on /api lands where the app's checkAuth reads it at start), then
 * opens `path` and, for `/`, waits for the member app's product list as `logIn` does. The tests
 * about the login screen keep `logIn` (decision 0402).
 */
export async function logInQuickly(
  page: Page,
  account: { email: string; password: string },
  path = '/',
): Promise<void> {
  const answer = await page.request.post(at('/api/login'), {
    data: { email: account.email, password: account.password },
  });
  if (!answer.ok()) {
    throw new Error(`logInQuickly: /api/login answered ${answer.status()}: ${await answer.text()}`);
  }
  await page.goto(at(path));
  if (path === '/') await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
}

/** The uncaught page errors a session has seen (console errors left out). */
export function pageErrors(session: BrowserSession): string[] {
  return session.problems.filter((problem) => problem.startsWith('page error'));
}

/** axe-core's minified build, put into a page once (decision 0400). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's `axe.run` over the whole page, every rule, as AxeBuilder runs it; on a page of one
 * frame (every screen of the apps) axe is put into the page once and stays until the next full
 * load, instead of AxeBuilder's twice a check (the page and a blank page it opens for
 * `finishRun`): about 1 s a check here, 131 calls in the browser files, most at two widths
 * (decision 0400). A page with frames goes to AxeBuilder, which reaches into each.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).analyze();
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) {
    await page.evaluate(
      `${AXE_SOURCE};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`,
    );
  }
  return page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe.run(document),
  );
}

/**
 * Runs axe-core on the page as it is now and fails with every violation in words (rule, what it
 * means, and the elements). Call it once the screen has settled; every rule runs.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await runAxe(page);
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(violations, `axe-core found violations on ${page.url()}`).toEqual([]);
}

/**
 * The screen as it is now, at 390 px and at 1280 px: axe-clean, nothing wider than the screen (no
 * field or button cut off), and photographed as `<shot>-phone` and `<shot>-desktop`.
 */
export async function atBothWidths(session: BrowserSession, shot: string): Promise<void> {
  const { page } = session;
  for (const [size, viewport] of [
    ['phone', PHONE_390],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${shot} at ${viewport.width} px is wider than the screen`).toBeLessThanOrEqual(0);
    await session.screenshot(`${shot}-${size}`);
  }
}

/**
 * Makes sure members see at least one approved product, as an admin would make one through the
 * API (upload a one-row catalogue, wait for its import, approve it), so a test that needs one
 * does not depend on another file having imported products before it. Does nothing when one is
 * there already.
 */
export async function ensureApprovedProduct(): Promise<void> {
  type Session = { access_token: string };
  const { member, admin } = inject('accounts');
  const memberToken = (await api<Session>('login', member)).access_token;
  if ((await api<{ items: unknown[] }>('getApprovedProducts', { limit: 1 }, memberToken)).items.length > 0) return;
  const adminToken = (await api<Session>('login', admin)).access_token;
  const header =
    'product_name,brand,msrp_us,dropshipping_price_us,product_images_1,product_images_2,product_images_3,' +
    'product_images_4,product_images_5,product_images_6,additional_product_images,html_description,url,spu_no';
  const row =
    'E2E Travel Mug,Trailhead,24.99,12.95,https://img.northwind-cdn.test/spu/E2E-1/1.jpg,,,,,,,' +
    '<p>A mug for the road.</p>,https://www.northwind-supply.test/product/E2E-1,E2E-1';
  const form = new FormData();
  form.append('file', new Blob([`${header}\n${row}\n`], { type: 'text/csv' }), 'e2e-one-product.csv');
  const { job } = await api<{ job: { id: string } }>('products', form, adminToken);
  for (let wait = 0; ; wait++) {
    const { status } = await api<{ status: string }>('getImportJob', { id: job.id }, adminToken);
    if (status === 'completed') break;
    if (status === 'rejected' || status === 'failed' || wait > 300) throw new Error(`The import ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { items } = await api<{ items: { id: string; spu_no: string }[] }>('getUnApprovedProducts', {}, adminToken);
  const product = items.find((item) => item.spu_no === 'E2E-1');
  if (!product) throw new Error('The imported product is not in the review list');
  const { version } = await api<{ version: string }>('getImportedProduct', { id: product.id }, adminToken);
  await api('approveProduct', { id: product.id, version }, adminToken);
}

export { api, apiAnswer } from './api';
