import { inject } from 'vitest';
import { MONEY_SETTING_CONTEXTS } from '../../infra/lib/settings';
import { localSessionToken, PASSED_THROUGH, withEnvironment } from '../../infra/local/function-env';
import { runAsFunction } from '../../infra/local/iam/enforce';
import { templateFunctions } from '../../infra/local/template';

/**
 * Each handler a test invokes sees its own function's environment, as in AWS (issue 36): the
 * variables the synthesized template sets on that function (a secret's `<NAME>_ARN` is `<NAME>`
 * here, as infra/local/template.ts resolves it), Lambda's own, the local stand-ins the local
 * runtime gives it (function-env.ts `lambdaEnvironment`: the engines' endpoints and key, the outbox
 * only where the stack sets MAIL_FROM, the picture origins only where it sets IMAGES_BUCKET, SQS
 * only where it sets PICTURE_QUEUE_URL) and the money settings (contexts of the stack: a deploy
 * with `-c commissionHoldDays=0` sets them on every function). Nothing else of the test process:
 * a handler reading a variable its function does not set reads nothing, as it would in AWS.
 *
 * The values are the test file's (setup.ts, and whatever a test sets on `process.env` before it
 * calls), read at each invocation: the names are the template's.
 */
const ALWAYS = [
  ...PASSED_THROUGH,
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'POWERTOOLS_LOG_LEVEL',
  'DYNAMODB_ENDPOINT',
  'S3_ENDPOINT',
  'STRIPE_API_URL',
  'ADDRESS_SEARCH',
  ...Object.values(MONEY_SETTING_CONTEXTS),
];
/** Stand-ins the local runtime gives only to a function whose template sets the variable named first. */
const ONLY_WITH: readonly [string, readonly string[]][] = [
  ['MAIL_FROM', ['MAIL_OUTBOX_DIR', 'MAIL_OUTBOX_QUIET']],
  ['IMAGES_BUCKET', ['PICTURE_FETCH_ALLOWED_ORIGINS']],
  ['PICTURE_QUEUE_URL', ['SQS_ENDPOINT']],
  ['CHECKOUT_CANCEL_QUEUE_URL', ['SQS_ENDPOINT']],
  ['IMPORT_QUEUE_URL', ['SQS_ENDPOINT']],
];

let functions: Map<string, { names: string[]; memoryMb: number }> | undefined;

/** The template's functions by name, each with the names of its environment here. */
function templateNames(): Map<string, { names: string[]; memoryMb: number }> {
  functions ??= new Map(
    templateFunctions(inject('templates')).map((fn) => {
      // A secret's ARN variable, as in AWS (a test that reaches Secrets Manager sets it), or its value here.
      const own = Object.keys(fn.rawEnvironment).flatMap((name) =>
        name.endsWith('_ARN') ? [name, name.replace(/_ARN$/, '')] : [name],
      );
      const standIns = ONLY_WITH.filter(([when]) => own.includes(when)).flatMap(([, names]) => names);
      return [fn.name, { names: [...new Set([...ALWAYS, ...own, ...standIns])], memoryMb: fn.memoryMb }];
    }),
  );
  return functions;
}

/** The environment the function `name` of the template sees now: the file's values of its variables only. */
export function functionEnvironment(name: string, from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const fn = templateNames().get(name);
  if (!fn) throw new Error(`The synthesized template has no function ${name} (functions/src/routes.ts)`);
  const environment: NodeJS.ProcessEnv = {
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    // Its credentials' session names it: a presigned POST it signs is authorized as its role (s3-gate.ts).
    AWS_SESSION_TOKEN: localSessionToken(name),
  };
  for (const variable of fn.names) {
    const value = from[variable];
    if (value !== undefined) environment[variable] = value;
  }
  return environment;
}

/**
 * Runs `run` as the function `name` of the template: its own environment (above), its AWS calls
 * held to its synthesized role (infra/local/iam). `undefined`: as the test process, unchecked.
 */
export function runAs<T>(name: string | undefined, run: () => T): T {
  if (name === undefined) return run();
  return withEnvironment(functionEnvironment(name), () => runAsFunction(name, run));
}
