import { describe, expect, it } from 'vitest';
import type { AttemptKind, AttemptStore } from './attempt-store';
import {
  ACCOUNT_PACE,
  LIMITS,
  SIGNUP_LIMIT,
  SIGNUP_WINDOW_MS,
  WINDOW_MS,
  accountDelayMs,
  createLoginLimiter,
  createSignupLimiter,
} from './rate-limit';
import { DomainError } from '../errors';

/**
 * The limiter's rules with an in-memory store that keeps the DynamoDB adapter's contract
 * (test/handlers/auth.test.ts runs the same rules against DynamoDB Local, in parallel), and a
 * clock the test moves: no test here waits.
 */
function memoryStore(): AttemptStore {
  const items = new Map<string, { count: number; windowStart: number; notBefore?: number }>();
  const id = (kind: AttemptKind, value: string) => `${kind}#${value}`;
  return {
    async take(kind, value, limit, windowMs, now) {
      const item = items.get(id(kind, value));
      if (!item || item.windowStart <= now - windowMs) {
        items.set(id(kind, value), { count: 1, windowStart: now });
        return { allowed: true, count: 1, windowStart: now };
      }
      if (item.count >= limit) return { allowed: false, retryAfterMs: item.windowStart + windowMs - now };
      item.count++;
      return { allowed: true, count: item.count, windowStart: item.windowStart };
    },
    async giveBack(kind, value, windowStart) {
      const item = items.get(id(kind, value));
      if (item && item.windowStart === windowStart && item.count > 0) item.count--;
    },
    async clear(kind, value) {
      items.delete(id(kind, value));
    },
    async pace(kind, value, now, nextAt, onlyIfDue) {
      const item = items.get(id(kind, value));
      if (!item) return { allowed: true };
      if (onlyIfDue && item.notBefore !== undefined && item.notBefore > now) {
        return { allowed: false, retryAfterMs: item.notBefore - now };
      }
      item.notBefore = nextAt;
      return { allowed: true };
    },
  };
}

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const clock = () => now;
  const store = memoryStore();
  return {
    limiter: createLoginLimiter(store, clock),
    signups: createSignupLimiter(store, clock),
    advance: (ms: number) => (now += ms),
  };
}

/** The 429 a call threw, as the person sees it; undefined when it was allowed. */
async function refusal(attempt: Promise<unknown>): Promise<{ message: string; retryAfter: string } | undefined> {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'too-many-requests') throw error;
    return { message: error.message, retryAfter: error.headers!['retry-after']! };
  }
}

const account = 'owner@example.com';

describe('the (account, address) limit', () => {
  it(`counts ${LIMITS.pair} attempts, then refuses until the window that began with the first one ends`, async () => {
    const { limiter, advance } = setup();
    for (let i = 0; i < LIMITS.pair; i++) {
      await limiter.begin(account, '192.0.2.1');
      advance(60_000);
    }
    expect(await refusal(limiter.begin(account, '192.0.2.1'))).toEqual({
      message: 'Too many attempts. Try again in 10 minutes.',
      retryAfter: '600',
    });
    advance(10 * 60_000 - 1);
    expect(await refusal(limiter.begin(account, '192.0.2.1'))).toMatchObject({ retryAfter: '1' });
    advance(1);
    expect(await refusal(limiter.begin(account, '192.0.2.1'))).toBeUndefined();
  });

  it("does not lock the owner out: another address's attempts on the account are not refused", async () => {
    const { limiter } = setup();
    for (let i = 0; i < LIMITS.pair; i++) await limiter.begin(account, '198.51.100.66');
    expect(await refusal(limiter.begin(account, '198.51.100.66'))).toBeDefined();
    expect(await refusal(limiter.begin(account, '203.0.113.9'))).toBeUndefined();
  });

  it('forgets a pair when its password was right', async () => {
    const { limiter } = setup();
    for (let i = 0; i < LIMITS.pair - 1; i++) await limiter.begin(account, '192.0.2.1');
    await (await limiter.begin(account, '192.0.2.1')).succeeded();
    for (let i = 0; i < LIMITS.pair; i++) await limiter.begin(account, '192.0.2.1');
    expect(await refusal(limiter.begin(account, '192.0.2.1'))).toBeDefined();
  });
});

