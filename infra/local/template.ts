import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MONEY_SETTING_CONTEXTS } from '../lib/settings';

/**
 * The local runtime is the synthesized stack (issue 36): `npm start`, the handler tests' and the
 * bundle tests' setups take each function's handler module, environment, memory, timeout and
 * triggers (API route, the imports bucket's notification, the picture queue's event source mapping,
 * the daily schedule, the deploy trigger)
 * from the CloudFormation template the CDK app synthesizes, not from the route table a second
 * time. The synth runs in a child process with bundling skipped (template-synth.ts), and its
 * templates are cached by a hash of what they are made from (the stack's sources, cdk.json, the
 * lock file and the contexts), so only a change to the stack pays for a synth.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */
/** One CloudFormation template as the synth wrote it. */
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
  [key: string]: unknown;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The synthesized portal: its stack's template and each nested stack's, by the nested stack resource's logical id. */
export interface SynthesizedTemplates {
  stackName: string;
  root: CfnTemplate;
  nested: Record<string, CfnTemplate>;
}

/** What starts a function, as the template wires it. */
export type FunctionTrigger =
  | { kind: 'api'; method: string; path: string; routeLogicalId: string }
  | {
      kind: 's3';
      /** The bucket's construct id in the portal stack (`ImportsBucket`). */
      bucket: string;
      events: string[];
      prefix?: string;
      suffix?: string;
    }
  | { kind: 'schedule'; expression: string; ruleLogicalId: string }
  | { kind: 'afterDeploy'; triggerLogicalId: string }
  | {
      /** An SQS event source mapping (AWS::Lambda::EventSourceMapping on a queue of the portal stack). */
      kind: 'sqs';
      /** The queue's construct id in the portal stack (`PictureQueue`). */
      queue: string;
      /** Messages per invocation (BatchSize; Lambda's default for SQS is 10). */
      batchSize: number;
      /** ScalingConfig.MaximumConcurrency, if set. */
      maxConcurrency?: number;
      /** FunctionResponseTypes holds ReportBatchItemFailures: the handler names the messages that failed. */
      reportBatchItemFailures: boolean;
      mappingLogicalId: string;
    }
  | {
      /** An event source mapping on the table's stream (AWS::Lambda::EventSourceMapping, decision 0481). */
      kind: 'dynamodb';
      /** The table's construct id in the portal stack (`Table`). */
      table: string;
      /** Records per invocation (BatchSize; Lambda's default for a stream is 100). */
      batchSize: number;
      /** FilterCriteria's patterns, as JSON: a record that matches none is not handed over. */
      filters: string[];
      startingPosition: 'TRIM_HORIZON' | 'LATEST';
      reportBatchItemFailures: boolean;
      bisectBatchOnError: boolean;
      /** MaximumRetryAttempts (-1: until the record expires). */
      retryAttempts: number;
      /** MaximumRecordAgeInSeconds (-1: the stream's retention). */
      maxRecordAgeSeconds: number;
      /** The on-failure destination's queue construct id, if the mapping has one. */
      onFailureQueue?: string;
      mappingLogicalId: string;
    };

/** One of the portal's functions, read back from the template. */
export interface TemplateFunction {
  /** The construct id of the function's scope: the route's name (`signup`) or the event function's (`importProducts`). */
  name: string;
  /** `ResellerPortal` or the logical id of the nested stack resource the function lives in. */
  stack: string;
  logicalId: string;
  /** The logical id of its IAM role (in the same stack): the IAM evaluation reads its policies. */
  roleLogicalId: string;
  /** The handler module the bundle is built from, relative to functions/src (the `portal:entry` metadata). */
  module: string;
  /** `index.handler`, as Lambda is told. */
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** ReservedConcurrentExecutions, if the stack sets it. */
  reservedConcurrency?: number;
  /** The environment as the template writes it: strings and CloudFormation intrinsics. */
  rawEnvironment: Record<string, unknown>;
  triggers: FunctionTrigger[];
}

