import { createApiClient, type ApiClient } from '../../api/client';
import type { EndpointName } from '../../api/contract';
import { earlyKeyOf, type EarlyRequests } from './keys';

export type { EarlyRequests } from './keys';

/**
 * A `fetch` for the API client that answers the app's first calls with the requests the page's
 * early script already sent, when the call is the same (same /api name and, except checkAuth,
 * the same body text), and otherwise fetches. The answer goes through the client's usual checks.
 *
 * checkAuth is matched by its name alone, and an early one is always taken by the app's first
 * checkAuth: refresh tokens are single-use, so the app must never send a second check while the
 * early one is in flight (that would present a rotated token and end the session).
 */
export function earlyFetch(
  early: EarlyRequests | undefined,
  fallback: typeof fetch = (...args) => fetch(...args),
): typeof fetch {
  return (input, init) => {
    const path = typeof input === 'string' ? input : null;
    const name = path?.startsWith('/api/') ? path.slice('/api/'.length) : null;
    if (early && name && init?.method === 'POST' && typeof init.body === 'string') {
      const key = earlyKeyOf(name as EndpointName, init.body);
      const sent = early[key];
      if (sent) {
        delete early[key];
        return withSignal(sent, init.signal ?? undefined);
      }
    }
    return fallback(input, init);
  };
}

/** The early answer, or an AbortError as fetch gives when the caller's signal aborts first. */
function withSignal(response: Promise<Response>, signal: AbortSignal | undefined): Promise<Response> {
  if (!signal) return response;
  if (signal.aborted) return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    response.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The app's API client, taking the answers of the page's early script (earlyFetch). It marks the
 * app as started first, so an early script that runs only now (after the app's own script came
 * from the cache) sends nothing.
 */
export function earlyApiClient(fallback?: typeof fetch): ApiClient {
  window.__portalEarly ??= {};
  return createApiClient({ fetch: earlyFetch(window.__portalEarly, fallback) });
}
