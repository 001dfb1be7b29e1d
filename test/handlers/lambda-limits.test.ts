import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Route } from '../../functions/src/routes';
import type { ApiHandler } from '../../infra/local/api-event';
import { createPortalServer } from '../../infra/local/server';

/**
 * Lambda's and the HTTP API's limits in the local server (issue 36): each route's timeout and
 * memory size, the 6 MB payloads both ways, the 10 MB request of the API, and Lambda's REPORT line.
 */
const MB = 1024 * 1024;
const template = routes[0]!;
const at = (path: string, timeoutSeconds: number, memoryMb: number): Route => ({
  ...template,
  path,
  timeoutSeconds,
  memoryMb,
});

/** What the slow handler saw, and when it ended (after the caller was answered). */
let slowRemainingMs = -1;
let slowEnded: () => void = () => undefined;
const slowDone = new Promise<void>((resolve) => (slowEnded = resolve));
/** How many times the echo handler ran (never for a request Lambda refuses). */
let echoCalls = 0;

const handlers: Record<string, ApiHandler> = {
  '/api/slow': async (_event: APIGatewayProxyEventV2, context: Context) => {
    slowRemainingMs = context.getRemainingTimeInMillis();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    slowEnded();
    // An error after the timeout: dropped, never an unhandled rejection (vitest would fail the run).
    throw new Error('finished too late');
  },
  '/api/echo': async (event: APIGatewayProxyEventV2, context: Context) => {
    echoCalls += 1;
    return { statusCode: 200, body: JSON.stringify({ bytes: event.body?.length, memory: context.memoryLimitInMB }) };
  },
  '/api/big': async () => ({ statusCode: 200, body: 'x'.repeat(7 * MB) }),
};
const testRoutes = [at('/api/slow', 1, 512), at('/api/echo', 10, 256), at('/api/big', 10, 1024)];

let base = '';
let dir = '';
const lines: string[] = [];
let close: () => void = () => undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-limits-'));
  for (const app of ['member', 'admin']) {
    mkdirSync(join(dir, app));
    writeFileSync(join(dir, app, 'index.html'), `<title>${app}</title>`);
  }
  const server = createPortalServer({
    routes: testRoutes,
    loadHandler: async (route) => handlers[route.path]!,
    memberDist: join(dir, 'member'),
    adminDist: join(dir, 'admin'),
    precompress: false,
    log: (line) => lines.push(line),
    logEveryRequest: true,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: string) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const reportOf = (requestLines: string[]) => requestLines.find((line) => line.startsWith('REPORT RequestId: '));

describe('local server: Lambda’s and the HTTP API’s limits', () => {
  it('stops waiting at the route’s timeout, answers as the HTTP API does and logs Lambda’s timeout line', async () => {
    const answer = await post('/api/slow', '{}');
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ message: 'Internal Server Error' });
    // The handler's clock counts down from the route's 1 s, not from a default.
    expect(slowRemainingMs).toBeGreaterThan(0);
    expect(slowRemainingMs).toBeLessThanOrEqual(1_000);
    const timedOut = lines.find((line) => line.endsWith('Task timed out after 1.00 seconds'));
    expect(timedOut).toBeDefined();
    const requestId = timedOut!.split(' ')[0]!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reportOf(lines)).toContain(`RequestId: ${requestId}\t`);
    // The work goes on after the answer; its late error crashes nothing, and the server still answers.
    await slowDone;
    await new Promise((resolve) => setImmediate(resolve));
    expect((await post('/api/echo', '{}')).status).toBe(200);
  });

  it('answers 503 when the HTTP API’s integration timeout comes before the function’s own', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let ended: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const own: string[] = [];
    const server = createPortalServer({
      routes: [at('/api/long', 40, 512)],
      loadHandler: async () => async () => {
        await released;
        ended();
        return { statusCode: 200, body: '{}' };
      },
      memberDist: join(dir, 'member'),
      adminDist: join(dir, 'admin'),
      precompress: false,
      log: (line) => own.push(line),
      integrationTimeoutMs: 200,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/long`, {
        method: 'POST',
        body: '{}',
      });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ message: 'Service Unavailable' });
      expect(own.some((line) => line.endsWith('The HTTP API stopped waiting after 0.2 seconds.'))).toBe(true);
      expect(own.some((line) => line.includes('Task timed out'))).toBe(false);
      release();
      await done;
    } finally {
      server.close();
    }
  });

  it('refuses a request whose event is over Lambda’s 6 MB before the function runs', async () => {
    const before = echoCalls;
    const answer = await post('/api/echo', JSON.stringify({ text: 'y'.repeat(7 * MB) }));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ message: 'Internal Server Error' });
    expect(echoCalls).toBe(before);
    expect(lines.some((line) => line.includes('over the 6291456 bytes of a synchronous invocation'))).toBe(true);
  });

  it('refuses a request over the HTTP API’s 10 MB with its 413', async () => {
    const before = echoCalls;
    const answer = await post('/api/echo', JSON.stringify({ text: 'y'.repeat(11 * MB) }));
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ message: 'Request Entity Too Large' });
    expect(echoCalls).toBe(before);
  });

  it('turns an answer over 6 MB into the HTTP API’s error, with Lambda’s words in the log', async () => {
    const answer = await post('/api/big', '{}');
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ message: 'Internal Server Error' });
    expect(
      lines.some((line) =>
        line.endsWith('Response payload size exceeded maximum allowed payload size (6291556 bytes).'),
      ),
    ).toBe(true);
  });

  it('logs a REPORT line with the route’s memory size beside the peak memory used', async () => {
    const from = lines.length;
    const answer = await post('/api/echo', '{"hello":"world"}');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ bytes: 17, memory: '256' });
    const report = reportOf(lines.slice(from));
    const match = report?.match(
      /^REPORT RequestId: ([0-9a-f-]{36})\tDuration: (\d+\.\d{2}) ms\tBilled Duration: (\d+) ms\tMemory Size: (\d+) MB\tMax Memory Used: (\d+) MB$/,
    );
    expect(match).not.toBeNull();
    const [, , duration, billed, memorySize, used] = match!;
    expect(Number(billed)).toBe(Math.ceil(Number(duration)));
    expect(memorySize).toBe('256');
    expect(Number(used)).toBeGreaterThan(0);
  });
});