/** What a function of the template is locally: its environment resolved to the local stand-ins. */
export interface LocalFunction extends TemplateFunction {
  environment: Record<string, string>;
}

/** The local values the stack's references resolve to. */
export interface LocalValues {
  tableName: string;
  /** Bucket construct id (`ImportsBucket`, `ImagesBucket`) → the local bucket's name. */
  buckets: Readonly<Record<string, string>>;
  /**
   * The secrets' values by the variable a function reads (`TOKEN_SIGNING_KEY`): a function whose
   * template sets `TOKEN_SIGNING_KEY_ARN` gets `TOKEN_SIGNING_KEY` locally (config/secrets.ts reads
   * either); a secret without a local value is left out, and the function says so when it needs it.
   */
  secrets: Readonly<Record<string, string | undefined>>;
  /** The portal's origin (SITE_URL): the distribution's `https://<domain>` in the stack. */
  siteUrl: string;
  region: string;
  /** Queue construct id (`PictureQueue`) → the local queue (infra/local/sqs.ts); a queue without one cannot run here. */
  queues?: Readonly<Record<string, { url: string; arn: string }>>;
}

/** One SQS queue of the portal stack, as its template sets it up. */
export interface TemplateQueue {
  /** Its construct id (`PictureQueue`): the local queue is named after it. */
  name: string;
  logicalId: string;
  visibilitySeconds: number;
  /** The RedrivePolicy: the dead-letter queue's construct id and the receives before a message goes there. */
  deadLetter?: { queue: string; maxReceiveCount: number };
}

/** The portal stack's queues, dead-letter queues first (a queue's RedrivePolicy names one that exists). */
export function templateQueues(templates: SynthesizedTemplates): TemplateQueue[] {
  const resources = templates.root.Resources;
  const queues: TemplateQueue[] = Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::SQS::Queue')
    .map(([logicalId, resource]) => {
      const properties = resource.Properties ?? {};
      const redrive = properties.RedrivePolicy as
        { deadLetterTargetArn?: unknown; maxReceiveCount?: number } | undefined;
      const deadId = referencedId(redrive?.deadLetterTargetArn);
      return {
        name: constructName(resources[logicalId]!, logicalId, 1),
        logicalId,
        visibilitySeconds: Number(properties.VisibilityTimeout ?? 30),
        ...(deadId
          ? {
              deadLetter: {
                queue: constructName(resources[deadId]!, deadId, 1),
                maxReceiveCount: Number(redrive?.maxReceiveCount),
              },
            }
          : {}),
      };
    });
  return [...queues.filter((queue) => !queue.deadLetter), ...queues.filter((queue) => queue.deadLetter)];
}

/** Where the test setups keep the synthesized template (cdk.out is the CDK's own output folder, ignored by git). */
export const TEST_TEMPLATE_CACHE = join(root, 'cdk.out', 'local-template');

/** The sender the local synth configures, so the functions that mail get MAIL_FROM as in a deploy with mailFrom. */
export const LOCAL_MAIL_FROM = 'Reseller Portal <no-reply@example.com>';

/** Where the stack is made from: a change under these (tests aside) is a new synth. */
const INPUTS = [
  'cdk.json',
  'package-lock.json',
  'infra/lib',
  'infra/bin',
  'infra/local/template-synth.ts',
  'functions/src/routes.ts',
  'functions/src/config',
  'shared/src/api',
  'shared/src/db',
  'shared/src/domain',
  'shared/src/build',
];

function inputFiles(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The hash of the synth's inputs: every file it is made from (by path and content) and the contexts. */
export function templateInputsHash(contexts: Readonly<Record<string, unknown>>): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(inputFiles)) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  // The handler modules the stack names must exist; their content does not change the template.
  hash.update(JSON.stringify(readdirSync(join(root, 'functions', 'src', 'handlers'), { recursive: true }).sort()));
  hash.update(JSON.stringify(contexts));
  return hash.digest('hex').slice(0, 32);
}

