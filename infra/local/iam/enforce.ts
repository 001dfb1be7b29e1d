import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Client } from '@smithy/core/client';
import { HttpResponse } from '@smithy/core/transport';
import { LOCAL_MAIL_FROM } from '../template';
import { processWide } from '../process-wide';
import { ROOT_STACK, type LocalAssembly } from './assembly';
import { decide, type Decision } from './evaluate';
import { localSecretArn, policyFor, type FunctionPolicy, type LocalNames } from './policy';
import { requestsFor, type AuthorizationRequest } from './requests';

/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's middleware is typed per client; this one serves them all */

/**
 * IAM, enforced locally: while a function runs (the local server's invocation, a handler test's
 * call, an event the local runtime delivers), every AWS SDK call it makes is evaluated against its
 * synthesized role before it is sent, and a denied one is answered as AWS answers it, by the
 * service's own error deserializer (DynamoDB's and Secrets Manager's AccessDeniedException, 400;
 * S3's and SQS's AccessDenied, 403; SES's and Amazon Location's AccessDeniedException, 403).
 *
 * How: one middleware, added on its first send to every SDK client of the process (smithy's
 * `Client.send`, which every v3 client inherits), placed inside the deserializer. The function's
 * identity travels in an AsyncLocalStorage, so code outside an invocation (the demo seeds, a
 * test's own set-up) runs as the operator does, unchecked. Only the local runtime and the tests
 * import this module: no Lambda bundle carries it.
 */

/** The function an SDK call is made for, and the stack it is held to. */
interface Invocation {
  functionName: string;
  assembly: LocalAssembly;
}

/** The running function, the process's assembly and whether the middleware is in (one per process: process-wide.ts). */
const state = processWide('iam', () => ({
  current: new AsyncLocalStorage<Invocation>(),
  defaultAssembly: undefined as LocalAssembly | undefined,
  installed: false,
  withMiddleware: new WeakSet<object>(),
}));
const current = state.current;

/**
 * Turns the check on for this process, against `assembly` (the synthesized route table:
 * assembly.ts's assemblyFromTemplates of the run's one synth). Calls made in `runAsFunction` are checked from then on.
 */
export function enforceIam(assembly: LocalAssembly): void {
  state.defaultAssembly = assembly;
  installMiddleware();
  // The local stand-ins of SES, Amazon Location and Secrets Manager ask through this symbol
  // (functions/src/config/local-aws-check.ts).
  (globalThis as Record<symbol, unknown>)[Symbol.for('portal.localIamCheck')] = checkLocalCall;
}

/** Whether enforceIam was called in this process. */
export const iamEnforced = (): boolean => state.defaultAssembly !== undefined;

/**
 * Runs `run` as the function `functionName` of the route table (a route's name, or an event
 * function's): its SDK calls are held to that function's role. Without enforceIam, or with
 * `functionName` undefined, it just runs. `assembly` replaces the process's (a test with a grant removed).
 */
export function runAsFunction<T>(functionName: string | undefined, run: () => T, assembly?: LocalAssembly): T {
  const held = assembly ?? state.defaultAssembly;
  if (!held || !functionName) return run();
  installMiddleware();
  return current.run({ functionName, assembly: held }, run);
}

/**
 * S3's decision on a browser's POST upload signed by the function `functionName` (the local S3's
 * gate asks, s3-gate.ts `authorizeUpload`): `s3:PutObject` on the key, evaluated against that
 * function's role; AWS's words when denied, else undefined. Without enforceIam: undefined.
 */
export async function deniedUpload(
  functionName: string,
  bucket: string,
  key: string,
  assembly?: LocalAssembly,
): Promise<string | undefined> {
  const held = assembly ?? state.defaultAssembly;
  if (!held) return undefined;
  const invocation = { functionName, assembly: held };
  const denied = await firstDenied(
    invocation,
    requestsFor('S3Client', 'PutObjectCommand', { Bucket: bucket, Key: key }),
  );
  return denied ? denial(denied.policy, denied.request, denied.decision) : undefined;
}

/** The function whose role the code running now is held to, if any. */
export const currentFunction = (): string | undefined => current.getStore()?.functionName;

/**
 * The check the local stand-ins of AWS services make (the mail outbox for SES, the embedded address
 * search for Amazon Location, a secret read from the environment for Secrets Manager): the same
 * decision as an SDK call's. Throws the error the SDK would (`AccessDeniedException`) when denied.
 */
