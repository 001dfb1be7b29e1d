import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { createQueryClient } from '../query/client';
import { AuthStore } from './AuthProvider';
import { earlyApiClient } from './earlyRequests';

/**
 * Test helpers for the page's early script (web-member/public/early-requests.js, loaded by both
 * apps' pages) and the apps taking its answers (./earlyRequests.ts).
 */

// Vitest runs from the repository's root (vitest.config.ts).
const earlyScript = readFileSync(join(process.cwd(), 'web-member', 'public', 'early-requests.js'), 'utf8');

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

/** Opens `url` and runs the page's early script as the browser would, with `fetchImpl` as the page's fetch. */
export function runEarlyScript(url: string, fetchImpl: typeof fetch): void {
  window.history.replaceState(null, '', url);
  vi.stubGlobal('fetch', fetchImpl);
  new Function(earlyScript)();
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