/**
 * The contexts of the local synth: cdk.json's feature flags (as `cdk synth` passes them), the
 * construct paths in the template's metadata, the local sender and administrators' address, and the
 * money settings a developer set in the environment (`COMMISSION_HOLD_DAYS=0 npm start`), which
 * become the contexts a deploy would be given.
 */
export function localContexts(
  options: { adminMailTo?: string; env?: NodeJS.ProcessEnv } = {},
): Record<string, unknown> {
  const env = options.env ?? process.env;
  const cdkJson = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const contexts: Record<string, unknown> = {
    ...cdkJson.context,
    'aws:cdk:enable-path-metadata': true,
    mailFrom: LOCAL_MAIL_FROM,
    ...(options.adminMailTo ? { adminMailTo: options.adminMailTo } : {}),
  };
  for (const [context, variable] of Object.entries(MONEY_SETTING_CONTEXTS)) {
    const value = env[variable];
    if (value !== undefined && value !== '') contexts[context] = value;
  }
  return contexts;
}

export interface SynthResult {
  templates: SynthesizedTemplates;
  /** The synth's wall time in ms, or undefined when the cache had the templates. */
  synthMs?: number;
  file: string;
}

/** How many synthesized templates a cache folder keeps (one per set of inputs). */
const KEPT_TEMPLATES = 4;

/** Synths at a time, by cache file: two setups in one process share one child process. */
const running = new Map<string, Promise<SynthResult>>();

/**
 * The synthesized templates for these contexts: from `cacheDir` when a synth of the same inputs is
 * there, else by a synth in a child process (template-synth.ts), whose result replaces the older
 * cache files.
 */