export async function checkLocalCall(
  clientName: string,
  commandName: string,
  input: Record<string, unknown>,
): Promise<void> {
  const invocation = current.getStore();
  if (!invocation) return;
  const denied = await firstDenied(
    invocation,
    requestsFor(clientName, commandName, standInInput(invocation, clientName, input)),
  );
  if (!denied) return;
  const error = new Error(denial(denied.policy, denied.request, denied.decision)) as Error & Record<string, unknown>;
  error.name = 'AccessDeniedException';
  error.$fault = 'client';
  error.$metadata = { httpStatusCode: clientName === 'SecretsManagerClient' ? 400 : 403, requestId: randomUUID() };
  throw error;
}

/**
 * What the stand-in's call would carry in AWS: a secret's ARN (the stand-in knows the secret's
 * name: the ARN is the one the portal stack passes its nested stacks for it); a mail's sender is
 * the one the local stack is synthesized with (whatever MAIL_FROM a local run sets: the question is
 * whether the function may send at all).
 */
function standInInput(
  invocation: Invocation,
  clientName: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof input.SecretName === 'string') {
    const name = input.SecretName;
    const parameter = `${name[0]!.toUpperCase()}${name.slice(1)}Arn`;
    const passed = Object.values(invocation.assembly.nestedParameters)[0]?.[parameter] as { Ref?: string } | undefined;
    if (!passed?.Ref)
      throw new Error(`The synthesized stack has no secret ${name} (no nested-stack parameter ${parameter})`);
    return { SecretId: localSecretArn(passed.Ref, localNames(invocation.assembly)) };
  }
  if (clientName === 'SESv2Client') return { ...input, FromEmailAddress: LOCAL_MAIL_FROM };
  return input;
}

/** AWS's words for a denial (as in its AccessDenied messages). */
export function denial(policy: FunctionPolicy, request: AuthorizationRequest, decision: Decision): string {
  const why =
    decision === 'ExplicitlyDenied'
      ? 'with an explicit deny in an identity-based policy'
      : `because no identity-based policy allows the ${request.action} action`;
  return `User: ${policy.principalArn} is not authorized to perform: ${request.action} on resource: ${request.resource} ${why}`;
}

async function firstDenied(invocation: Invocation, requests: AuthorizationRequest[], logged = true) {
  const policy = policyOf(invocation);
  for (const request of requests) {
    const decision = await decide(policy, request);
    if (decision !== 'Allowed') {
      if (!logged) return { policy, request, decision };
      // LOCAL_IAM_DENIALS=<file>: every denial also goes there, one line each (to find the grants a change needs).
      const file = process.env.LOCAL_IAM_DENIALS;
      if (file) appendFileSync(file, `${denial(policy, request, decision)}\n`);
      return { policy, request, decision };
    }
  }
  return undefined;
}

/**
 * The local names of the stack's resources, from this process's environment: a function whose
 * template sets `TABLE_NAME` to `{ Ref: Table… }` names that table by the local TABLE_NAME, and
 * so on for every variable that refers to a resource (the buckets too).
 */
function localNames(assembly: LocalAssembly): LocalNames {
  let pairs = referringVariables.get(assembly);
  if (!pairs) {
    pairs = new Map();
    for (const made of Object.values(assembly.functions)) {
      const variables =
        assembly.stacks[made.stack]!.Resources[made.functionId]?.Properties?.Environment?.Variables ?? {};
      for (const [variable, value] of Object.entries<any>(variables)) {
        let id = value?.Ref as string | undefined;
        if (id && made.stack !== ROOT_STACK && assembly.stacks[made.stack]!.Parameters?.[id]) {
          id = (assembly.nestedParameters[made.stack]?.[id] as any)?.Ref;
        }
        if (id && assembly.stacks[ROOT_STACK]!.Resources[id]) pairs.set(variable, id);
      }
    }
    referringVariables.set(assembly, pairs);
  }
  const names: Record<string, string> = {};
  for (const [variable, id] of pairs) {
    const value = process.env[variable];
    // A queue's variable holds its URL (its Ref): the queue's name is the URL's last part.
    if (value && assembly.stacks[ROOT_STACK]!.Resources[id]?.Type === 'AWS::SQS::Queue') {
      names[id] = value.replace(/\/+$/, '').split('/').at(-1)!;
    } else if (value) names[id] = value;
  }
  return names;
}
const referringVariables = new WeakMap<LocalAssembly, Map<string, string>>();

