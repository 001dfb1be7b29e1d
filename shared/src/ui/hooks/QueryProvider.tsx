import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createQueryClient } from '../../query/client';
import { useAuthStore, type AuthStore } from './AuthProvider';

/**
 * The app's server-state cache (TanStack Query). One client per app, created once when the app
 * mounts; it lives inside <AuthProvider>, because the cache belongs to the person logged in:
 * when the session ends or another account logs in, every cached answer is dropped (and the
 * requests still in flight are cancelled), so nobody ever sees the previous person's data.
 */
export function QueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const store = useAuthStore();
  const [ownClient] = useState(() => client ?? createQueryClient());
  const queryClient = client ?? ownClient;
  useEffect(() => clearOnUserChange(store, queryClient), [store, queryClient]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * Clears `client` whenever the logged-in account changes (logout, a session that ended, a new
 * login). The page's first verdict (from 'unknown') is no change: whatever was asked before it is
 * either public or went through the store's `call`, which waits for that same check, so it is the
 * data of the person the check found (the opened screen's data, started as the script starts).
 */
export function clearOnUserChange(store: AuthStore, client: QueryClient): () => void {
  const userOf = () => {
    const state = store.getState();
    return state.status === 'authenticated' ? (state.userProfile?.id ?? null) : null;
  };
  let user = userOf();
  let known = store.getState().status !== 'unknown';
  return store.subscribe(() => {
    const next = userOf();
    const first = !known;
    known = store.getState().status !== 'unknown';
    if (next === user) return;
    user = next;
    if (first) return;
    void client.cancelQueries();
    client.clear();
  });
}
