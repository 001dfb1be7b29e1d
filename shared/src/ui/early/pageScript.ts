import type { EndpointName, RequestOf, ResponseOf } from '../../api/contract';
import { earlyKeyOf, type EarlyRequests } from './keys';

/** The call's path, as the contract's modules name it (`/api/<name>`); no contract code in the page script. */
const pathOf = <N extends EndpointName>(name: N): `/api/${N}` => `/api/${name}`;

/**
 * The page's early script (issue 16): the opened screen's first requests, sent as the page
 * arrives, before the app's own script has loaded. Each app builds its own from its entry
 * (web-member/src/early.ts, web-admin/src/early.ts; shared/src/build/early-script.ts bundles it
 * into a small classic script of its own, loaded `async` from the page's head). The app takes
 * these answers instead of asking again (./earlyRequests.ts: the same names and bodies as its own
 * first calls, keyed alike); nothing here is shown or trusted before the app has checked it as it
 * checks any answer. Once the data's answer names the first picture, that picture is preloaded at
 * high priority, so it loads while the app's script is still arriving.
 *
 * The calls are the contract's: names, paths and request bodies are typed by shared/src/api, and
 * the answers are read only for their first picture's address (an unchecked string, only ever
 * handed to a `<link rel="preload">`).
 */

/**
 * One call of the contract with its request body, and where its answer names the pictures the
 * first screen shows: one address, or the first screenful's (a list's cards), in page order.
 */
export type FirstCall<N extends EndpointName = EndpointName> = {
  [K in N]: { name: K; body: RequestOf<K>; firstImage?: (answer: ResponseOf<K>) => unknown };
}[N];

/** What the early script sends for the address opened. */
export interface EarlyPlan {
  /** Sent at once (a public call). */
  now?: FirstCall;
  /** Sent after the session check, with its access token (the session check is sent in any case). */
  afterSession?: FirstCall;
  /** Only the session check. */
  sessionOnly?: boolean;
  /** The screen whose chunks the page's `<meta name="portal-screen-chunks">` names, preloaded now. */
  screen?: string;
}

/** An app's screens: the plan for an address (path without its trailing slash, and the query). */
export type EarlyScreens = (path: string, params: URLSearchParams) => EarlyPlan | undefined;

/** Builds one call, typed by the contract: `call('getApprovedProduct', { id })`. */
export const call = <N extends EndpointName>(
  name: N,
  body: RequestOf<N>,
  firstImage?: (answer: ResponseOf<N>) => unknown,
): FirstCall => ({ name, body, firstImage }) as FirstCall;

/** The JSON body text the app's client sends for `body` (shared/src/api/client.ts). */
const bodyText = (body: unknown): string => JSON.stringify(body ?? {});

/**
 * Runs the early script for this page: sends the plan's calls and registers each in
 * `window.__portalEarly` for the app to take. Does nothing when the app has started first (its
 * script came from the cache and marked `__portalEarly`) or the browser has no fetch.
 */