export function synthesizeTemplates(options: {
  cacheDir: string;
  contexts: Readonly<Record<string, unknown>>;
}): Promise<SynthResult> {
  const hash = templateInputsHash(options.contexts);
  const file = join(options.cacheDir, `template-${hash}.json`);
  const cached = running.get(file);
  if (cached) return cached;
  const made = (async (): Promise<SynthResult> => {
    if (existsSync(file)) {
      return { templates: JSON.parse(readFileSync(file, 'utf8')) as SynthesizedTemplates, file };
    }
    mkdirSync(options.cacheDir, { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    const started = performance.now();
    await new Promise<void>((resolvePromise, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'infra', 'local', 'template-synth.ts'),
          partial,
          JSON.stringify(options.contexts),
        ],
        { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' } },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolvePromise()
          : reject(new Error(`The local synth of the stack failed (exit ${code}):\n${stderr.trim()}`)),
      );
    });
    const synthMs = performance.now() - started;
    renameSync(partial, file);
    // The newest few are kept: the handler tests and the browser tests' portal synthesize with other settings.
    const older = readdirSync(options.cacheDir)
      .filter((name) => name.startsWith('template-') && name.endsWith('.json'))
      .map((name) => join(options.cacheDir, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      .slice(KEPT_TEMPLATES);
    for (const stale of older) rmSync(stale, { force: true });
    return { templates: JSON.parse(readFileSync(file, 'utf8')) as SynthesizedTemplates, file, synthMs };
  })().finally(() => running.delete(file));
  running.set(file, made);
  return made;
}

/** `{ 'Fn::GetAtt': [id, 'Arn'] }` or `{ Ref: id }` → id. */
function referencedId(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const object = value as Record<string, unknown>;
  if (typeof object.Ref === 'string') return object.Ref;
  const getAtt = object['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  return undefined;
}

/**
 * The construct path's part naming the function's scope: `ResellerPortal/AuthCalls/signup/Function/Resource` → `signup`;
 * with `at` 1, the portal stack's construct (`ResellerPortal/PictureQueue/Resource` → `PictureQueue`).
 */
function constructName(resource: CfnResource, logicalId: string, at = -3): string {
  const path = resource.Metadata?.['aws:cdk:path'];
  if (typeof path !== 'string') return logicalId;
  const parts = path.split('/');
  return parts.at(at) ?? logicalId;
}

/** The construct id in the portal stack of the queue a value refers to (a nested stack's parameter followed). */
function queueConstruct(templates: SynthesizedTemplates, stack: string, value: unknown): string | undefined {
  let id = referencedId(value);
  if (id && stack !== templates.stackName && templates.nested[stack]?.Parameters?.[id] !== undefined) {
    id = referencedId(templates.root.Resources[stack]?.Properties?.Parameters?.[id]);
  }
  const resource = id ? templates.root.Resources[id] : undefined;
  return resource?.Type === 'AWS::SQS::Queue' ? constructName(resource, id!, 1) : undefined;
}

/** The construct id in the portal stack of the table whose stream a value refers to (`Fn::GetAtt [table, StreamArn]`). */
function tableStreamConstruct(templates: SynthesizedTemplates, stack: string, value: unknown): string | undefined {
  const getAtt = (value as Record<string, unknown> | undefined)?.['Fn::GetAtt'];
  if (stack !== templates.stackName || !Array.isArray(getAtt) || getAtt[1] !== 'StreamArn') return undefined;
  const resource = templates.root.Resources[String(getAtt[0])];
  return resource?.Type === 'AWS::DynamoDB::Table' ? constructName(resource, String(getAtt[0]), 1) : undefined;
}

/**
 * Every function of the template that has a handler module (`portal:entry`; aws-cdk-lib's own
 * deploy-time functions have none), with its settings and what starts it.
 */
export function templateFunctions(templates: SynthesizedTemplates): TemplateFunction[] {
  const functions: TemplateFunction[] = [];
  const stacks: [string, CfnTemplate][] = [[templates.stackName, templates.root], ...Object.entries(templates.nested)];
  for (const [stack, template] of stacks) {
    const resources = Object.entries(template.Resources);
    for (const [logicalId, resource] of resources) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const module = resource.Metadata?.['portal:entry'];
      if (typeof module !== 'string') continue;
      const properties = resource.Properties ?? {};
      const roleLogicalId = referencedId(properties.Role);
      if (!roleLogicalId) throw new Error(`The function ${logicalId} of ${stack} names no role of its stack`);
      const triggers: FunctionTrigger[] = [];
      for (const [otherId, other] of resources) {
        const props = other.Properties ?? {};
        if (other.Type === 'AWS::ApiGatewayV2::Route') {
          const join = props.Target?.['Fn::Join']?.[1] as unknown[] | undefined;
          const integrationId = join?.map(referencedId).find(Boolean);
          const integration = integrationId ? template.Resources[integrationId] : undefined;
          if (integration && referencedId(integration.Properties?.IntegrationUri) === logicalId) {
            const [method, path] = String(props.RouteKey).split(' ');
            triggers.push({ kind: 'api', method: method!, path: path!, routeLogicalId: otherId });
          }
        } else if (other.Type === 'Custom::S3BucketNotifications') {
          const bucketId = referencedId(props.BucketName);
          const bucketResource = bucketId ? template.Resources[bucketId] : undefined;
          const bucket = bucketResource ? constructName(bucketResource, bucketId!) : undefined;
          const configurations = (props.NotificationConfiguration?.LambdaFunctionConfigurations ?? []) as {
            Events: string[];
            LambdaFunctionArn: unknown;
            Filter?: { Key?: { FilterRules?: { Name: string; Value: string }[] } };
          }[];
          for (const configuration of configurations) {
            if (referencedId(configuration.LambdaFunctionArn) !== logicalId) continue;
            const rules = configuration.Filter?.Key?.FilterRules ?? [];
            const rule = (name: string) => rules.find((r) => r.Name.toLowerCase() === name)?.Value;
            const bucketPath = bucketResource?.Metadata?.['aws:cdk:path'];
            triggers.push({
              kind: 's3',
              bucket: typeof bucketPath === 'string' ? bucketPath.split('/')[1]! : (bucket ?? String(bucketId)),
              events: configuration.Events,
              ...(rule('prefix') !== undefined ? { prefix: rule('prefix') } : {}),
              ...(rule('suffix') !== undefined ? { suffix: rule('suffix') } : {}),
            });
          }
        } else if (other.Type === 'AWS::Events::Rule' && typeof props.ScheduleExpression === 'string') {
          const targets = (props.Targets ?? []) as { Arn: unknown }[];
          if (targets.some((target) => referencedId(target.Arn) === logicalId)) {
            triggers.push({ kind: 'schedule', expression: props.ScheduleExpression, ruleLogicalId: otherId });
          }
        } else if (other.Type === 'AWS::Lambda::EventSourceMapping' && referencedId(props.FunctionName) === logicalId) {
          const responseTypes = (props.FunctionResponseTypes ?? []) as string[];
          const table = tableStreamConstruct(templates, stack, props.EventSourceArn);
          if (table) {
            const destination = props.DestinationConfig?.OnFailure?.Destination;
            const onFailureQueue = destination ? queueConstruct(templates, stack, destination) : undefined;
            if (destination && !onFailureQueue)
              throw new Error(`The local runtime sends a stream's failed batches to SQS queues only (${otherId})`);
            triggers.push({
              kind: 'dynamodb',
              table,
              batchSize: Number(props.BatchSize ?? 100),
              filters: ((props.FilterCriteria?.Filters ?? []) as { Pattern: string }[]).map((filter) => filter.Pattern),
              startingPosition: props.StartingPosition === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON',
              reportBatchItemFailures: responseTypes.includes('ReportBatchItemFailures'),
              bisectBatchOnError: props.BisectBatchOnFunctionError === true,
              retryAttempts: Number(props.MaximumRetryAttempts ?? -1),
              maxRecordAgeSeconds: Number(props.MaximumRecordAgeInSeconds ?? -1),
              ...(onFailureQueue ? { onFailureQueue } : {}),
              mappingLogicalId: otherId,
            });
            continue;
          }
          const queue = queueConstruct(templates, stack, props.EventSourceArn);
          if (!queue)
            throw new Error(
              `The local runtime runs event source mappings on SQS queues and the table's stream only (${otherId})`,
            );
          triggers.push({
            kind: 'sqs',
            queue,
            batchSize: Number(props.BatchSize ?? 10),
            ...(props.ScalingConfig?.MaximumConcurrency !== undefined
              ? { maxConcurrency: Number(props.ScalingConfig.MaximumConcurrency) }
              : {}),
            reportBatchItemFailures: responseTypes.includes('ReportBatchItemFailures'),
            mappingLogicalId: otherId,
          });
        } else if (other.Type === 'Custom::Trigger') {
          // The trigger invokes the function's current version (AWS::Lambda::Version of this function).
          const versionId = referencedId(props.HandlerArn);
          const version = versionId ? template.Resources[versionId] : undefined;
          if (versionId === logicalId || referencedId(version?.Properties?.FunctionName) === logicalId) {
            triggers.push({ kind: 'afterDeploy', triggerLogicalId: otherId });
          }
        }
      }
      functions.push({
        name: constructName(resource, logicalId),
        stack,
        logicalId,
        roleLogicalId,
        module,
        handler: String(properties.Handler),
        memoryMb: Number(properties.MemorySize ?? 128),
        timeoutSeconds: Number(properties.Timeout ?? 3),
        ...(properties.ReservedConcurrentExecutions !== undefined
          ? { reservedConcurrency: Number(properties.ReservedConcurrentExecutions) }
          : {}),
        rawEnvironment: (properties.Environment?.Variables ?? {}) as Record<string, unknown>,
        triggers,
      });
    }
  }
  return functions;
}

/**
 * A function's role and the policies attached to it, as the template writes them (for the local IAM
 * evaluation): the AWS::IAM::Role resource and every AWS::IAM::Policy of its stack whose `Roles`
 * name it. Resource ARNs in them are intrinsics; `resolveValue` resolves those the runtime knows.
 */
export function functionRole(
  templates: SynthesizedTemplates,
  fn: Pick<TemplateFunction, 'stack' | 'roleLogicalId'>,
): { role: CfnResource; policies: { logicalId: string; resource: CfnResource }[] } {
  const template = fn.stack === templates.stackName ? templates.root : templates.nested[fn.stack];
  const role = template?.Resources[fn.roleLogicalId];
  if (!template || !role) throw new Error(`No role ${fn.roleLogicalId} in ${fn.stack}`);
  const policies = Object.entries(template.Resources)
    .filter(
      ([, resource]) =>
        resource.Type === 'AWS::IAM::Policy' &&
        ((resource.Properties?.Roles ?? []) as unknown[]).some((named) => referencedId(named) === fn.roleLogicalId),
    )
    .map(([logicalId, resource]) => ({ logicalId, resource }));
  return { role, policies };
}

/** A secret's reference, resolved: the variable it belongs to is given its local value instead. */
const SECRET = Symbol('secret');
interface SecretMarker {
  [SECRET]: true;
}
const DISTRIBUTION_DOMAIN = '\0distribution-domain\0';

/**
 * A value of a stack's template with its references to the portal's resources resolved to the
 * local stand-ins: a nested stack's parameter to what the portal stack passes it, the table to its
 * local name, a bucket to the local bucket, a secret to a marker (the variable gets the local
 * value), the distribution's domain to the local origin. Anything else cannot run here: an error.
 */
export function resolveValue(
  templates: SynthesizedTemplates,
  stack: string,
  value: unknown,
  local: LocalValues,
): string | SecretMarker {
  const template = stack === templates.stackName ? templates.root : templates.nested[stack];
  if (!template) throw new Error(`No stack ${stack} in the template`);
  const pseudo: Record<string, string> = {
    'AWS::Region': local.region,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::AccountId': '000000000000',
  };
  const localQueue = (resource: CfnResource, logicalId: string) => {
    const construct = constructName(resource, logicalId, 1);
    const queue = local.queues?.[construct];
    if (!queue) throw new Error(`The queue ${construct} has no local queue`);
    return queue;
  };
  const resolveIn = (inStack: string, inTemplate: CfnTemplate, item: unknown): string | SecretMarker => {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
    const object = (item ?? {}) as Record<string, unknown>;
    if (typeof object.Ref === 'string') {
      const name = object.Ref;
      if (name in pseudo) return pseudo[name]!;
      if (inTemplate.Parameters && name in inTemplate.Parameters && inStack !== templates.stackName) {
        const passed = templates.root.Resources[inStack]?.Properties?.Parameters?.[name];
        return resolveIn(templates.stackName, templates.root, passed);
      }
      const resource = inTemplate.Resources[name];
      if (resource?.Type === 'AWS::DynamoDB::Table') return local.tableName;
      if (resource?.Type === 'AWS::SecretsManager::Secret') return { [SECRET]: true };
      // A queue's Ref is its URL.
      if (resource?.Type === 'AWS::SQS::Queue') return localQueue(resource, name).url;
      if (resource?.Type === 'AWS::S3::Bucket') {
        const path = resource.Metadata?.['aws:cdk:path'];
        const construct = typeof path === 'string' ? path.split('/')[1] : undefined;
        const bucket = construct ? local.buckets[construct] : undefined;
        if (bucket) return bucket;
        throw new Error(`The bucket ${construct ?? name} has no local bucket`);
      }
      throw new Error(
        `The local runtime cannot resolve { Ref: ${name} } (${resource?.Type ?? 'unknown'}) of ${inStack}`,
      );
    }
    const getAtt = object['Fn::GetAtt'];
    if (Array.isArray(getAtt)) {
      const resource = inTemplate.Resources[String(getAtt[0])];
      if (resource?.Type === 'AWS::CloudFront::Distribution' && getAtt[1] === 'DomainName') return DISTRIBUTION_DOMAIN;
      if (resource?.Type === 'AWS::SQS::Queue') {
        const queue = localQueue(resource, String(getAtt[0]));
        if (getAtt[1] === 'Arn') return queue.arn;
        if (getAtt[1] === 'QueueUrl') return queue.url;
        if (getAtt[1] === 'QueueName') return queue.arn.slice(queue.arn.lastIndexOf(':') + 1);
      }
      if (resource?.Type === 'AWS::DynamoDB::Table' && getAtt[1] === 'Arn') {
        return `arn:aws:dynamodb:${local.region}:000000000000:table/${local.tableName}`;
      }
      throw new Error(`The local runtime cannot resolve Fn::GetAtt ${JSON.stringify(getAtt)} of ${inStack}`);
    }
    const join = object['Fn::Join'];
    if (Array.isArray(join)) {
      const parts = (join[1] as unknown[]).map((part) => resolveIn(inStack, inTemplate, part));
      if (parts.some((part) => typeof part !== 'string'))
        throw new Error('A secret inside Fn::Join cannot be resolved');
      return (parts as string[]).join(String(join[0]));
    }
    throw new Error(`The local runtime cannot resolve ${JSON.stringify(item)} of ${inStack}`);
  };
  return resolveIn(stack, template, value);
}

/** A function's environment as the stack sets it, resolved to the local values. */
export function localEnvironment(
  templates: SynthesizedTemplates,
  fn: TemplateFunction,
  local: LocalValues,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, raw] of Object.entries(fn.rawEnvironment)) {
    const value = resolveValue(templates, fn.stack, raw, local);
    if (typeof value !== 'string') {
      // `<NAME>_ARN` of a secret: locally the value itself, under `<NAME>`.
      const variable = name.replace(/_ARN$/, '');
      const secret = local.secrets[variable];
      if (secret !== undefined && secret !== '') environment[variable] = secret;
      continue;
    }
    environment[name] =
      value === `https://${DISTRIBUTION_DOMAIN}`
        ? local.siteUrl
        : value.replaceAll(DISTRIBUTION_DOMAIN, new URL(local.siteUrl).host);
  }
  return environment;
}

