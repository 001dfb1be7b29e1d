import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

/**
 * Chromium through playwright-core (no bundled browsers): the Debian package, or CHROMIUM_PATH.
 * Each session gets its own fresh profile folder, so cookies never leak between sessions.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCREENSHOT_DIR = join(repoRoot, 'test-results', 'e2e');

export const PHONE = { width: 375, height: 740 };
/** The phone the catalogue issue names: an iPhone 12 to 15 in portrait. */
export const PHONE_390 = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors seen so far (for failure messages). */
  problems: string[];
  /** Saves test-results/e2e/<name>.png (the whole page unless `fullPage: false`) and returns its path. */
  screenshot: (name: string, options?: { fullPage?: boolean }) => Promise<string>;
  close: () => Promise<void>;
}

export async function openBrowser(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    context,
    page,
    problems,
    screenshot: async (name, screenshotOptions = {}) => {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: screenshotOptions.fullPage ?? true });
      return path;
    },
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
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

/** The uncaught page errors a session has seen (console errors left out). */
export function pageErrors(session: BrowserSession): string[] {
  return session.problems.filter((problem) => problem.startsWith('page error'));
}

/**
 * Runs axe-core on the page as it is now and fails with every violation in words (rule, what it
 * means, and the elements). Call it once the screen has settled; every rule runs.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(violations, `axe-core found violations on ${page.url()}`).toEqual([]);
}
