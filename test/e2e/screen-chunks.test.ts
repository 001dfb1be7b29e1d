import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  at,
  DESKTOP,
  expectAccessible,
  logIn,
  openBrowser,
  pageErrors,
  PHONE_390,
  type BrowserSession,
} from './browser';

/**
 * Issue 26's first loads in a real browser, at 390 and 1280 px: each admin screen is a chunk of its
 * own, and a page asks for its own screen's chunk only (the early script preloads it beside the
 * app's first scripts); following a link loads the next screen's chunk and shows it; My Account is
 * a chunk of its own that the member home does not ask for. Each screen is checked by axe.
 */

const VIEWPORTS = [PHONE_390, DESKTOP] as const;

/** The screen chunks the app has (assets/<Screen>-<hash>.js), by the name the build gives them. */
const SCREEN_CHUNK =
  /\/assets\/(AdminHomeScreen|ProductImportScreen|ProductImportDetailScreen|CatalogueScreen|OrdersScreen|OrderListScreen|PayoutsScreen|CommissionActionScreen|TopEarnersScreen|MyAccountScreen|ProductDetailScreen|ShopScreen)-[\w-]+\.js$/;

/**
 * The screen chunks a page asked for while `during` ran, by name. Only the requests of a document
 * whose path starts with `scope` count: the page left behind (the member home a login lands on)
 * may still preload its own next screen, when idle, just as `during` navigates away from it.
 */
async function screenChunksRequested(
  session: BrowserSession,
  during: () => Promise<void>,
  scope = '/',
): Promise<string[]> {
  const names = new Set<string>();
  const onRequest = (request: Request) => {
    let documentUrl = '';
    try {
      documentUrl = request.frame().url();
    } catch {
      return; // a service worker's request: no page's
    }
    if (!new URL(documentUrl || 'about:blank', 'http://portal.invalid').pathname.startsWith(scope)) return;
    const match = SCREEN_CHUNK.exec(new URL(request.url()).pathname);
    if (match) names.add(match[1]!);
  };
  session.page.on('request', onRequest);
  try {
    await during();
  } finally {
    session.page.off('request', onRequest);
  }
  return [...names].sort();
}

describe('each screen loads its own code, at 390 and 1280 px', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser({ viewport: DESKTOP });
    await logIn(session.page, inject('accounts').admin);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it.each(VIEWPORTS)(
    'admin Orders asks for its own screen only; Product Import then loads and shows (%o)',
    async (viewport) => {
      const { page } = session;
      await page.setViewportSize(viewport);
      // Leave the last case's page first: Product Import fetches its detail screen ahead once idle,
      // and a fetch it starts while this case begins would be counted as the Orders page's.
      await page.goto('about:blank');
      const opened = await screenChunksRequested(
        session,
        async () => {
          await page.goto(at('/admin/orders'));
          await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
          await page.getByTestId('orders-total').filter({ hasNotText: '…' }).waitFor();
        },
        '/admin',
      );
      expect(opened).toEqual(['OrdersScreen']);
      await expectAccessible(page);

      const next = await screenChunksRequested(
        session,
        async () => {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('dialog').getByRole('link', { name: 'Product Import' }).click();
          await page.waitForURL(at('/admin/product_import'));
          await page.getByRole('heading', { level: 1, name: 'Product Import' }).waitFor();
        },
        '/admin',
      );
      expect(next).toEqual(['ProductImportScreen']);
      await expectAccessible(page);
      expect(pageErrors(session)).toEqual([]);
    },
  );

  it.each(VIEWPORTS)('the member home does not ask for My Account, which loads when opened (%o)', async (viewport) => {
    const { page } = session;
    await page.setViewportSize(viewport);
    const home = await screenChunksRequested(session, async () => {
      await page.goto(at('/'));
      await page.getByRole('heading', { level: 1, name: 'Product List' }).waitFor();
    });
    expect(home).not.toContain('MyAccountScreen');

    const account = await screenChunksRequested(
      session,
      async () => {
        await page.goto(at('/my_account'));
        await page.getByRole('heading', { level: 1, name: 'My Account' }).waitFor();
        await page.getByRole('heading', { level: 2, name: 'Commissions', exact: true }).waitFor();
      },
      '/my_account',
    );
    expect(account).toEqual(['MyAccountScreen']);
    await session.screenshot(`screen-chunks-my-account-${viewport.width}`, { fullPage: false });
    await expectAccessible(page);
    expect(pageErrors(session)).toEqual([]);
  });
});
