import { ApiError, type ApiClient, type CallOptions } from '../../api/client';
import type { EndpointName, RequestOf, ResponseOf } from '../../api/contract';
import type { AuthResponse, Credentials, UserProfile } from '../../api/schemas';

/**
 * The session as the web apps know it. It lives in memory only: the access token is a private
 * field here and the refresh token travels solely in the HttpOnly cookie the API sets (Path=/api).
 * Nothing is written to localStorage or sessionStorage.
 *
 * Refresh tokens are single-use (each checkAuth rotates the cookie, and presenting a rotated token
 * revokes the session), so every checkAuth from one page goes through one promise: while a check is
 * in flight, everybody who asks for one shares it, and login, signup, logout and full-page
 * navigations wait for it to settle first.
 */

export type AuthStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface AuthState {
  /** 'unknown' until the first check (or login) has an answer. */
  status: AuthStatus;
  isAdmin: boolean;
  userProfile: UserProfile | null;
  /** The last check could not reach a verdict (network, time-out, server error): not a logout. */
  checkError: ApiError | null;
  /** A check is in flight. */
  checking: boolean;
}

export interface CheckOptions {
  /** Ask the server even if a check finished a moment ago. */
  force?: boolean;
}

export interface AuthStoreOptions {
  now?: () => number;
  /**
   * A check that finished less than this long ago answers for the screen that opens now, so that a
   * redirect chain such as /member -> / (or a login immediately followed by a route change) does
   * not rotate the refresh token two or three times within a second.
   */
  freshForMs?: number;
  /** Refresh the access token this long before it expires. */
  expiryMarginMs?: number;
}

const initialState: AuthState = {
  status: 'unknown',
  isAdmin: false,
  userProfile: null,
  checkError: null,
  checking: false,
};

/** A 401 (or 403) from checkAuth means "not logged in"; anything else is a failure to find out. */
export function isAuthFailure(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && (error.status === 401 || error.status === 403);
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('Something went wrong. Try again.', 'network');
}

export class AuthStore {
  readonly #api: ApiClient;
  readonly #now: () => number;
  readonly #freshForMs: number;
  readonly #expiryMarginMs: number;
  #state: AuthState = initialState;
  readonly #listeners = new Set<() => void>();
  #inflight: Promise<AuthState> | null = null;
  #accessToken: string | null = null;
  #expiresAt = 0;
  #checkedAt = Number.NEGATIVE_INFINITY;
  /** Bumped by login, signup, logout and clear: a check that started before is not applied. */
  #epoch = 0;

  constructor(api: ApiClient, options: AuthStoreOptions = {}) {
    this.#api = api;
    this.#now = options.now ?? (() => Date.now());
    this.#freshForMs = options.freshForMs ?? 3_000;
    this.#expiryMarginMs = options.expiryMarginMs ?? 30_000;
  }

  getState = (): AuthState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** Whether the in-memory access token exists (its value never leaves this class except in calls). */
  hasAccessToken(): boolean {
    return this.#accessToken !== null;
  }

