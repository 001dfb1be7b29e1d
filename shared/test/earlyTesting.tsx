import type { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { createQueryClient } from '../src/query/client';
import { AuthStore } from '../src/ui/hooks/AuthProvider';
import { earlyApiClient } from '../src/ui/early/earlyRequests';
import { sendEarlyRequests, type EarlyScreens } from '../src/ui/early/pageScript';

/**
 * Test helpers for the pages' early scripts (./early/pageScript.ts with an app's screens,
 * web-member/src/earlyScreens.ts, web-admin/src/earlyScreens.ts) and the apps taking their answers
 * (./early/earlyRequests.ts).
 */

export type Answer = { status?: number; body: unknown };

export interface Sent {
  name: string;
  body: string;
  authorization: string | null;
}

/** A fetch answering /api/<name> from `answers`, recording what was sent. */
export function earlyServer(answers: Record<string, Answer>) {
  const sent: Sent[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const name = String(input).replace(/^\/api\//, '');
    sent.push({
      name,
      body: typeof init?.body === 'string' ? init.body : '',
      authorization: new Headers(init?.headers).get('authorization'),
    });
    const answer = answers[name] ?? { status: 404, body: { message: `No answer for ${name}` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return { sent, fetchImpl };
}

/** Opens `url` and runs an app's early script as the page does, with `fetchImpl` as the page's fetch. */
export function runEarlyScript(screens: EarlyScreens, url: string, fetchImpl: typeof fetch): void {
  window.history.replaceState(null, '', url);
  vi.stubGlobal('fetch', fetchImpl);
  sendEarlyRequests(screens);
}

/** What an app's main.tsx does: take the early requests, prefetch the landing screen's data. */
export function startAppWithEarly(
  startLandingData: (location: Location, store: AuthStore, client: QueryClient) => void,
  fallback: typeof fetch,
): { store: AuthStore; client: QueryClient } {
  const store = new AuthStore(earlyApiClient(fallback));
  const client = createQueryClient();
  startLandingData(window.location, store, client);
  return { store, client };
}

/** The image preloads the early script added to the page's head. */
export const imagePreloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map((link) => ({
    href: link.getAttribute('href'),
    fetchpriority: link.getAttribute('fetchpriority'),
  }));

/** Undoes what runEarlyScript and the script did, after each test. */
export function resetEarlyScript(): void {
  vi.unstubAllGlobals();
  delete window.__portalEarly;
  document.head
    .querySelectorAll('link[rel="preload"], link[rel="modulepreload"], meta[name="portal-screen-chunks"]')
    .forEach((element) => element.remove());
  window.history.replaceState(null, '', '/');
}
