import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createQueryClient } from '../query/client';
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

/** Clears `client` whenever the logged-in account changes (logout, a session that ended, a new login). */
export function clearOnUserChange(store: AuthStore, client: QueryClient): () => void {
  const userOf = () => {
    const state = store.getState();
    return state.status === 'authenticated' ? (state.userProfile?.id ?? null) : null;
  };
  let user = userOf();
  return store.subscribe(() => {
    const next = userOf();
    if (next === user) return;
    user = next;
    void client.cancelQueries();
    client.clear();
  });
}