  /** Single-flight: concurrent callers share one request. Never rejects; read the returned state. */
  checkAuth = (options: CheckOptions = {}): Promise<AuthState> => {
    if (this.#inflight) return this.#inflight;
    if (
      !options.force &&
      this.#state.status === 'authenticated' &&
      !this.#state.checkError &&
      this.#now() - this.#checkedAt < this.#freshForMs
    ) {
      return Promise.resolve(this.#state);
    }
    const epoch = this.#epoch;
    this.#set({ checking: true });
    const run = async (): Promise<void> => {
      try {
        const answer = await this.#api('checkAuth', {});
        if (epoch !== this.#epoch) return;
        // No session at all: logged out, answered without an error (nothing in the console).
        if (answer.isLoggedIn && 'access_token' in answer) this.#accept(answer);
        else this.#clear();
      } catch (error) {
        if (epoch !== this.#epoch) return;
        if (isAuthFailure(error)) this.#clear();
        else this.#set({ checkError: toApiError(error) });
      }
    };
    const promise: Promise<AuthState> = run().then(() => {
      if (this.#inflight === promise) this.#inflight = null;
      this.#set({ checking: false });
      return this.#state;
    });
    this.#inflight = promise;
    return promise;
  };

  /** Resolves once no check is in flight. Call before anything that would unload the page. */
  settle = async (): Promise<void> => {
    while (this.#inflight) await this.#inflight;
  };

  /** Rejects with an ApiError whose message is for the person. */
  login = async (credentials: Credentials): Promise<AuthState> => {
    await this.settle();
    this.#epoch += 1;
    const answer = await this.#api('login', credentials);
    if (!answer.loginValid || !answer.isLoggedIn) {
      throw new ApiError('The email or password is not correct.', 'http', 401);
    }
    this.#accept(answer);
    return this.#state;
  };

  /** Rejects with an ApiError; as in the old system, a failed signup leaves the person logged out. */
  signup = async (credentials: Credentials): Promise<AuthState> => {
    await this.settle();
    this.#epoch += 1;
    try {
      const answer = await this.#api('signup', credentials);
      this.#accept(answer);
      return this.#state;
    } catch (error) {
      this.#clear();
      throw toApiError(error);
    }
  };

  /**
   * Ends the session on the server (which clears the cookie) and here. If the server cannot be
   * reached the session is kept and the error thrown, so the person is not told they are logged out
   * while the cookie would log them straight back in.
   */
  logout = async (): Promise<void> => {
    await this.settle();
    this.#epoch += 1;
    try {
      await this.#api('logout', {}, { accessToken: this.#accessToken });
    } catch (error) {
      if (!isAuthFailure(error)) throw toApiError(error);
    }
    this.#clear();
  };

  /**
   * The signed-in user's profile as a call answered it (createPayoutAccount, addPayoutMethod):
   * every screen, and the red badges, show it at once, without another checkAuth. Ignored when no
   * one is signed in or the profile is another user's (an answer that arrives after a logout).
   */
  setUserProfile = (profile: UserProfile): void => {
    const current = this.#state.userProfile;
    if (this.#state.status !== 'authenticated' || !current || current.id !== profile.id) return;
    this.#set({ userProfile: profile, isAdmin: profile.isAdmin });
  };

  /** Forget the session locally (the state and the access token). */
  clear = (): void => {
    this.#epoch += 1;
    this.#clear();
  };

  /**
   * An authenticated call: passes the access token (refreshing it first when missing or about to
   * expire) and, on a 401, runs one checkAuth and retries once.
   */
  call = async <N extends EndpointName>(
    name: N,
    body: RequestOf<N> | FormData,
    options: Omit<CallOptions, 'accessToken'> = {},
  ): Promise<ResponseOf<N>> => {
    if (!this.#accessToken || this.#now() >= this.#expiresAt - this.#expiryMarginMs) {
      await this.checkAuth({ force: true });
    }
    const token = this.#accessToken;
    if (!token) throw this.#sessionEnded();
    try {
      return await this.#api(name, body, { ...options, accessToken: token });
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'http' && error.status === 401)) throw error;
      const state = await this.checkAuth({ force: true });
      const fresh = this.#accessToken;
      if (state.status !== 'authenticated' || !fresh) throw error;
      return await this.#api(name, body, { ...options, accessToken: fresh });
    }
  };

  /** A public call (no access token), e.g. verifying an e-mail link that may open without a session. */
  callPublic = <N extends EndpointName>(
    name: N,
    body: RequestOf<N>,
    options: Omit<CallOptions, 'accessToken'> = {},
  ): Promise<ResponseOf<N>> => this.#api(name, body, options);

  #sessionEnded(): ApiError {
    return this.#state.checkError ?? new ApiError('Your session has ended. Log in again.', 'http', 401);
  }

  #accept(answer: AuthResponse): void {
    const now = this.#now();
    this.#accessToken = answer.access_token;
    this.#expiresAt = now + answer.expires_in * 1000;
    this.#checkedAt = now;
    this.#set({
      status: 'authenticated',
      isAdmin: answer.isAdmin,
      userProfile: answer.userProfile,
      checkError: null,
    });
  }

  #clear(): void {
    this.#accessToken = null;
    this.#expiresAt = 0;
    this.#checkedAt = Number.NEGATIVE_INFINITY;
    this.#set({ status: 'anonymous', isAdmin: false, userProfile: null, checkError: null });
  }

  #set(patch: Partial<AuthState>): void {
    const next = { ...this.#state, ...patch };
    const keys = Object.keys(patch) as (keyof AuthState)[];
    if (keys.every((key) => next[key] === this.#state[key])) return;
    this.#state = next;
    for (const listener of this.#listeners) listener();
  }
}
