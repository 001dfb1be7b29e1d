import type { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { createApiClient, type ApiClient } from '../src/api/client';
import type { EndpointName } from '../src/api/contract';
import type { AuthResponse, UserProfile } from '../src/api/schemas';
import { createQueryClient } from '../src/query/client';
import { AuthProvider, AuthStore } from '../src/ui/hooks/AuthProvider';
import { MAIN_PICTURE_TIMING } from '../src/ui/components/MainPicture';
import { QueryProvider } from '../src/ui/hooks/QueryProvider';

/**
 * Test helpers for the UI tests: a fake /api behind the real typed client (so parsing and error
 * mapping are the real ones), factories for the auth answers, and the providers an app runs in.
 */

export function profile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 'user-1',
    email: 'ann.lee@example.com',
    first_name: '',
    last_name: '',
    phone: '',
    street_address_1: '',
    address_unit: '',
    city: '',
    state: '',
    zipcode: '',
    isEmailVerified: false,
    isAccountCreated: 0,
    isPayoutMethodAdded: 0,
    stripeID: null,
    isAdmin: false,
    shareCode: 'ANNLEE42',
    ...overrides,
  };
}

export function authAnswer(overrides: Partial<UserProfile> = {}, accessToken = 'access-1'): AuthResponse {
  const userProfile = profile(overrides);
  return {
    loginValid: true,
    isLoggedIn: true,
    isAdmin: userProfile.isAdmin,
    userProfile,
    refresh_token: 'refresh-in-cookie',
    access_token: accessToken,
    expires_in: 900,
  };
}

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** Simulate a connection failure instead of an answer. */
  networkError?: boolean;
}

export type FakeHandler = (request: { body: unknown; authorization: string | null }) => FakeReply | Promise<FakeReply>;

export interface RecordedCall {
  name: string;
  body: unknown;
  authorization: string | null;
}

export interface FakeApi {
  api: ApiClient;
  calls: RecordedCall[];
  callsTo: (name: EndpointName) => RecordedCall[];
  on: (name: EndpointName, handler: FakeHandler) => void;
}

export function fakeApi(handlers: Partial<Record<EndpointName, FakeHandler>> = {}): FakeApi {
  const table = new Map<string, FakeHandler>(Object.entries(handlers) as [string, FakeHandler][]);
  const calls: RecordedCall[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const name = url.replace(/^.*\/api\//, '');
    const headers = new Headers(init?.headers);
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const call = { name, body, authorization: headers.get('authorization') };
    calls.push(call);
    const handler = table.get(name);
    const reply: FakeReply = handler
      ? await handler(call)
      : { status: 404, body: { message: `No fake handler for ${name}` } };
    if (reply.networkError) throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return {
    api: createApiClient({ fetch: fetchImpl as typeof fetch, timeoutMs: 2_000 }),
    calls,
    callsTo: (name) => calls.filter((call) => call.name === name),
    on: (name, handler) => {
      table.set(name, handler);
    },
  };
}

export const unauthorized: FakeReply = { status: 401, body: { message: 'Log in to continue.' } };

/** A promise you resolve from the test, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A fresh query cache for one test: the app's defaults, but a failure is final (no retries to wait for). */
export function testQueryClient(): QueryClient {
  return createQueryClient({ queries: { retry: false } });
}

/**
 * Renders `ui` in a memory router at `path`, under an AuthProvider whose store talks to the fake
 * API and a QueryProvider with a fresh cache (`queryClient`, or one from testQueryClient()).
 */
export function renderWithAuth(
  ui: ReactNode,
  api: FakeApi,
  options: { path?: string; basename?: string; queryClient?: QueryClient } = {},
) {
  const store = new AuthStore(api.api);
  const queryClient = options.queryClient ?? testQueryClient();
  const view = render(
    <MemoryRouter basename={options.basename} initialEntries={[options.path ?? '/']}>
      <AuthProvider store={store}>
        <QueryProvider client={queryClient}>{ui}</QueryProvider>
      </AuthProvider>
    </MemoryRouter>,
  );
  return { ...view, store, queryClient };
}

/** The router's current address (path and query), for `getByTestId('where')`. */
export function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

/**
 * What a browser does for the page's main picture (MainPicture.tsx), which jsdom never loads: waits
 * for it in the page and fires its load event, so what waits for it follows at once.
 */
export async function showMainPicture(): Promise<void> {
  const picture = await waitFor(() => {
    const found = document.querySelector(`img[elementtiming="${MAIN_PICTURE_TIMING}"]`);
    if (!found) throw new Error('The main picture is not in the page.');
    return found;
  });
  fireEvent.load(picture);
}