export function sendEarlyRequests(screens: EarlyScreens): void {
  if (window.__portalEarly || typeof window.fetch !== 'function') return;
  const early: EarlyRequests = (window.__portalEarly = {});
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const plan = screens(path, new URLSearchParams(location.search));
  if (!plan) return;

  function send(name: EndpointName, body: string, token?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    return fetch(pathOf(name), { method: 'POST', headers, body, credentials: 'same-origin' });
  }

  /**
   * The answer, read once here: `use` sees it parsed (null for a failure or a body that is not
   * JSON), and the app is handed a copy of the same answer only after that. So what the early
   * script does with an answer (send the data call, preload the first picture) never waits
   * behind the app's own work on it: reading a clone's body instead took a task of its own that
   * ran after the app had validated and rendered the answer (the first picture's request left
   * about 0.5 s after the data had arrived on a busy machine).
   */
  function readFirst(request: Promise<Response>, use: (answer: unknown) => void): Promise<Response> {
    return request.then(async (response) => {
      const text = await response.text();
      let answer: unknown = null;
      if (response.ok) {
        try {
          answer = JSON.parse(text) as unknown;
        } catch {
          answer = null;
        }
      }
      try {
        use(answer);
      } catch {
        // What the early script does is only ever ahead of the app; the app does it again.
      }
      // A status that has no body (204, 304…) cannot be given one, not even an empty one.
      const nullBody = [101, 204, 205, 304].includes(response.status);
      return new Response(nullBody ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    });
  }

  /** Registers a request for the app to take; a request nobody takes fails quietly. */
  function register(key: string, request: Promise<Response>): Promise<Response> {
    // Not taken (the page left first): a failed request is nobody's error.
    request.catch(() => undefined);
    early[key] = request;
    return request;
  }

  /**
   * Preloads the pictures the answer names for the first screen (one, or a first screenful's), at
   * high priority as the app's own `<img fetchpriority="high">` asks for them: so none of them
   * waits for the app's script to be fetched and run before its request leaves.
   */
  function preloadPicture(first: FirstCall, answer: unknown): void {
    if (!answer || !first.firstImage) return;
    const named = (first.firstImage as (answer: unknown) => unknown)(answer);
    const images = (Array.isArray(named) ? named : [named]).filter(Boolean);
    const seen = new Set<string>();
    for (const image of images) {
      // An address, or a hosted picture's variants (issue 28): `srcset` and `sizes` as its <img> has
      // them, so the browser preloads the variant the <img> will take.
      const picture = typeof image === 'object' ? (image as Partial<Record<string, unknown>>) : undefined;
      const url = picture ? picture.src : image;
      if (typeof url !== 'string' || !url || seen.has(url)) continue;
      seen.add(url);
      preloadOne(url, picture);
    }
  }

  function preloadOne(url: string, picture: Partial<Record<string, unknown>> | undefined): void {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'image');
    link.setAttribute('href', url);
    if (picture && typeof picture.srcset === 'string' && typeof picture.sizes === 'string') {
      link.setAttribute('imagesrcset', picture.srcset);
      link.setAttribute('imagesizes', picture.sizes);
    }
    link.setAttribute('fetchpriority', 'high');
    // As the app's <img> asks (ProductImage), so the browser reuses this download for it.
    link.setAttribute('referrerpolicy', 'no-referrer');
    document.head.appendChild(link);
  }

  if (plan.now) {
    // A public call: at once. The app asks again and shows what went wrong when it fails.
    const first = plan.now;
    const body = bodyText(first.body);
    register(
      earlyKeyOf(first.name, body),
      readFirst(send(first.name, body), (answer) => preloadPicture(first, answer)),
    );
  }
  if (plan.afterSession) {
    // The data request is registered at once, so the app's call finds it however fast the app is;
    // it leaves as soon as the session check answers, with that answer's access token (the one
    // the app's call carries too). Without a session it is withdrawn: the app sends no such call
    // then (it shows the login).
    const first = plan.afterSession;
    const body = bodyText(first.body);
    const key = earlyKeyOf(first.name, body);
    let data: Promise<Response> | undefined;
    const session = readFirst(send('checkAuth', bodyText({})), (answer) => {
      const token = (answer as { access_token?: unknown } | null)?.access_token;
      if (typeof token === 'string') {
        data = readFirst(send(first.name, body, token), (page) => preloadPicture(first, page));
      } else {
        delete early[key];
      }
    });
    register(earlyKeyOf('checkAuth', '{}'), session);
    register(
      key,
      session.then(() => data ?? Promise.reject(new Error('No session.'))),
    );
  } else if (plan.sessionOnly) {
    register(earlyKeyOf('checkAuth', '{}'), send('checkAuth', bodyText({})));
  }
  // After the data's request: the picture waits on its answer, the screen's code less long.
  if (plan.screen) preloadScreen(plan.screen);
}

/**
 * The opened screen's chunks (scripts and styles), named by the build in the page's
 * `<meta name="portal-screen-chunks">` (shared/src/build/preload-chunks.ts): fetched now, beside
 * the app's first script, instead of after it has run and imported them. The app's own import
 * finds them loaded; the links the page already has are not added again.
 */
function preloadScreen(name: string): void {
  const meta = document.querySelector('meta[name="portal-screen-chunks"]');
  let chunks: { js?: unknown; css?: unknown } | undefined;
  try {
    chunks = (JSON.parse(meta?.getAttribute('content') || '{}') as Record<string, typeof chunks>)[name];
  } catch {
    return;
  }
  if (!chunks) return;
  const present = new Set([...document.getElementsByTagName('link')].map((link) => link.getAttribute('href')));
  const add = (rel: string, href: unknown, as?: string) => {
    if (typeof href !== 'string' || present.has(href)) return;
    present.add(href);
    const link = document.createElement('link');
    link.rel = rel;
    if (as) link.setAttribute('as', as);
    // As the app's module scripts and Vite's own preloads ask, so the browser reuses these.
    link.setAttribute('crossorigin', '');
    link.setAttribute('href', href);
    document.head.appendChild(link);
  };
  for (const href of Array.isArray(chunks.js) ? chunks.js : []) add('modulepreload', href);
  for (const href of Array.isArray(chunks.css) ? chunks.css : []) add('preload', href, 'style');
}

/** A path segment decoded as the router decodes it, or as it is when it is not valid. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
