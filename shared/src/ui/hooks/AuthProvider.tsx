import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../../api/client';
import { attentionReasons, type AttentionReason } from '../../domain/attention';
import { AuthStore, type AuthState } from './authStore';

export { AuthStore, isAuthFailure, toApiError } from './authStore';
export type { AuthState, AuthStatus, CheckOptions } from './authStore';

const AuthContext = createContext<AuthStore | null>(null);

export interface AuthProviderProps {
  /** A ready store (tests, or an app that builds its own). */
  store?: AuthStore;
  /** Or the API client to build one with; defaults to `createApiClient()` on the page's origin. */
  api?: ApiClient;
  children: ReactNode;
}

export function AuthProvider({ store, api, children }: AuthProviderProps) {
  const [ownStore] = useState(() => store ?? new AuthStore(api ?? createApiClient()));
  return <AuthContext.Provider value={store ?? ownStore}>{children}</AuthContext.Provider>;
}

export interface AuthView extends AuthState {
  /** The account still lacks a payout account or a payout method (the red badge). */
  needsAttention: boolean;
  /** Why the red badge shows, in words: the payout set-up steps still to do (empty when none). */
  attentionReasons: readonly AttentionReason[];
  checkAuth: AuthStore['checkAuth'];
  settle: AuthStore['settle'];
  login: AuthStore['login'];
  signup: AuthStore['signup'];
  logout: AuthStore['logout'];
  clear: AuthStore['clear'];
  /** Puts a profile a call answered in place of the signed-in user's (the badges follow at once). */
  setUserProfile: AuthStore['setUserProfile'];
  /** Authenticated API call with the in-memory access token and one refresh-and-retry on a 401. */
  call: AuthStore['call'];
  /** A public call, without the access token. */
  callPublic: AuthStore['callPublic'];
}

export function needsAttention(state: Pick<AuthState, 'status' | 'userProfile'>): boolean {
  return reasonsFor(state).length > 0;
}

function reasonsFor(state: Pick<AuthState, 'status' | 'userProfile'>): AttentionReason[] {
  return state.status === 'authenticated' ? attentionReasons(state.userProfile) : [];
}

export function useAuthStore(): AuthStore {
  const store = useContext(AuthContext);
  if (!store) throw new Error('useAuth must be used inside <AuthProvider>.');
  return store;
}

export function useAuth(): AuthView {
  const store = useAuthStore();
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return useMemo(
    () => ({
      ...state,
      needsAttention: needsAttention(state),
      attentionReasons: reasonsFor(state),
      checkAuth: store.checkAuth,
      settle: store.settle,
      login: store.login,
      signup: store.signup,
      logout: store.logout,
      clear: store.clear,
      setUserProfile: store.setUserProfile,
      call: store.call,
      callPublic: store.callPublic,
    }),
    [state, store],
  );
}
