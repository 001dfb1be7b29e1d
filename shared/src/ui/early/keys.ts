import type { EndpointName } from '../../api/contract';

/**
 * What the page's early script (./pageScript.ts) and the app's client (./earlyRequests.ts) agree
 * on: the requests the script sent, by the key 'checkAuth' or '<name> <JSON body>', in
 * `window.__portalEarly`. Each is taken once.
 */
export type EarlyRequests = Record<string, Promise<Response> | undefined>;

declare global {
  interface Window {
    __portalEarly?: EarlyRequests;
  }
}

/**
 * The key of a call: its name and body text, except checkAuth, which is matched by its name alone
 * (an early one is always taken by the app's first checkAuth: refresh tokens are single-use).
 */
export const earlyKeyOf = (name: EndpointName, body: string): string =>
  name === 'checkAuth' ? name : `${name} ${body}`;
