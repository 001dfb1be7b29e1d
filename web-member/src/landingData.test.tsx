import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@portal/shared/query/keys';
import { createQueryClient } from '@portal/shared/query/client';
import { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { productCard, productDetail } from '@portal/shared/test/catalogueTesting';
import { authAnswer, fakeApi } from '@portal/shared/test/testing';
import { startLandingData } from './landingData';

/** Waits until `names` are the calls made (the first call also loads the answers' schemas). */
const callsAre = (fake: { calls: { name: string }[] }, names: string[]) =>
  vi.waitFor(() => expect(fake.calls.map((call) => call.name)).toEqual(names), { timeout: 10_000 });

describe('startLandingData (the opened screen’s data, asked for as the script starts)', () => {
  it('sends the detail’s request right after the one checkAuth, with its token, into the screen’s query', async () => {
    const fake = fakeApi({
      checkAuth: () => ({ body: authAnswer({}, 'token-1') }),
      getApprovedProduct: () => ({ body: productDetail({ id: 'p-1' }) }),
    });
    const store = new AuthStore(fake.api);
    const client = createQueryClient();
    startLandingData({ pathname: '/member_product_detail', search: '?id=p-1' }, store, client);
    // The shell's own check, made as it mounts, shares the one in flight: the refresh cookie turns once.
    void store.checkAuth();
    await callsAre(fake, ['checkAuth', 'getApprovedProduct']);
    expect(fake.callsTo('getApprovedProduct')[0]).toMatchObject({
      body: { id: 'p-1' },
      authorization: 'Bearer token-1',
    });
    await vi.waitFor(() =>
      expect(client.getQueryData(queryKeys.approvedProducts.detail('p-1'))).toMatchObject({ id: 'p-1' }),
    );
  });

  it('asks for the member home’s first page, and for nothing without a session', async () => {
    const fake = fakeApi({
      checkAuth: () => ({ status: 401, body: { message: 'Not logged in.' } }),
      getApprovedProducts: () => ({ body: { items: [productCard()], nextCursor: null } }),
    });
    const store = new AuthStore(fake.api);
    startLandingData({ pathname: '/', search: '' }, store, createQueryClient());
    await vi.waitFor(() => expect(store.getState().status).toBe('anonymous'), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.calls.map((call) => call.name)).toEqual(['checkAuth']);
  });

  it('sends the shop page’s public read at once, without a session check', async () => {
    const fake = fakeApi({ getSharedProduct: () => ({ status: 404, body: { message: 'Gone.' } }) });
    startLandingData({ pathname: '/shop/p%201', search: '?ref=ABC' }, new AuthStore(fake.api), createQueryClient());
    await callsAre(fake, ['getSharedProduct']);
    expect(fake.calls[0]).toMatchObject({ body: { id: 'p 1', ref: 'ABC' }, authorization: null });
  });

  it('asks for nothing on other screens', async () => {
    const fake = fakeApi();
    startLandingData({ pathname: '/my_account', search: '' }, new AuthStore(fake.api), createQueryClient());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.calls).toEqual([]);
  });
});