/** Every function of the template with its environment resolved to the local values. */
export function localFunctions(templates: SynthesizedTemplates, local: LocalValues): LocalFunction[] {
  return templateFunctions(templates).map((fn) => ({ ...fn, environment: localEnvironment(templates, fn, local) }));
}

/**
 * The variables every function of the template sets to the same value, resolved (the table, the
 * token's issuer and audience, the service name, the money settings): what the handler tests set
 * for the whole file, where one process calls many functions' handlers.
 */
export function commonEnvironment(functions: readonly LocalFunction[]): Record<string, string> {
  const [first, ...others] = functions;
  if (!first) return {};
  return Object.fromEntries(
    Object.entries(first.environment).filter(([name, value]) => others.every((fn) => fn.environment[name] === value)),
  );
}

/** The template's functions of one trigger kind, each with that trigger. */
export function withTrigger<F extends Pick<TemplateFunction, 'triggers'>, K extends FunctionTrigger['kind']>(
  functions: readonly F[],
  kind: K,
): { fn: F; trigger: Extract<FunctionTrigger, { kind: K }> }[] {
  return functions.flatMap((fn) =>
    fn.triggers
      .filter((trigger): trigger is Extract<FunctionTrigger, { kind: K }> => trigger.kind === kind)
      .map((trigger) => ({ fn, trigger })),
  );
}

/**
 * A daily EventBridge schedule's time of day in UTC: `cron(M H * * ? *)`. The local runtime runs
 * daily schedules only (the stack has no other); any other expression is refused in words.
 */
export function dailyCronTime(expression: string): { hour: number; minute: number } {
  const match = /^cron\((\d{1,2}) (\d{1,2}) \* \* \? \*\)$/.exec(expression);
  if (!match) throw new Error(`The local runtime runs daily schedules, cron(M H * * ? *), only: ${expression}`);
  return { minute: Number(match[1]), hour: Number(match[2]) };
}