/** The function's resolved role, made once per set of local names. */
function policyOf({ assembly, functionName }: Invocation): FunctionPolicy {
  const names = localNames(assembly);
  const key = `${functionName} ${JSON.stringify(names)}`;
  let policies = resolved.get(assembly);
  if (!policies) {
    policies = new Map();
    resolved.set(assembly, policies);
  }
  let policy = policies.get(key);
  if (!policy) {
    policy = policyFor(assembly, functionName, names);
    policies.set(key, policy);
  }
  return policy;
}
const resolved = new WeakMap<LocalAssembly, Map<string, FunctionPolicy>>();

/**
 * A denial as the service's endpoint sends it, for the client's own deserializer to turn into
 * the error AWS's would be: the JSON protocols' `__type` (DynamoDB: awsJson1_0, Secrets Manager:
 * awsJson1_1), the REST JSON ones' `x-amzn-errortype` (SES v2, Amazon Location), S3's XML.
 */
function deniedResponse(clientName: string, message: string, method: string): HttpResponse {
  const requestId = randomUUID();
  const json = (statusCode: number, headers: Record<string, string>, body: object) =>
    new HttpResponse({
      statusCode,
      headers: { 'x-amzn-requestid': requestId, ...headers },
      body: Buffer.from(JSON.stringify(body)),
    });
  switch (clientName) {
    case 'DynamoDBClient':
      return json(
        400,
        { 'content-type': 'application/x-amz-json-1.0' },
        { __type: 'com.amazon.coral.service#AccessDeniedException', Message: message },
      );
    case 'SQSClient':
      // SQS speaks AWS JSON 1.0 with its query API's error code in x-amzn-query-error (AccessDenied, 403).
      return json(
        403,
        { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': 'AccessDenied;Sender' },
        { __type: 'com.amazon.coral.service#AccessDeniedException', message },
      );
    case 'SecretsManagerClient':
      return json(
        400,
        { 'content-type': 'application/x-amz-json-1.1' },
        { __type: 'AccessDeniedException', Message: message },
      );
    case 'S3Client': {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${escapeXml(message)}</Message><RequestId>${requestId}</RequestId><HostId>local</HostId></Error>`;
      return new HttpResponse({
        statusCode: 403,
        headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId },
        // S3 answers a HEAD without a body.
        body: Buffer.from(method === 'HEAD' ? '' : xml),
      });
    }
    default:
      return json(
        403,
        { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' },
        { message, Message: message },
      );
  }
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const MIDDLEWARE = 'portalLocalIamMiddleware';

const iamMiddleware =
  (next: any, context: any) =>
  async (args: any): Promise<any> => {
    const invocation = current.getStore();
    if (!invocation) return next(args);
    const requests = requestsFor(context.clientName, context.commandName, args.input);
    const method = args.request?.method ?? 'POST';
    const denied = await firstDenied(invocation, requests);
    if (denied) {
      const message = denial(denied.policy, denied.request, denied.decision);
      return { response: deniedResponse(context.clientName, message, method), output: {} };
    }
    const result = await next(args);
    // S3 answers a missing key with 404 only to a caller that may list the bucket; to any other, 403.
    if (
      context.clientName === 'S3Client' &&
      result.response?.statusCode === 404 &&
      (context.commandName === 'GetObjectCommand' || context.commandName === 'HeadObjectCommand')
    ) {
      const list = requestsFor('S3Client', 'ListObjectsV2Command', {
        Bucket: args.input.Bucket,
        Prefix: args.input.Key,
      });
      const unlisted = await firstDenied(invocation, list, false);
      if (unlisted) {
        result.response.body?.destroy?.();
        const message = denial(unlisted.policy, { ...unlisted.request, action: 's3:ListBucket' }, unlisted.decision);
        return { response: deniedResponse('S3Client', message, method), output: {} };
      }
    }
    return result;
  };

/** Patches smithy's Client.send (once per process) to add the middleware to each client's stack on its first send. */
function installMiddleware(): void {
  if (state.installed) return;
  state.installed = true;
  const send = Client.prototype.send as (...args: any[]) => any;
  Client.prototype.send = function (this: Client<any, any, any, any>, ...args: any[]) {
    const stack = this.middlewareStack as any;
    if (!state.withMiddleware.has(stack)) {
      state.withMiddleware.add(stack);
      stack.addRelativeTo(iamMiddleware, {
        name: MIDDLEWARE,
        relation: 'after',
        toMiddleware: 'deserializerMiddleware',
        override: true,
      });
    }
    return send.apply(this, args);
  } as typeof Client.prototype.send;
}
