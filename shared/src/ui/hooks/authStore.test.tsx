import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { AuthStore } from './authStore';
import { authAnswer, deferred, fakeApi, unauthorized, type FakeReply } from '../../../test/testing';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

describe('AuthStore', () => {
  it('shares one checkAuth request among concurrent callers', async () => {
    const gate = deferred<FakeReply>();
    const api = fakeApi({ checkAuth: () => gate.promise });
    const store = new AuthStore(api.api);
    const a = store.checkAuth();
    const b = store.checkAuth({ force: true });
    expect(a).toBe(b);
    gate.resolve({ body: authAnswer() });
    await Promise.all([a, b]);
    expect(api.callsTo('checkAuth')).toHaveLength(1);
    expect(api.callsTo('checkAuth')[0]?.body).toEqual({});
  });

  it('starts a new request once the previous one settled', async () => {
    const api = fakeApi({ checkAuth: () => ({ body: authAnswer() }) });
    const store = new AuthStore(api.api, { freshForMs: 0 });
    await store.checkAuth();
    await store.checkAuth();
    expect(api.callsTo('checkAuth')).toHaveLength(2);
  });

  it('takes the logged-out answer (no session at all, a 200) as logged out, with no error', async () => {
    const api = fakeApi({ checkAuth: () => ({ body: { loginValid: false, isLoggedIn: false } }) });
    const store = new AuthStore(api.api);
    const state = await store.checkAuth();
    expect(state.status).toBe('anonymous');
    expect(state.checkError).toBeNull();
    expect(store.hasAccessToken()).toBe(false);
  });

  it('treats a 401 as logged out and a network failure as unknown', async () => {
    const api = fakeApi({ checkAuth: () => unauthorized });
    const store = new AuthStore(api.api);
    expect((await store.checkAuth()).status).toBe('anonymous');

    const offline = new AuthStore(fakeApi({ checkAuth: () => ({ networkError: true }) }).api);
    const state = await offline.checkAuth();
    expect(state.status).toBe('unknown');
    expect(state.checkError?.message).toMatch(/Network Error/);
  });

  it('keeps a session through a network failure of a later check', async () => {
    const api = fakeApi({ checkAuth: () => ({ body: authAnswer() }) });
    const store = new AuthStore(api.api, { freshForMs: 0 });
    await store.checkAuth();
    api.on('checkAuth', () => ({ status: 503, body: { message: 'Service unavailable' } }));
    const state = await store.checkAuth();
    expect(state.status).toBe('authenticated');
    expect(state.checkError?.message).toBe('Service unavailable');
  });

  it('keeps the access token in memory only', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const api = fakeApi({ login: () => ({ body: authAnswer() }) });
    const store = new AuthStore(api.api);
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    expect(setItem).not.toHaveBeenCalled();
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(JSON.stringify(store.getState())).not.toContain('access-1');
    expect(document.cookie).toBe('');
  });

  it('login waits for a check in flight so two requests never race over the cookie', async () => {
    const gate = deferred<FakeReply>();
    const api = fakeApi({ checkAuth: () => gate.promise, login: () => ({ body: authAnswer() }) });
    const store = new AuthStore(api.api);
    void store.checkAuth();
    const login = store.login({ email: 'ann@example.com', password: 'secret-password' });
    await Promise.resolve();
    expect(api.callsTo('login')).toHaveLength(0);
    gate.resolve(unauthorized);
    await login;
    expect(api.callsTo('login')).toHaveLength(1);
    expect(store.getState().status).toBe('authenticated');
  });

  /** The answer of getCommisionsByUser for a member without commissions (its contract's CommissionPage). */
  const noCommissions = { items: [], nextCursor: null, totals: { paid: 0, processing: 0, count: 0 } };

  it('authenticated calls pass the access token and, on a 401, refresh once and retry', async () => {
    let token = 1;
    const api = fakeApi({
      login: () => ({ body: authAnswer({}, 'access-1') }),
      checkAuth: () => ({ body: authAnswer({}, `access-${++token}`) }),
      getCommisionsByUser: ({ authorization }) =>
        authorization === 'Bearer access-2'
          ? { body: noCommissions }
          : { status: 401, body: { message: 'Token expired.' } },
    });
    const store = new AuthStore(api.api);
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    await expect(store.call('getCommisionsByUser', { id: 'user-1' })).resolves.toEqual(noCommissions);
    expect(api.callsTo('getCommisionsByUser').map((call) => call.authorization)).toEqual([
      'Bearer access-1',
      'Bearer access-2',
    ]);
    expect(api.callsTo('checkAuth')).toHaveLength(1);
  });

  it('gives up after one retry and logs out when the refresh is refused', async () => {
    const api = fakeApi({
      login: () => ({ body: authAnswer() }),
      checkAuth: () => unauthorized,
      getCommisionsByUser: () => ({ status: 401, body: { message: 'Token expired.' } }),
    });
    const store = new AuthStore(api.api);
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    const failure = await store.call('getCommisionsByUser', { id: 'user-1' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('Token expired.');
    expect(api.callsTo('getCommisionsByUser')).toHaveLength(1);
    expect(store.getState().status).toBe('anonymous');
  });

  it('refreshes an access token that is about to expire before using it', async () => {
    let now = 1_000_000;
    const api = fakeApi({
      login: () => ({ body: { ...authAnswer({}, 'old'), expires_in: 60 } }),
      checkAuth: () => ({ body: authAnswer({}, 'new') }),
      getCommisionsByUser: () => ({ body: noCommissions }),
    });
    const store = new AuthStore(api.api, { now: () => now });
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    now += 45_000;
    await store.call('getCommisionsByUser', { id: 'user-1' });
    expect(api.callsTo('getCommisionsByUser')[0]?.authorization).toBe('Bearer new');
  });

  it('takes a profile a call answered at once, telling its listeners, and ignores another user’s', async () => {
    const api = fakeApi({ login: () => ({ body: authAnswer() }) });
    const store = new AuthStore(api.api);
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getState().userProfile?.isAccountCreated ?? -1));
    const created = { ...store.getState().userProfile!, isAccountCreated: 1 as const, stripeID: 'acct_1' };
    store.setUserProfile(created);
    expect(store.getState().userProfile).toEqual(created);
    expect(seen).toEqual([1]);
    store.setUserProfile({ ...created, id: 'someone-else', isPayoutMethodAdded: 1 });
    expect(store.getState().userProfile?.isPayoutMethodAdded).toBe(0);
    expect(api.callsTo('checkAuth')).toHaveLength(0);
  });

  it('ignores a profile that arrives after a logout', async () => {
    const api = fakeApi({ login: () => ({ body: authAnswer() }), logout: () => ({ body: { ok: true } }) });
    const store = new AuthStore(api.api);
    await store.login({ email: 'ann@example.com', password: 'secret-password' });
    const before = store.getState().userProfile!;
    await store.logout();
    store.setUserProfile({ ...before, isAccountCreated: 1 });
    expect(store.getState()).toMatchObject({ status: 'anonymous', userProfile: null });
  });

  it('a signup failure leaves the person logged out', async () => {
    const api = fakeApi({ signup: () => ({ status: 409, body: { message: 'Taken.' } }) });
    const store = new AuthStore(api.api);
    await expect(store.signup({ email: 'ann@example.com', password: 'secret-password' })).rejects.toThrow('Taken.');
    expect(store.getState().status).toBe('anonymous');
  });
});
