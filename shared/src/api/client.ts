import type { EndpointName, RequestOf, ResponseOf } from './contract';

/**
 * The one typed API client both apps use. Every failure becomes an ApiError whose message is
 * meant for a person: the server's own message when it sent one, otherwise the generic
 * network messages of spec section 8. Unlike the old system (spec section 9: "Default
 * timeout: none"), every call has a time-out.
 */

export const DEFAULT_TIMEOUT_MS = 15_000;

export type ApiErrorKind = 'network' | 'timeout' | 'aborted' | 'http' | 'invalid-response';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status?: number,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  /** Origin the /api paths are relative to; '' means the page's own origin. */
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
  accessToken?: string | null;
  timeoutMs?: number;
}

export type ApiClient = <N extends EndpointName>(
  name: N,
  body: RequestOf<N> | FormData,
  options?: CallOptions,
) => Promise<ResponseOf<N>>;

/**
 * A call made as the signed-in person: the caller (the apps' auth store, ui/hooks/authStore.ts)
 * adds the access token, so the options do not name one.
 */
export type AuthenticatedCall = <N extends EndpointName>(
  name: N,
  body: RequestOf<N> | FormData,
  options?: Omit<CallOptions, 'accessToken'>,
) => Promise<ResponseOf<N>>;

/** Every call of the contract is `POST /api/<name>` (contract.ts; asserted by client.test.ts). */
export const pathOf = (name: EndpointName): string => `/api/${name}`;

declare global {
  interface ImportMeta {
    /** Vite's and Vitest's build variables: `import.meta.env.DEV` is replaced at build time. */
    readonly env: { readonly DEV: boolean; readonly MODE: string };
  }
}

/**
 * In development and tests every answer is checked against its call's answer schema (the contract,
 * shared/src/api/contract.ts), loaded as a chunk of its own with the first call and while it is in
 * flight: an answer that drifted from its contract fails where it is made. A production build
 * leaves the check and the contract out (the condition is false at build time), so no page
 * carries every call's schemas.
 */
let contractChunk: Promise<typeof import('./contract')> | null = null;
function loadContract() {
  if (!contractChunk) {
    contractChunk = import('./contract');
    // A failed load (the network) is tried again by the next call.
    contractChunk.catch(() => (contractChunk = null));
  }
  return contractChunk;
}

/** The error body's message and field messages (shared/src/api/schemas.ts ErrorBody), read without zod. */
function errorBodyOf(json: unknown): { message: string; fields?: Record<string, string> } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { message, fields } = json as { message?: unknown; fields?: unknown };
  if (typeof message !== 'string') return undefined;
  if (fields === undefined) return { message };
  const valid =
    typeof fields === 'object' && fields !== null && Object.values(fields).every((value) => typeof value === 'string');
  return valid ? { message, fields: fields as Record<string, string> } : undefined;
}

export function createApiClient(options: ClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  return async (name, body, callOptions = {}) => {
    const checking = import.meta.env.DEV || import.meta.env.MODE === 'test' ? loadContract() : null;
    // Handled below; without this a failed load before the answer would be an unhandled rejection.
    checking?.catch(() => undefined);
    const timeoutMs = callOptions.timeoutMs ?? defaultTimeout;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onOuterAbort = () => controller.abort();
    callOptions.signal?.addEventListener('abort', onOuterAbort, { once: true });

    const headers: Record<string, string> = { accept: 'application/json' };
    if (callOptions.accessToken) headers.authorization = `Bearer ${callOptions.accessToken}`;
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (!isForm) headers['content-type'] = 'application/json';

    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${pathOf(name)}`, {
        method: 'POST',
        headers,
        body: isForm ? (body as FormData) : JSON.stringify(body ?? {}),
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) throw new ApiError(`timeout of ${timeoutMs} ms exceeded`, 'timeout');
      if (controller.signal.aborted) throw new ApiError('Request aborted', 'aborted');
      throw new ApiError(
        'Network Error: the server could not be reached. Check your connection and try again.',
        'network',
        undefined,
        undefined,
      );
    } finally {
      clearTimeout(timer);
      callOptions.signal?.removeEventListener('abort', onOuterAbort);
    }

    const text = await response.text().catch(() => '');
    let json: unknown = undefined;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }

    if (response.status < 200 || response.status > 299) {
      const error = errorBodyOf(json);
      const message = error?.message ?? `Request failed with status code ${response.status}`;
      throw new ApiError(message, 'http', response.status, error?.fields);
    }

    if (!checking) return json as ResponseOf<typeof name>;
    let contract: Awaited<typeof checking>['contract'];
    try {
      ({ contract } = await checking);
    } catch {
      throw new ApiError(
        'Network Error: the server could not be reached. Check your connection and try again.',
        'network',
      );
    }
    const result = contract[name].response.safeParse(json);
    if (!result.success) {
      throw new ApiError(
        'The server sent an answer this page does not understand. Reload the page and try again.',
        'invalid-response',
        response.status,
      );
    }
    return result.data as ResponseOf<typeof name>;
  };
}
