import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoff, isThrottled } from './dynamo-client';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

describe('isThrottled', () => {
  it('knows DynamoDB throttling, thrown or as a cancellation reason, and nothing else', () => {
    expect(isThrottled(named('ProvisionedThroughputExceededException'))).toBe(true);
    expect(isThrottled(named('ThrottlingException'))).toBe(true);
    expect(isThrottled(named('RequestLimitExceeded'))).toBe(true);
    const cancelled = (...codes: string[]) =>
      named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });
    expect(isThrottled(cancelled('None', 'ThrottlingError'))).toBe(true);
    expect(isThrottled(cancelled('None', 'ConditionalCheckFailed'))).toBe(false);
    expect(isThrottled(cancelled('TransactionConflict'))).toBe(false);
    expect(isThrottled(named('ConditionalCheckFailedException'))).toBe(false);
    expect(isThrottled(named('ValidationException'))).toBe(false);
    expect(isThrottled('ThrottlingException')).toBe(false);
  });
});

describe('backoff', () => {
  afterEach(() => vi.restoreAllMocks());

  it('waits a random time (full jitter) under an exponential ceiling, capped', async () => {
    const waits: number[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((resolve: () => void, ms: number) => {
      waits.push(ms);
      resolve();
      return 0;
    }) as unknown as typeof setTimeout);
    const random = vi.spyOn(Math, 'random');
    for (const [attempt, draw] of [
      [1, 0.5],
      [3, 0.999],
      [3, 0],
      [12, 0.999],
    ] as const) {
      random.mockReturnValueOnce(draw);
      await backoff(attempt);
    }
    // 50 ms * 2^attempt is the ceiling; the draw picks a point under it; 5 s caps it.
    expect(waits).toEqual([50, 0.999 * 400, 0, 0.999 * 5_000]);
  });
});
