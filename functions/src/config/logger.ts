import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { mapErrorStack } from './source-stack';

/**
 * The functions' logger (Powertools), loaded and made on first use: most invocations log nothing
 * (only failures, signup's unsent mail and the import's summary do), and evaluating the package
 * and making the logger (its own console, its sampling) cost a cold start several milliseconds.
 * esbuild keeps the package in the bundle and turns the `import()` into a lazy `require` of it.
 *
 * The /api stack records each invocation's Lambda context (`recordInvocation`, in place of
 * Powertools' `injectLambdaContext`, which would make the logger on every call); the shared
 * logger takes the context of the invocation that started last, as it did with that middleware.
 * Lines that must name their own invocation use a child with its context (the error mapper).
 */
let loading: Promise<Logger> | undefined;
let latest: Context | undefined;
let applied: Context | undefined;

export async function loadLogger(): Promise<Logger> {
  loading ??= import('@aws-lambda-powertools/logger').then(
    ({ Logger }) =>
      new Logger({
        serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'reseller-portal',
        // Every error written out names our source files (read through the bundle's map on the
        // first error logged, in place of `--enable-source-maps` at every cold start); children
        // inherit it. See ./source-stack.ts.
        jsonReplacerFn: (_key, value: unknown) => (value instanceof Error ? mapErrorStack(value) : value),
      }),
  );
  const logger = await loading;
  if (latest && latest !== applied) {
    applied = latest;
    // What injectLambdaContext did before each invocation (the event itself is never logged).
    logger.refreshSampleRateCalculation();
    logger.addContext(latest);
  }
  return logger;
}

/** Called by the /api stack before each invocation. */
export function recordInvocation(context: Context | undefined): void {
  if (context) latest = context;
}
