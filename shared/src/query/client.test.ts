import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { createQueryClient, isTransientError, MAX_RETRIES, shouldRetry } from './client';

describe('query retry policy', () => {
  it.each([
    [new ApiError('Network Error', 'network'), true],
    [new ApiError('timeout of 15000 ms exceeded', 'timeout'), true],
    [new ApiError('Bad gateway', 'http', 502), true],
    [new ApiError('Internal', 'http', 500), true],
    [new ApiError('Not found', 'http', 404), false],
    [new ApiError('Refused', 'http', 400), false],
    [new ApiError('Log in', 'http', 401), false],
    [new ApiError('Conflict', 'http', 409), false],
    [new ApiError('Request aborted', 'aborted'), false],
    [new ApiError('Unreadable', 'invalid-response', 200), false],
    [new Error('a bug'), false],
  ] as const)('%s is transient: %s', (error, transient) => {
    expect(isTransientError(error)).toBe(transient);
    expect(shouldRetry(0, error)).toBe(transient);
  });

  it(`gives up on a transient failure after ${MAX_RETRIES} retries`, () => {
    const error = new ApiError('Internal', 'http', 500);
    expect(shouldRetry(MAX_RETRIES - 1, error)).toBe(true);
    expect(shouldRetry(MAX_RETRIES, error)).toBe(false);
  });

  it('queries use it, keep data fresh for a while and do not refetch on focus; mutations never retry', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.retry).toBe(shouldRetry);
    expect(defaults.queries?.staleTime).toBeGreaterThan(0);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
    const overridden = createQueryClient({ queries: { retry: false } }).getDefaultOptions();
    expect(overridden.queries?.retry).toBe(false);
    expect(overridden.queries?.refetchOnWindowFocus).toBe(false);
  });
});
