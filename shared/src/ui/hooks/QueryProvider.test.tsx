import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../query/client';
import { AuthStore } from './AuthProvider';
import { clearOnUserChange } from './QueryProvider';
import { authAnswer, fakeApi } from '../../../test/testing';

describe('clearOnUserChange', () => {
  it('keeps what was asked before the page’s first verdict, and clears at every change of account after it', async () => {
    let answer = authAnswer({ id: 'u-1' });
    const fake = fakeApi({
      checkAuth: () => ({ body: answer }),
      logout: () => ({ status: 401, body: { message: 'Not logged in.' } }),
    });
    const store = new AuthStore(fake.api);
    const client = createQueryClient();
    const stop = clearOnUserChange(store, client);
    // Asked for through `call` before the first check answered: it is u-1's.
    client.setQueryData(['mine'], 'u-1 data');
    await store.checkAuth();
    expect(store.getState().status).toBe('authenticated');
    expect(client.getQueryData(['mine'])).toBe('u-1 data');
    // Another account: nothing of u-1's is left.
    answer = authAnswer({ id: 'u-2' }, 'access-2');
    await store.checkAuth({ force: true });
    expect(client.getQueryData(['mine'])).toBeUndefined();
    client.setQueryData(['mine'], 'u-2 data');
    await store.logout();
    expect(client.getQueryData(['mine'])).toBeUndefined();
    stop();
  });

  it('clears when the first verdict came before it subscribed and the account then changes', async () => {
    const fake = fakeApi({ checkAuth: () => ({ status: 401, body: { message: 'Not logged in.' } }) });
    const store = new AuthStore(fake.api);
    await store.checkAuth();
    const client = createQueryClient();
    const stop = clearOnUserChange(store, client);
    client.setQueryData(['public'], 'x');
    fake.on('checkAuth', () => ({ body: authAnswer({ id: 'u-3' }) }));
    await store.checkAuth({ force: true });
    expect(client.getQueryData(['public'])).toBeUndefined();
    stop();
  });
});
