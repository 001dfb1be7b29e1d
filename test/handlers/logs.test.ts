import { describe, expect, it, vi } from 'vitest';
import { checkAuth } from '@portal/shared/api/calls/check-auth';
import { call } from './helpers';

/**
 * Error lines must name the invocation they belong to: the local server runs many invocations of
 * one function at once in one process (as Lambda's concurrent runtime does), and a reference
 * quoted by a person must find its own log line. The logger reads its level once, when its
 * module loads, so this file sets it before importing the handler stack.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
const { apiHandler } = await import('../../functions/src/composition');

describe('error log lines', () => {
  it('carry the request id of their own invocation when many run at once', async () => {
    const failing = apiHandler(checkAuth, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('boom');
    });
    const lines: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const results = await Promise.all(Array.from({ length: 8 }, () => call(failing, { body: {} }))).finally(() =>
      vi.restoreAllMocks(),
    );

    const references = results.map((result) => String(result.body.correlationId));
    expect(results.every((result) => result.status === 500)).toBe(true);
    expect(new Set(references).size).toBe(8);
    const logged = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.includes('unexpected error'))
      .map((line) => JSON.parse(line) as { function_request_id?: string; correlationId?: string });
    expect(logged).toHaveLength(8);
    for (const entry of logged) expect(entry.function_request_id).toBe(entry.correlationId);
    expect(logged.map((entry) => entry.function_request_id).sort()).toEqual([...references].sort());
  });
});