describe('the address limit', () => {
  it(`refuses the ${LIMITS.address + 1}th attempt across accounts, and starts again when the window ends`, async () => {
    const { limiter, advance } = setup();
    for (let i = 0; i < LIMITS.address; i++) await limiter.begin(`user${i}@example.com`, '192.0.2.7');
    expect(await refusal(limiter.begin(account, '192.0.2.7'))).toEqual({
      message: 'Too many attempts. Try again in 15 minutes.',
      retryAfter: '900',
    });
    advance(WINDOW_MS);
    expect(await refusal(limiter.begin(account, '192.0.2.7'))).toBeUndefined();
  });

  it('gives back the pair attempt it refused, so it is not counted as a guess', async () => {
    const { limiter, advance } = setup();
    for (let i = 0; i < LIMITS.address; i++) await limiter.begin(`user${i}@example.com`, '192.0.2.7');
    for (let i = 0; i < 10; i++) expect(await refusal(limiter.begin(account, '192.0.2.7'))).toBeDefined();
    advance(WINDOW_MS);
    for (let i = 0; i < LIMITS.pair; i++) expect(await refusal(limiter.begin(account, '192.0.2.7'))).toBeUndefined();
  });
});

describe('the account pace', () => {
  it('delays grow by doubling after the free attempts, up to the window', () => {
    const free = ACCOUNT_PACE.freeAttempts;
    expect([free, free + 1, free + 2, free + 3, free + 10, free + 100].map(accountDelayMs)).toEqual([
      0,
      1000,
      2000,
      4000,
      512_000,
      WINDOW_MS,
    ]);
  });

  it('holds back a returning address until the delay has passed, with a Retry-After that grows', async () => {
    const { limiter, advance } = setup();
    const address = (i: number) => `198.51.100.${i}`;
    for (let i = 1; i <= ACCOUNT_PACE.freeAttempts + 1; i++) await limiter.begin(account, address(i));
    // Attempt 11 set the next paced time 1 s out; a returning address must wait for it.
    expect(await refusal(limiter.begin(account, address(1)))).toEqual({
      message: 'Too many attempts. Try again in 1 second.',
      retryAfter: '1',
    });
    advance(1000);
    await limiter.begin(account, address(1));
    expect(await refusal(limiter.begin(account, address(2)))).toMatchObject({ retryAfter: '2' });
    advance(2000);
    await limiter.begin(account, address(2));
    expect(await refusal(limiter.begin(account, address(3)))).toMatchObject({ retryAfter: '4' });
  });

  it("never holds back an address's first attempt on the account: the owner's own device still gets in", async () => {
    const { limiter } = setup();
    for (let i = 1; i <= ACCOUNT_PACE.freeAttempts + 8; i++) await limiter.begin(account, `198.51.100.${i}`);
    expect(await refusal(limiter.begin(account, '198.51.100.1'))).toBeDefined();
    expect(await refusal(limiter.begin(account, '203.0.113.200'))).toBeUndefined();
  });

  it('starts again when the window ends', async () => {
    const { limiter, advance } = setup();
    for (let i = 1; i <= ACCOUNT_PACE.freeAttempts + 5; i++) await limiter.begin(account, `198.51.100.${i}`);
    expect(await refusal(limiter.begin(account, '198.51.100.1'))).toBeDefined();
    advance(WINDOW_MS);
    // A new window: the address returns, and returns again at once, without a delay.
    expect(await refusal(limiter.begin(account, '198.51.100.1'))).toBeUndefined();
    expect(await refusal(limiter.begin(account, '198.51.100.1'))).toBeUndefined();
  });
});

describe('sign-ups per address', () => {
  it(`allows ${SIGNUP_LIMIT} an hour and says when to come back`, async () => {
    const { signups, advance } = setup();
    for (let i = 0; i < SIGNUP_LIMIT; i++) await signups.take('192.0.2.50');
    expect(await refusal(signups.take('192.0.2.50'))).toEqual({
      message: 'Too many attempts. Try again in 60 minutes.',
      retryAfter: '3600',
    });
    expect(await refusal(signups.take('192.0.2.51'))).toBeUndefined();
    advance(SIGNUP_WINDOW_MS);
    expect(await refusal(signups.take('192.0.2.50'))).toBeUndefined();
  });
});
