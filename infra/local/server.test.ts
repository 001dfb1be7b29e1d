import { describe, expect, it } from 'vitest';
import { SLOW_REQUEST_MS, shouldLogRequest } from './server';

describe('which requests the local server prints', () => {
  it('prints server errors and slow requests, and nothing else by default', () => {
    expect(shouldLogRequest(200, 12)).toBe(false);
    expect(shouldLogRequest(401, 5)).toBe(false);
    expect(shouldLogRequest(409, SLOW_REQUEST_MS)).toBe(false);
    expect(shouldLogRequest(200, SLOW_REQUEST_MS + 1)).toBe(true);
    expect(shouldLogRequest(500, 3)).toBe(true);
    expect(shouldLogRequest(502, 3)).toBe(true);
  });

  it('prints every request at LOG_LEVEL=debug', () => {
    expect(shouldLogRequest(200, 1, true)).toBe(true);
    expect(shouldLogRequest(404, 1, true)).toBe(true);
  });
});
