import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@portal/shared/query/keys';
import { productCard, productDetail } from '@portal/shared/test/catalogueTesting';
import { earlyFetch } from '@portal/shared/ui/early/earlyRequests';
import {
  earlyServer as server,
  imagePreloads as preloads,
  resetEarlyScript,
  runEarlyScript,
  startAppWithEarly,
} from '@portal/shared/test/earlyTesting';
import { authAnswer } from '@portal/shared/test/testing';
import { memberEarlyScreens } from './earlyScreens';
import { startLandingData } from './landingData';

afterEach(resetEarlyScript);

describe('the member page’s early requests (src/earlyScreens.ts) and the app taking their answers', () => {
  it('member home: the app asks nothing itself, finds its first page, and the first screenful’s pictures are preloaded', async () => {
    const card = productCard({ image: 'https://img.example.test/first.jpg' });
    // Six cards: the first four are the first screenful (one without a picture, one sharing an
    // address); the fifth and sixth are below it and load as the list asks for them.
    const items = [
      card,
      productCard({ id: 'p-2', image: 'https://img.example.test/second.jpg' }),
      productCard({ id: 'p-3', image: null }),
      productCard({ id: 'p-4', image: 'https://img.example.test/first.jpg' }),
      productCard({ id: 'p-5', image: 'https://img.example.test/fifth.jpg' }),
      productCard({ id: 'p-6', image: 'https://img.example.test/sixth.jpg' }),
    ];
    const early = server({
      checkAuth: { body: authAnswer({}, 'token-1') },
      getApprovedProducts: { body: { items, nextCursor: null } },
    });
    runEarlyScript(memberEarlyScreens, '/', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    // The shell's own check (as it mounts) shares the app's one: the early one.
    const { store, client } = startAppWithEarly(startLandingData, fallback);
    void store.checkAuth();
    await vi.waitFor(
      () =>
        expect(client.getQueryData(queryKeys.approvedProducts.list(24))).toMatchObject({
          pages: [{ items: [card, {}, {}, {}, {}, {}] }],
        }),
      { timeout: 4_000 },
    );
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent).toEqual([
      { name: 'checkAuth', body: '{}', authorization: null },
      { name: 'getApprovedProducts', body: '{"limit":24}', authorization: 'Bearer token-1' },
    ]);
    expect(store.getState().status).toBe('authenticated');
    await vi.waitFor(() =>
      expect(preloads()).toEqual([
        { href: 'https://img.example.test/first.jpg', fetchpriority: 'high' },
        { href: 'https://img.example.test/second.jpg', fetchpriority: 'high' },
      ]),
    );
  });

  it('preloads the first picture before the app is handed the answer, which it gets whole', async () => {
    const card = productCard({ image: 'https://img.example.test/first.jpg' });
    const early = server({
      checkAuth: { body: authAnswer({}, 'token-1') },
      getApprovedProducts: { body: { items: [card], nextCursor: null } },
    });
    runEarlyScript(memberEarlyScreens, '/', early.fetchImpl);
    const answer = await window.__portalEarly!['getApprovedProducts {"limit":24}'];
    expect(preloads()).toEqual([{ href: 'https://img.example.test/first.jpg', fetchpriority: 'high' }]);
    expect(answer!.status).toBe(200);
    expect(answer!.headers.get('content-type')).toBe('application/json');
    await expect(answer!.json()).resolves.toEqual({ items: [card], nextCursor: null });
    const session = await window.__portalEarly!.checkAuth;
    await expect(session!.json()).resolves.toMatchObject({ access_token: 'token-1' });
  });

  it('product detail: the same, with the detail’s first image', async () => {
    const detail = productDetail({ id: 'p 1' });
    const early = server({ checkAuth: { body: authAnswer() }, getApprovedProduct: { body: detail } });
    runEarlyScript(memberEarlyScreens, '/member_product_detail?id=p%201', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { client } = startAppWithEarly(startLandingData, fallback);
    await vi.waitFor(
      () => expect(client.getQueryData(queryKeys.approvedProducts.detail('p 1'))).toMatchObject({ id: 'p 1' }),
      { timeout: 4_000 },
    );
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent.map((sent) => sent.name)).toEqual(['checkAuth', 'getApprovedProduct']);
    await vi.waitFor(() => expect(preloads()).toEqual([{ href: detail.images[0], fetchpriority: 'high' }]));
  });

  it('share page: the public read at once, no session check', async () => {
    const detail = productDetail({ id: 'p 1' });
    const early = server({
      getSharedProduct: { body: { product: detail, unitAmountCents: 1999, refKnown: true } },
    });
    runEarlyScript(memberEarlyScreens, '/shop/p%201?ref=ABC', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { client } = startAppWithEarly(startLandingData, fallback);
    await vi.waitFor(
      () => expect(client.getQueryData(['sharedProduct', 'p 1', 'ABC'])).toMatchObject({ refKnown: true }),
      { timeout: 4_000 },
    );
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent).toEqual([{ name: 'getSharedProduct', body: '{"id":"p 1","ref":"ABC"}', authorization: null }]);
    await vi.waitFor(() => expect(preloads()).toEqual([{ href: detail.images[0], fetchpriority: 'high' }]));
  });

  it('without a session: one checkAuth (the early one), no data request, nothing preloaded', async () => {
    const early = server({ checkAuth: { status: 401, body: { message: 'Log in to continue.' } } });
    runEarlyScript(memberEarlyScreens, '/', early.fetchImpl);
    const fallback = vi.fn<typeof fetch>();
    const { store } = startAppWithEarly(startLandingData, fallback);
    await vi.waitFor(() => expect(store.getState().status).toBe('anonymous'), { timeout: 4_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fallback).not.toHaveBeenCalled();
    expect(early.sent.map((sent) => sent.name)).toEqual(['checkAuth']);
    expect(preloads()).toEqual([]);
  });

  it('sends nothing when the app has started first (its script came from the cache)', () => {
    const early = server({});
    window.__portalEarly = {};
    runEarlyScript(memberEarlyScreens, '/', early.fetchImpl);
    expect(early.sent).toEqual([]);
  });

  it('preloads the opened screen’s chunks the build named, once each, and no other screen’s', () => {
    const meta = document.createElement('meta');
    meta.name = 'portal-screen-chunks';
    meta.content = JSON.stringify({
      shop: { js: ['/assets/Shop.js', '/assets/shared.js'], css: ['/assets/Shop.css'] },
      detail: { js: ['/assets/Detail.js'], css: [] },
    });
    document.head.appendChild(meta);
    const already = document.createElement('link');
    already.rel = 'modulepreload';
    already.href = '/assets/shared.js';
    document.head.appendChild(already);
    runEarlyScript(memberEarlyScreens, '/shop/p1', server({}).fetchImpl);
    const links = [...document.head.querySelectorAll('link[rel="modulepreload"], link[rel="preload"][as="style"]')];
    expect(links.map((link) => [link.getAttribute('rel'), link.getAttribute('href')])).toEqual([
      ['modulepreload', '/assets/shared.js'],
      ['modulepreload', '/assets/Shop.js'],
      ['preload', '/assets/Shop.css'],
    ]);
    expect(links.slice(1).every((link) => link.getAttribute('crossorigin') === '')).toBe(true);
  });

  it('sends nothing on screens it does not know, nor on the admin app’s (its page has its own script)', () => {
    const early = server({});
    runEarlyScript(memberEarlyScreens, '/signup', early.fetchImpl);
    expect(early.sent).toEqual([]);
    resetEarlyScript();
    runEarlyScript(memberEarlyScreens, '/admin/orders', early.fetchImpl);
    expect(early.sent).toEqual([]);
  });

  it('My Account and a detail address without an id: only the session check, which the app takes', async () => {
    for (const url of ['/my_account', '/member_product_detail']) {
      const early = server({ checkAuth: { body: authAnswer() } });
      runEarlyScript(memberEarlyScreens, url, early.fetchImpl);
      const fallback = vi.fn<typeof fetch>();
      const { store } = startAppWithEarly(startLandingData, fallback);
      await store.checkAuth();
      expect(store.getState().status).toBe('authenticated');
      expect(fallback).not.toHaveBeenCalled();
      expect(early.sent.map((sent) => sent.name)).toEqual(['checkAuth']);
      resetEarlyScript();
    }
  });
});

describe('earlyFetch', () => {
  const post = (body: string): RequestInit => ({ method: 'POST', body });

  it('gives each early request once, and fetches a call that differs', async () => {
    const answer = new Response('{}');
    const early = { 'getApprovedProduct {"id":"a"}': Promise.resolve(answer) };
    const fallback = vi.fn<typeof fetch>(async () => new Response('other'));
    const fetchImpl = earlyFetch(early, fallback);
    await expect(fetchImpl('/api/getApprovedProduct', post('{"id":"b"}'))).resolves.not.toBe(answer);
    await expect(fetchImpl('/api/getApprovedProduct', post('{"id":"a"}'))).resolves.toBe(answer);
    await fetchImpl('/api/getApprovedProduct', post('{"id":"a"}'));
    expect(fallback).toHaveBeenCalledTimes(2);
  });

  it('rejects as fetch does when the caller aborts first', async () => {
    const early = { checkAuth: new Promise<Response>(() => undefined) };
    const controller = new AbortController();
    const pending = earlyFetch(early, vi.fn())('/api/checkAuth', { ...post('{}'), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
