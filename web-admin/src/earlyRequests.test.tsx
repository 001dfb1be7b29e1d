import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@portal/shared/query/keys';
import { productCard } from '@portal/shared/test/catalogueTesting';
import {
  earlyServer,
  imagePreloads,
  resetEarlyScript,
  runEarlyScript,
  startAppWithEarly,
} from '@portal/shared/test/earlyTesting';
import { authAnswer } from '@portal/shared/test/testing';
import { adminEarlyScreens } from './earlyScreens';
import { startLandingData } from './landingData';

const admin = () => authAnswer({ isAdmin: true }, 'admin-token');
const noCounters = { all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 };

afterEach(resetEarlyScript);

describe('the early requests on the admin app’s pages', () => {
  it('Orders: the session check and the first page of all orders leave with the page; the app asks nothing itself', async () => {
    const early = earlyServer({
      checkAuth: { body: admin() },
      getOrders: { body: { items: [], nextCursor: null, counters: noCounters } },
    });
    runEarlyScript(adminEarlyScreens, '/admin/orders', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { store, client } = startAppWithEarly(startLandingData, fallback);
    void store.checkAuth();
    await vi.waitFor(
      () =>
        expect(client.getQueryData(queryKeys.orders.list('all'))).toMatchObject({
          pages: [{ items: [], counters: noCounters }],
        }),
      { timeout: 4_000 },
    );
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent).toEqual([
      { name: 'checkAuth', body: '{}', authorization: null },
      { name: 'getOrders', body: '{"limit":100,"type":"all"}', authorization: 'Bearer admin-token' },
    ]);
    expect(store.getState().status).toBe('authenticated');
  });

  it('Product Import: the review list’s first page, and its first picture preloaded', async () => {
    // A review list item: the card members see plus its review facts.
    const card = {
      ...productCard({ image: 'https://img.example.test/review.jpg' }),
      spu_no: 'SPU-10001',
      status: 'review' as const,
      hasApprovedVersion: false,
      updatedAt: '2026-01-02T03:04:05.000Z',
    };
    const early = earlyServer({
      checkAuth: { body: admin() },
      getUnApprovedProducts: { body: { items: [card], nextCursor: null } },
    });
    runEarlyScript(adminEarlyScreens, '/admin/product_import', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { client } = startAppWithEarly(startLandingData, fallback);
    await vi.waitFor(
      () =>
        expect(client.getQueryData(queryKeys.importedProducts.reviewList(24))).toMatchObject({
          pages: [{ items: [card] }],
        }),
      { timeout: 4_000 },
    );
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent.map(({ name, body }) => `${name} ${body}`)).toEqual([
      'checkAuth {}',
      'getUnApprovedProducts {"limit":24}',
    ]);
    await vi.waitFor(() =>
      expect(imagePreloads()).toEqual([{ href: 'https://img.example.test/review.jpg', fetchpriority: 'high' }]),
    );
  });

  it('another admin screen: only the session check, which the app takes', async () => {
    const early = earlyServer({ checkAuth: { body: admin() } });
    runEarlyScript(adminEarlyScreens, '/admin/payouts', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { store } = startAppWithEarly(startLandingData, fallback);
    await store.checkAuth();
    expect(store.getState().status).toBe('authenticated');
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent.map((sent) => sent.name)).toEqual(['checkAuth']);
  });

  it('sends nothing outside the admin app', () => {
    const early = earlyServer({});
    runEarlyScript(adminEarlyScreens, '/', early.fetchImpl);
    resetEarlyScript();
    runEarlyScript(adminEarlyScreens, '/administrator', early.fetchImpl);
    expect(early.sent).toEqual([]);
  });
});
