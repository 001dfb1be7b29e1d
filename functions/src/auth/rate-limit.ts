import type { LoginFailureRepository } from './session-store';
import { DomainError } from '../errors';

/**
 * Failed logins are limited per account and per client address over a sliding 15-minute window.
 * The address limit is higher than the account one because many people can share an address
 * (an office, a mobile carrier's NAT); it stops one client from trying many accounts.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const LIMITS = { account: 5, address: 20 } as const;

type Kind = keyof typeof LIMITS;

export function minutesUntilAllowed(failures: readonly number[], limit: number, now: number): number {
  const recent = failures.filter((at) => at > now - WINDOW_MS).sort((a, b) => a - b);
  if (recent.length < limit) return 0;
  // Enough of the oldest failures must age out of the window to leave room for one more try.
  const freedAt = recent[recent.length - limit]! + WINDOW_MS;
  return Math.max(1, Math.ceil((freedAt - now) / 60_000));
}

export function createLoginLimiter(repository: LoginFailureRepository, clock: () => number = Date.now) {
  const keysOf = (email: string, address: string): [Kind, string][] => [
    ['account', email],
    ['address', address],
  ];

  return {
    /** Throws 429 when either the account or the address has used up its failures. */
    async assertAllowed(email: string, address: string): Promise<void> {
      const now = clock();
      const waits = await Promise.all(
        keysOf(email, address).map(async ([kind, value]) =>
          minutesUntilAllowed(await repository.recent(kind, value), LIMITS[kind], now),
        ),
      );
      const minutes = Math.max(...waits);
      if (minutes > 0) {
        throw new DomainError(
          'too-many-requests',
          `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          { headers: { 'retry-after': String(minutes * 60) } },
        );
      }
    },

    async recordFailure(email: string, address: string): Promise<void> {
      for (const [kind, value] of keysOf(email, address)) {
        for (let attempt = 0; attempt < 5; attempt++) {
          const now = clock();
          const stored = await repository.recent(kind, value);
          const next = [...stored.filter((at) => at > now - WINDOW_MS), now];
          const expiresAt = Math.ceil((now + WINDOW_MS) / 1000);
          if (await repository.record(kind, value, next, stored.length, expiresAt)) break;
        }
      }
    },

    async recordSuccess(email: string): Promise<void> {
      await repository.clear('account', email);
    },
  };
}
