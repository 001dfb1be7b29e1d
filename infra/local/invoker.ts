import { runAsFunction } from './iam/enforce';
import type { Context } from 'aws-lambda';
import { lambdaContext } from './api-event';
import { withEnvironment } from './function-env';
import { LAMBDA_WRITABLE, withReadOnlyFileSystem } from './read-only-fs';

/**
 * One Lambda invocation, locally, for the API routes (server.ts) and the event functions (the
 * import on the imports bucket's notification, the daily payouts, the upgrade after a deploy): the
 * handler runs with its function's timeout and memory size in its context, its own environment
 * (function-env.ts) and the file system read-only outside /tmp (read-only-fs.ts). Past its timeout
 * the invocation ends as Lambda ends it, with `Task timed out after N.00 seconds`; `lines` are
 * Lambda's log lines of the invocation, the REPORT line last (peak memory beside memory size).
 *
 * A Node function cannot be stopped in-process: past its timeout the caller stops waiting and the
 * handler's late result or error is dropped (noted through `late`), never thrown (decision 0330).
 */
export interface InvokedFunction {
  name: string;
  memoryMb: number;
  timeoutSeconds: number;
  /**
   * The function's whole environment (function-env.ts lambdaEnvironment), one object per function as
   * one sandbox keeps its own; undefined: the process's own (tests that build a server by hand).
   */
  environment?: NodeJS.ProcessEnv;
}

export type Outcome<R> =
  | { kind: 'result'; result: R }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout' }
  /** The caller stopped waiting before the function's timeout (the HTTP API's 30 s). */
  | { kind: 'caller-timeout' };

export interface Invocation<R> {
  outcome: Outcome<R>;
  durationMs: number;
  requestId: string;
  lines: string[];
}

export interface InvokeOptions {
  /** How long the caller waits, if shorter than the function's timeout (the HTTP API's integration timeout). */
  callerWaitMs?: number;
  /** Folders the local stand-ins write for the function besides /tmp (the mail outbox). */
  writable?: readonly string[];
  /** Told when a handler the caller stopped waiting for ends after all. */
  late?: (requestId: string, outcome: Outcome<unknown>) => void;
}

/** The variables the local runtime sets besides the stack's: Lambda's own, and the local stand-ins' writable folders. */
const writableOf = (fn: InvokedFunction, options: InvokeOptions): string[] => [
  ...LAMBDA_WRITABLE,
  ...(options.writable ?? []),
  ...(fn.environment?.MAIL_OUTBOX_DIR ? [fn.environment.MAIL_OUTBOX_DIR] : []),
];

export async function invokeFunction<E, R>(
  fn: InvokedFunction,
  handler: (event: E, context: Context) => Promise<R> | R,
  event: E,
  options: InvokeOptions = {},
): Promise<Invocation<R>> {
  const timeoutMs = fn.timeoutSeconds * 1000;
  const context = lambdaContext(fn.name, timeoutMs, fn.memoryMb);
  const requestId = context.awsRequestId;
  const lines: string[] = [];
  const started = performance.now();
  // Read-only outside /tmp, and every AWS call held to the function's synthesized role (iam/enforce.ts).
  const run = () =>
    runAsFunction(fn.name, () =>
      withReadOnlyFileSystem(writableOf(fn, options), () => Promise.resolve().then(() => handler(event, context))),
    );
  const ran: Promise<Outcome<R>> = (fn.environment ? withEnvironment(fn.environment, run) : run()).then(
    (result): Outcome<R> => ({ kind: 'result', result }),
    (error: unknown): Outcome<R> => ({ kind: 'error', error }),
  );
  const waitMs = Math.min(timeoutMs, options.callerWaitMs ?? timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Outcome<R>>((resolvePromise) => {
    timer = setTimeout(() => resolvePromise({ kind: waitMs < timeoutMs ? 'caller-timeout' : 'timeout' }), waitMs);
  });
  const outcome = await Promise.race([ran, timedOut]);
  clearTimeout(timer);
  const durationMs = performance.now() - started;
  if (outcome.kind === 'timeout') {
    lines.push(`${requestId} Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`);
  } else if (outcome.kind === 'error') {
    const error = outcome.error;
    lines.push(`${requestId} ERROR ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  if (outcome.kind === 'timeout' || outcome.kind === 'caller-timeout') {
    void ran.then((late) => options.late?.(requestId, late));
  }
  lines.push(reportLine(requestId, durationMs, fn.memoryMb));
  return { outcome, durationMs, requestId, lines };
}

/**
 * Lambda's REPORT line. Max Memory Used is `process.resourceUsage().maxRSS`: the whole local
 * process's peak so far, not this invocation's (decision 0330), so an upper bound.
 */
export function reportLine(requestId: string, durationMs: number, memoryMb: number): string {
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return `REPORT RequestId: ${requestId}\tDuration: ${durationMs.toFixed(2)} ms\tBilled Duration: ${Math.ceil(durationMs)} ms\tMemory Size: ${memoryMb} MB\tMax Memory Used: ${peakMb} MB`;
}

/**
 * An asynchronous invocation's end as the caller of an event function sees it: the result, or an
 * error (the handler's own, or `Task timed out after N.00 seconds`) so the caller retries as Lambda
 * retries an asynchronous event. Every line of the invocation goes to `log`.
 */
export async function invokeEvent<E, R>(
  fn: InvokedFunction,
  handler: (event: E, context: Context) => Promise<R> | R,
  event: E,
  log: (line: string) => void,
  options: InvokeOptions = {},
): Promise<R> {
  const invocation = await invokeFunction(fn, handler, event, options);
  for (const line of invocation.lines) log(`${fn.name} ${line}`);
  const { outcome } = invocation;
  if (outcome.kind === 'result') return outcome.result;
  if (outcome.kind === 'error') throw outcome.error;
  throw new Error(`Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`);
}
