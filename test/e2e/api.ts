import { request as httpRequest } from 'node:http';
import { inject } from 'vitest';

/**
 * The browser tests' one way to call the portal's API besides the browser: POST /api/<name> as
 * the apps make it, a JSON body (or a FormData upload as is), the access token as a Bearer header.
 * The shared portal's unless `origin` names another (a file that starts a portal of its own).
 *
 * Each sign-up comes from a loopback address of its own (127.0.0.2, 127.0.0.3, …), as members
 * sign up from machines of their own: the portal counts sign-ups per address (10 an hour, as in
 * AWS), and the browser's own sign-ups keep 127.0.0.1's.
 */
export interface ApiOptions {
  /** Another portal's origin (`portal.url`); the shared portal's when absent. */
  origin?: string;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

let nextSignupSource = 2;

/** A POST to `url` from `localAddress` (a loopback address), with node:http. */
function postFrom(url: URL, body: string, headers: Record<string, string>, localAddress: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

async function send(name: string, body: unknown, token: string | undefined, options: ApiOptions) {
  const url = new URL(`/api/${name}`, options.origin ?? inject('portalUrl'));
  const upload = body instanceof FormData;
  const headers: Record<string, string> = {
    ...(upload ? {} : { 'content-type': 'application/json' }),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  if (name === 'signup' && !upload) {
    const source = nextSignupSource++;
    const from = `127.0.${Math.floor(source / 250)}.${(source % 250) + 2}`;
    return postFrom(url, JSON.stringify(body), headers, from);
  }
  const response = await fetch(url, { method: 'POST', headers, body: upload ? body : JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

/** The call's status and JSON body, whatever the status: for a test of a refusal. */
export async function apiAnswer<T>(
  name: string,
  body: unknown,
  token?: string,
  options: ApiOptions = {},
): Promise<ApiAnswer<T>> {
  const { status, text } = await send(name, body, token, options);
  return { status, body: JSON.parse(text) as T };
}

/** The call's JSON body; an answer outside 2xx fails the test with its status and body. */
export async function api<T>(name: string, body: unknown, token?: string, options: ApiOptions = {}): Promise<T> {
  const { status, text } = await send(name, body, token, options);
  if (status < 200 || status > 299) throw new Error(`${name} answered ${status}: ${text}`);
  return JSON.parse(text) as T;
}
