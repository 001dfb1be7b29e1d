import { AsyncLocalStorage } from 'node:async_hooks';
import { processWide } from './process-wide';

/**
 * Each function's own environment in one process (issue 36): in AWS every function has its own
 * sandbox and sees only the variables its stack sets; `npm start` runs every handler in one Node
 * process. While a function runs (and in everything its invocation starts: promises, timers),
 * `process.env` is that function's environment, through an AsyncLocalStorage; elsewhere it is
 * the process's own. So a variable the stack does not set on a function is not set for it locally.
 * Module-level caches of the environment (`env()`, `moneySettings()`) are kept per environment
 * object, as each sandbox keeps its own.
 */
const state = processWide('functionEnv', () => ({
  current: new AsyncLocalStorage<NodeJS.ProcessEnv>(),
  installs: 0,
  original: undefined as PropertyDescriptor | undefined,
  /** The process's own environment while the getter is installed. */
  own: process.env,
}));
const current = state.current;

/** Makes `process.env` follow the running function (counted: each caller uninstalls its own). */
export function installFunctionEnvironments(): () => void {
  if (state.installs++ === 0) {
    state.original = Object.getOwnPropertyDescriptor(process, 'env');
    state.own = process.env;
    Object.defineProperty(process, 'env', {
      configurable: true,
      enumerable: true,
      get: () => current.getStore() ?? state.own,
      set: (value: NodeJS.ProcessEnv) => {
        state.own = value;
      },
    });
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--state.installs === 0 && state.original) {
      Object.defineProperty(process, 'env', { ...state.original, value: state.own });
    }
  };
}

/** Runs `run` (and what it starts) with `environment` as its `process.env`. */
export function withEnvironment<T>(environment: NodeJS.ProcessEnv, run: () => T): T {
  return current.run(environment, run);
}

/**
 * Variables of this process a function keeps: what Lambda's runtime has as well (PATH, LANG, TZ)
 * and the test runner's switches the functions honour only inside Vitest (VITEST with
 * PASSWORD_HASH_LOG2_N_IN_TESTS, functions/src/auth/passwords.ts) or that only tests set
 * (STRIPE_TIMEOUT_MS, composition.ts).
 */
export const PASSED_THROUGH = [
  'PATH',
  'LANG',
  'TZ',
  'NODE_EXTRA_CA_CERTS',
  'VITEST',
  'PASSWORD_HASH_LOG2_N_IN_TESTS',
  'STRIPE_TIMEOUT_MS',
  'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
];

/**
 * The session token of a function's local credentials: in AWS a function's credentials are its
 * role's session; locally every function signs with the data folder's key, and this token (which a
 * presigned POST carries as `X-Amz-Security-Token`, covered by its signed policy) says which
 * function signed, so the local S3 authorizes an upload as its signer's role (s3-gate.ts).
 */
export const localSessionToken = (functionName: string): string => `portal-local-function:${functionName}`;

/** The function a local session token names, if it is one. */
export const functionOfSessionToken = (token: string | undefined): string | undefined =>
  token?.startsWith('portal-local-function:') ? token.slice('portal-local-function:'.length) : undefined;

/** What the local runtime puts where AWS has its services: the engines' endpoints, the key, the outbox. */
export interface StandIns {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  dynamoEndpoint: string;
  s3Endpoint?: string;
  /** The local SQS (sqs.ts, decision 0380), for the functions the stack gives a queue. */
  sqsEndpoint?: string;
  /** The Stripe emulator; absent with your own key (api.stripe.com). */
  stripeApiUrl?: string;
  /** Mail as files, for the functions the stack gives MAIL_FROM (SES in AWS). */
  mailOutboxDir: string;
  mailOutboxQuiet?: boolean;
  /**
   * The test image server's origin, for the function the stack gives IMAGES_BUCKET (the import).
   * Absent: pictures are not hosted here (the browser suite's shared portal), so that function is
   * run without IMAGES_BUCKET.
   */
  picturesOrigin?: string;
  /** Powertools' level (WARN, or DEBUG at LOG_LEVEL=debug). */
  logLevel: string;
}

/**
 * A function's whole environment locally: what its stack sets (resolved by template.ts), Lambda's
 * own variables (region, the role's credentials, the function's name and memory), and the local
 * stand-ins where AWS has a service. Nothing else of this process.
 */
export function lambdaEnvironment(
  fn: { name: string; memoryMb: number; environment: Readonly<Record<string, string>> },
  standIns: StandIns,
  processEnv: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const passed = Object.fromEntries(
    PASSED_THROUGH.filter((name) => processEnv[name] !== undefined).map((name) => [name, processEnv[name]!]),
  );
  const environment: NodeJS.ProcessEnv = {
    ...passed,
    AWS_REGION: standIns.region,
    AWS_DEFAULT_REGION: standIns.region,
    AWS_ACCESS_KEY_ID: standIns.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: standIns.credentials.secretAccessKey,
    AWS_SESSION_TOKEN: localSessionToken(fn.name),
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    POWERTOOLS_LOG_LEVEL: standIns.logLevel,
    ...fn.environment,
    DYNAMODB_ENDPOINT: standIns.dynamoEndpoint,
    ...(standIns.s3Endpoint ? { S3_ENDPOINT: standIns.s3Endpoint } : {}),
    ...(standIns.sqsEndpoint &&
    (fn.environment.PICTURE_QUEUE_URL || fn.environment.CHECKOUT_CANCEL_QUEUE_URL || fn.environment.IMPORT_QUEUE_URL)
      ? { SQS_ENDPOINT: standIns.sqsEndpoint }
      : {}),
    ...(standIns.stripeApiUrl ? { STRIPE_API_URL: standIns.stripeApiUrl } : {}),
    // The embedded address search over the US ZIP database (Amazon Location in AWS).
    ADDRESS_SEARCH: 'local',
  };
  if (fn.environment.MAIL_FROM) {
    environment.MAIL_OUTBOX_DIR = standIns.mailOutboxDir;
    if (standIns.mailOutboxQuiet) environment.MAIL_OUTBOX_QUIET = '1';
  }
  if (fn.environment.IMAGES_BUCKET) {
    if (standIns.picturesOrigin) environment.PICTURE_FETCH_ALLOWED_ORIGINS = standIns.picturesOrigin;
    else delete environment.IMAGES_BUCKET;
  }
  // Without hosted pictures the import sends no picture work (the products keep the supplier's addresses).
  if (fn.environment.PICTURE_QUEUE_URL && !standIns.picturesOrigin) delete environment.PICTURE_QUEUE_URL;
  return environment;
}
