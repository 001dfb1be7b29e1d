import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@portal/shared/query/client';
import { queryKeys } from '@portal/shared/query/keys';
import { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { authAnswer, fakeApi } from '@portal/shared/test/testing';
import { startLandingData } from './landingData';
import { counters, orderPage } from './sales/salesTesting';

describe('startLandingData (admin)', () => {
  it('sends Orders’ first page right after the one checkAuth, into the screen’s query', async () => {
    const fake = fakeApi({
      checkAuth: () => ({ body: authAnswer({ isAdmin: true }, 'token-a') }),
      getOrders: () => orderPage([], counters({ all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 })),
    });
    const store = new AuthStore(fake.api);
    const client = createQueryClient();
    startLandingData({ pathname: '/admin/orders' }, store, client);
    void store.checkAuth();
    await vi.waitFor(() => expect(client.getQueryData(queryKeys.orders.list('all'))).toBeTruthy(), { timeout: 10_000 });
    expect(fake.calls.map((call) => call.name)).toEqual(['checkAuth', 'getOrders']);
    expect(fake.callsTo('getOrders')[0]).toMatchObject({
      body: { type: 'all', limit: 100 },
      authorization: 'Bearer token-a',
    });
  });

  it('asks for nothing on other screens', async () => {
    const fake = fakeApi();
    startLandingData({ pathname: '/admin/payouts' }, new AuthStore(fake.api), createQueryClient());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.calls).toEqual([]);
  });
});
