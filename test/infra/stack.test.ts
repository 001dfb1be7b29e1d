import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { App, Aws, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventFunctions, routes, secretEnv, type EventFunction, type Route } from '../../functions/src/routes';
import { table as tableDefinition } from '../../shared/src/db/table';
import { functionBundling } from '../../infra/lib/bundling';
import { buildDeployedBundles, bundleFolder } from '../../infra/lib/deployed-bundles';
import { MAX_RESOURCES_PER_STACK, capabilities, capabilityFor } from '../../infra/lib/capabilities';
import { addPortalChecks } from '../../infra/lib/checks';
import {
  PortalStack,
  mailIdentityArn,
  placesProviderArn,
  senderDomain,
  repoRoot,
  type FunctionResources,
  type StackSecretName,
} from '../../infra/lib/portal-stack';
import { securityHeaders } from '../../infra/lib/security-headers';
import { spaRewriteSource } from '../../infra/lib/spa-rewrite';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */
type Resources = Record<string, any>;

/** The feature flags of cdk.json, so the tests synthesize what `npm run synth` does. */
const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context;

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const DYNAMODB_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:*',
];

interface Built {
  app: App;
  stack: PortalStack;
  /** The portal stack's own template. */
  template: Template;
  /** Every resource of the portal stack and of its nested stacks (see `allResources`). */
  resources: Resources;
  /** Each stack's resource count, the portal stack first. */
  counts: Record<string, number>;
}

/**
 * The resources of the portal stack and of each nested capability stack in one map, with every
 * reference to a nested stack's parameter replaced by the value the portal stack passes it: a
 * function's `TABLE_NAME` reads `{ Ref: <the table> }` wherever the function lives, so the claims
 * below hold for the whole portal, not for one stack.
 */
function allResources(
  stack: PortalStack,
  template: Template,
): { resources: Resources; counts: Record<string, number> } {
  const resources: Resources = { ...template.toJSON().Resources };
  const counts: Record<string, number> = { [stack.stackName]: Object.keys(resources).length };
  for (const [capability, nested] of stack.capabilityStacks) {
    const own = Template.fromStack(nested).toJSON().Resources as Resources;
    counts[capability] = Object.keys(own).length;
    const passed = resources[stack.getLogicalId(nested.nestedStackResource as never)].Properties.Parameters as Record<
      string,
      unknown
    >;
    const substitute = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(substitute);
      if (value && typeof value === 'object') {
        const entries = Object.entries(value);
        if (entries.length === 1 && entries[0]![0] === 'Ref' && typeof entries[0]![1] === 'string') {
          const name = entries[0]![1];
          if (name in passed) return passed[name];
        }
        return Object.fromEntries(entries.map(([key, inner]) => [key, substitute(inner)]));
      }
      return value;
    };
    for (const [id, resource] of Object.entries(own)) {
      expect(resources[id], `logical id ${id} in two stacks`).toBeUndefined();
      resources[id] = substitute(resource);
    }
  }
  return { resources, counts };
}

function build(
  options: {
    routes?: readonly Route[];
    eventFunctions?: readonly EventFunction[];
    siteDist?: { member: string; admin: string };
    bundle?: boolean;
    failOnFindings?: boolean;
    mail?: { from: string; identity?: string };
    settings?: Record<string, string>;
  } = {},
): Built {
  const app = new App({
    context: {
      ...cdkContext,
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
      // By default a cdk-nag finding does not abort the synth here, so that each claim below fails on
      // its own; the cdk-nag tests check the findings, and that the synth does fail on one.
      '@aws-cdk/core:failSynthOnValidationErrors': options.failOnFindings ?? false,
    },
  });
  const stack = new PortalStack(app, 'ResellerPortal', {
    routes: options.routes,
    eventFunctions: options.eventFunctions,
    siteDist: options.siteDist ?? { member: path.join(emptyDir, 'member'), admin: path.join(emptyDir, 'admin') },
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
  });
  addPortalChecks(app);
  const template = Template.fromStack(stack);
  return { app, stack, template, ...allResources(stack, template) };
}

/** The logical id of a construct's resource in its own stack (the portal stack or a nested one). */
const logicalId = (_stack: Stack, construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as never);

/** All IAM statements that apply to a role: its inline policies and the AWS::IAM::Policy resources attached to it. */
function statementsOf(resources: Resources, roleId: string): any[] {
  const role = resources[roleId];
  expect(role?.Type).toBe('AWS::IAM::Role');
  const inline = (role.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
  const attached = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((ref: any) => ref.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
}
const actionsOf = (statement: any): string[] => [statement.Action].flat();
const resourcesOf = (statement: any): any[] => [statement.Resource].flat();

/** The sender the main stack is built with (as `-c mailFrom=…` does). */
const MAIL_FROM = 'Reseller Portal <no-reply@portal.example>';

let emptyDir: string;
let siteDir: string;
let main: Built;
/** Every function's bundle, built as the stack builds it (deployed-bundles.ts). */
let bundlesDir: string;
/** The folder of a function's bundle. */
const bundleOf = (spec: Route | EventFunction): string => path.join(bundlesDir, bundleFolder(spec.module));

beforeAll(async () => {
  emptyDir = mkdtempSync(path.join(tmpdir(), 'portal-infra-empty-'));
  siteDir = mkdtempSync(path.join(tmpdir(), 'portal-infra-site-'));
  for (const app of ['member', 'admin']) {
    mkdirSync(path.join(siteDir, app));
    writeFileSync(path.join(siteDir, app, 'index.html'), `<!doctype html><title>${app}</title>`);
    writeFileSync(path.join(siteDir, app, 'build.json'), JSON.stringify({ checksAnswers: false }));
  }
  // The real route table. The CDK's own bundling is left to pictures.test.ts (three functions, one
  // with native modules, compared byte for byte with deployed-bundles.ts): here every function is
  // bundled once by deployed-bundles.ts with the stack's options, one esbuild build for all of them
  // instead of an esbuild process per function (decision 0471). A handler that fails to bundle fails here.
  main = build({
    siteDist: { member: path.join(siteDir, 'member'), admin: path.join(siteDir, 'admin') },
    mail: { from: MAIL_FROM },
    bundle: false,
  });
  bundlesDir = mkdtempSync(path.join(tmpdir(), 'portal-infra-bundles-'));
  await buildDeployedBundles(
    bundlesDir,
    [...routes, ...eventFunctions].map((spec) => spec.module),
  );
});

afterAll(() => {
  if (bundlesDir) rmSync(bundlesDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
  rmSync(siteDir, { recursive: true, force: true });
});

/** Every function the stack makes from functions/src/routes.ts: the routes and the event-started ones. */
interface AppFunction {
  kind: 'route' | 'event';
  spec: Route | EventFunction;
  made: FunctionResources;
}
function appFunctions(stack: PortalStack): AppFunction[] {
  return [
    ...[...stack.routeResources.values()].map((made) => ({ kind: 'route' as const, spec: made.route, made })),
    ...[...stack.eventResources.values()].map((made) => ({ kind: 'event' as const, spec: made.event, made })),
  ];
}
const allSpecs: [string, Route | EventFunction][] = [...routes, ...eventFunctions].map((spec) => [spec.name, spec]);
const madeFor = (stack: PortalStack, name: string): FunctionResources =>
  stack.routeResources.get(name) ?? stack.eventResources.get(name)!;

describe('functions', () => {
  it('makes exactly one function per route and per event function, and no other function carries the app environment', () => {
    const appFunctionResources = Object.values(main.resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.TABLE_NAME,
    );
    expect(appFunctionResources).toHaveLength(routes.length + eventFunctions.length);
    expect(main.stack.routeResources.size).toBe(routes.length);
    expect(main.stack.eventResources.size).toBe(eventFunctions.length);
    for (const route of routes) {
      const matching = appFunctionResources.filter(
        (r) => r.Properties.Description === `POST ${route.path} (${route.module})`,
      );
      expect(matching, route.name).toHaveLength(1);
    }
    for (const event of eventFunctions) {
      const matching = appFunctionResources.filter((r) => r.Properties.Description?.startsWith(`${event.name}: `));
      expect(matching, event.name).toHaveLength(1);
    }
  });

  it('runs on the Node the tests run on: nodejs24.x, bundles for node24, engines >=24', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major).toBe(24);
    const runtimes = new Set(
      appFunctions(main.stack).map(
        ({ made }) => main.resources[logicalId(main.stack, made.function)].Properties.Runtime,
      ),
    );
    expect([...runtimes]).toEqual([`nodejs${major}.x`]);
    expect(functionBundling.target).toBe(`node${major}`);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${major}`);
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^\\^${major}\\.`));
  });

  it.each(allSpecs)('%s: runtime, architecture, size, handler, environment and log group', (name, spec) => {
    const { stack, resources } = main;
    const made = madeFor(stack, name);
    const fn = resources[logicalId(stack, made.function)];
    expect(fn.Type).toBe('AWS::Lambda::Function');
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: spec.memoryMb,
      Timeout: spec.timeoutSeconds,
      Role: { 'Fn::GetAtt': [logicalId(stack, made.role), 'Arn'] },
    });
    const expectedSecrets = Object.fromEntries(
      spec.access.secrets.map((secret) => [
        `${secretEnv[secret]}_ARN`,
        { Ref: logicalId(stack, stack.secrets[secret]) },
      ]),
    );
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: logicalId(stack, stack.table) },
      TOKEN_ISSUER: 'reseller-portal',
      TOKEN_AUDIENCE: 'reseller-portal-api',
      POWERTOOLS_SERVICE_NAME: 'reseller-portal',
      ...expectedSecrets,
      ...(spec.access.importsBucket ? { IMPORTS_BUCKET: { Ref: logicalId(stack, stack.importsBucket) } } : {}),
      ...(spec.access.imagesBucket ? { IMAGES_BUCKET: { Ref: logicalId(stack, stack.imagesBucket) } } : {}),
      ...(spec.access.pictureQueue ? { PICTURE_QUEUE_URL: { Ref: logicalId(stack, stack.pictureQueue) } } : {}),
      ...(spec.access.checkoutCancelQueue
        ? { CHECKOUT_CANCEL_QUEUE_URL: { Ref: logicalId(stack, stack.checkoutCancelQueue) } }
        : {}),
      ...(spec.access.importQueue ? { IMPORT_QUEUE_URL: { Ref: logicalId(stack, stack.importQueue) } } : {}),
      ...(spec.access.mail
        ? {
            MAIL_FROM,
            SITE_URL: {
              'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack, stack.distribution), 'DomainName'] }]],
            },
          }
        : {}),
    });
    const logGroupId = logicalId(stack, made.logGroup);
    expect(fn.Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(resources[logGroupId].Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('bundles each handler module (minified CommonJS with a source map of mappings only)', () => {
    const manifest = JSON.parse(readFileSync(path.join(main.app.outdir, 'ResellerPortal.assets.json'), 'utf8'));
    for (const { spec, made } of appFunctions(main.stack)) {
      const fn = main.resources[logicalId(main.stack, made.function)];
      // the function's code is an asset of the stack's own manifest
      const assetHash = (fn.Properties.Code.S3Key as string).replace(/\.zip$/, '');
      expect(Object.keys(manifest.files)).toContain(assetHash);
      const dir = bundleOf(spec);
      const code = readFileSync(path.join(dir, 'index.js'), 'utf8');
      expect(code, spec.name).toMatch(/^"use strict";/);
      expect(code).toContain('sourceMappingURL=index.js.map');
      expect(code.length / code.split('\n').length).toBeGreaterThan(1000); // minified: long lines
      const map = JSON.parse(readFileSync(path.join(dir, 'index.js.map'), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sourcesContent, spec.name).toBeUndefined(); // Node parses the map at cold start: no source copies
      expect(map.sources.some((source) => source.endsWith(`functions/src/${spec.module}`))).toBe(true);
      expect(map.sources.filter((source) => source.includes('@aws-sdk/'))).toEqual([]); // the SDK stays external
    }
  });

  it('logs a 500 with a stack in our source files, read through the map without --enable-source-maps', () => {
    const made = [...main.stack.routeResources.values()].find((candidate) => candidate.route.name === 'login')!;
    const fn = main.resources[logicalId(main.stack, made.function)];
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    const dir = bundleOf(made.route);
    // A body that is not a string makes the body parser throw a TypeError: an unexpected error, a 500.
    const invoke = [
      `require(${JSON.stringify(path.join(dir, 'index.js'))})`,
      '.handler({ isBase64Encoded: true, body: 42, headers: {} }, { awsRequestId: "req-1", functionName: "login" })',
      '.then((result) => console.log(JSON.stringify({ status: result.statusCode })));',
    ].join('');
    const run = spawnSync(process.execPath, ['-e', invoke], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        NODE_PATH: path.join(repoRoot, 'node_modules'),
        NODE_OPTIONS: '',
        AWS_REGION: 'us-east-1',
        TABLE_NAME: 'infra-test',
        POWERTOOLS_SERVICE_NAME: 'reseller-portal',
      },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const lines = `${run.stdout}${run.stderr}`
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as any);
    expect(lines).toContainEqual({ status: 500 });
    const logged = lines.find((line) => line.message === 'unexpected error');
    expect(logged?.correlationId).toBe('req-1');
    const stack = String(logged.error.stack);
    expect(stack).toMatch(/TypeError/);
    expect(stack).toMatch(/functions\/src\/http\/api-handler\.ts:\d+:\d+/);
    expect(stack).not.toContain(path.join(dir, 'index.js')); // no frame left in the minified bundle
  });

  it('keeps the embedded address search and its ZIP database out of every bundle; searchAddress calls Amazon Location', () => {
    for (const { spec } of appFunctions(main.stack)) {
      const dir = bundleOf(spec);
      const map = JSON.parse(readFileSync(path.join(dir, 'index.js.map'), 'utf8')) as { sources: string[] };
      expect(
        map.sources.filter((source) => /zipcodes|local-address-search/.test(source)),
        spec.name,
      ).toEqual([]);
      const code = readFileSync(path.join(dir, 'index.js'), 'utf8');
      expect(code.includes('@aws-sdk/client-geo-places'), spec.name).toBe(spec.name === 'searchAddress');
    }
  });

  it('keeps the local outbox out of every bundle; only the functions that send mail carry the SES client', () => {
    for (const { spec } of appFunctions(main.stack)) {
      const dir = bundleOf(spec);
      const map = JSON.parse(readFileSync(path.join(dir, 'index.js.map'), 'utf8')) as { sources: string[] };
      expect(
        map.sources.filter((source) => /local-outbox/.test(source)),
        spec.name,
      ).toEqual([]);
      const code = readFileSync(path.join(dir, 'index.js'), 'utf8');
      expect(code.includes('@aws-sdk/client-sesv2'), spec.name).toBe(Boolean(spec.access.mail));
    }
  });

  it('starts each bucket event function from objects created in the imports bucket', () => {
    const notifications = Object.values(main.resources).filter((r) => r.Type === 'Custom::S3BucketNotifications');
    const onUpload = eventFunctions.filter((event) => event.trigger === 'importsBucket:ObjectCreated');
    expect(notifications).toHaveLength(onUpload.length > 0 ? 1 : 0);
    for (const event of onUpload) {
      const fnId = logicalId(main.stack, main.stack.eventResources.get(event.name)!.function);
      const notification = notifications[0].Properties;
      expect(notification.BucketName).toEqual({ Ref: logicalId(main.stack, main.stack.importsBucket) });
      expect(notification.NotificationConfiguration.LambdaFunctionConfigurations).toContainEqual(
        expect.objectContaining({ Events: ['s3:ObjectCreated:*'], LambdaFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] } }),
      );
    }
  });

  it('runs the daily payouts every day at 00:00 UTC: an EventBridge rule targeting the function, allowed to invoke it', () => {
    const scheduled = eventFunctions.filter((event) => event.trigger === 'schedule:daily');
    expect(scheduled.map((event) => event.name)).toEqual(['dailyPayouts']);
    const rules = Object.values(main.resources).filter((r) => r.Type === 'AWS::Events::Rule');
    for (const event of scheduled) {
      const fnId = logicalId(main.stack, main.stack.eventResources.get(event.name)!.function);
      const rule = rules.find((r) =>
        (r.Properties.Targets as { Arn: unknown }[]).some(
          (target) => JSON.stringify(target.Arn) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }),
        ),
      );
      expect(rule?.Properties).toMatchObject({ ScheduleExpression: 'cron(0 0 * * ? *)', State: 'ENABLED' });
      const permissions = Object.values(main.resources).filter(
        (r) =>
          r.Type === 'AWS::Lambda::Permission' &&
          r.Properties.Principal === 'events.amazonaws.com' &&
          JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }),
      );
      expect(permissions).toHaveLength(1);
      // Stripe's secret key only, and the table: what paying out needs.
      expect(event.access).toEqual({ table: 'readwrite', secrets: ['stripeSecretKey'], mail: 'send' });
    }
  });
});

describe('room to grow: one nested stack per capability', () => {
  it(`no stack holds more than ${MAX_RESOURCES_PER_STACK} resources (CloudFormation allows 500)`, () => {
    console.log(`Resources per stack: ${JSON.stringify(main.counts)}`);
    expect(Object.keys(main.counts)).toEqual(['ResellerPortal', ...capabilities]);
    for (const [stack, count] of Object.entries(main.counts)) {
      expect(count, stack).toBeGreaterThan(0);
      expect(count, stack).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
    }
  });

  it("each call's function, role, log group and API route live in its capability's nested stack", () => {
    const { stack, resources } = main;
    for (const route of routes) {
      const nested = stack.capabilityStacks.get(capabilityFor(route.name))!;
      const made = stack.routeResources.get(route.name)!;
      for (const construct of [made.function, made.role, made.logGroup]) {
        expect(Stack.of(construct), route.name).toBe(nested);
      }
      const apiRoute = Template.fromStack(nested).findResources('AWS::ApiGatewayV2::Route', {
        Properties: { RouteKey: `POST ${route.path}` },
      });
      expect(Object.keys(apiRoute), route.name).toHaveLength(1);
    }
    // The portal stack keeps the shared pieces and the import function, and no call's function.
    const parentFunctions = Object.values(main.template.findResources('AWS::Lambda::Function')).filter(
      (r) => r.Properties.Environment?.Variables?.TABLE_NAME,
    );
    expect(parentFunctions).toHaveLength(eventFunctions.length);
    // Every nested stack is on the HTTP API of the portal stack.
    for (const nested of stack.capabilityStacks.values()) {
      const parameters = resources[stack.getLogicalId(nested.nestedStackResource as never)].Properties.Parameters;
      expect(parameters.ApiId).toEqual({ Ref: logicalId(stack, stack.api) });
    }
  });

  it('a call with no capability fails the synth, naming the call and the file to place it in', () => {
    const unplaced = { ...routes[0]!, name: 'notACapabilityYet' as Route['name'], path: '/api/notACapabilityYet' };
    expect(() => build({ routes: [unplaced], eventFunctions: [], bundle: false })).toThrow(
      /notACapabilityYet has no capability: add it to capabilityOf in infra\/lib\/capabilities\.ts/,
    );
  });
});

describe('the upgrade after each deploy', () => {
  it('invokes each afterDeploy function once the table exists, again whenever the function changes', () => {
    const afterDeploy = eventFunctions.filter((event) => event.trigger === 'afterDeploy');
    expect(afterDeploy.map((event) => event.name)).toEqual(['upgradeTable']);
    const triggers = Object.entries(main.resources).filter(([, r]) => r.Type === 'Custom::Trigger');
    expect(triggers).toHaveLength(afterDeploy.length);
    const tableId = logicalId(main.stack, main.stack.table);
    for (const event of afterDeploy) {
      const fn = main.stack.eventResources.get(event.name)!.function;
      const fnId = logicalId(main.stack, fn);
      // Pointing at a version of the function: a new handler is a new version, so it runs again.
      const versions = Object.entries(main.resources)
        .filter(([, r]) => r.Type === 'AWS::Lambda::Version' && r.Properties.FunctionName?.Ref === fnId)
        .map(([id]) => id);
      expect(versions, event.name).toHaveLength(1);
      const found = triggers.find(([, r]) => r.Properties.HandlerArn?.Ref === versions[0]);
      expect(found, JSON.stringify(triggers.map(([, r]) => r.Properties.HandlerArn))).toBeDefined();
      expect(found![1].DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${tableId}`))]));
      expect(fn.runtime.name).toBe('nodejs24.x');
    }
  });
});

describe('failed imports are seen', () => {
  it('each event function sends an invocation that failed its retries to the encrypted failure queue', () => {
    const queueId = logicalId(main.stack, main.stack.failedEvents);
    const configs = Object.values(main.resources).filter((r) => r.Type === 'AWS::Lambda::EventInvokeConfig');
    // The picture, cancel and import-part functions are invoked by their queue's event source mapping: its messages have their own dead-letter queue;
    // the places function by the table stream's mapping, whose own on-failure destination is this queue (tested below).
    const asynchronous = eventFunctions.filter(
      (event) =>
        event.trigger !== 'pictureQueue' &&
        event.trigger !== 'checkoutCancelQueue' &&
        event.trigger !== 'importQueue' &&
        event.trigger !== 'tableStream:earnings',
    );
    expect(configs).toHaveLength(asynchronous.length);
    const pictureQueueArn = { 'Fn::GetAtt': [logicalId(main.stack, main.stack.pictureQueue), 'Arn'] };
    const importQueueArn = { 'Fn::GetAtt': [logicalId(main.stack, main.stack.importQueue!), 'Arn'] };
    for (const event of asynchronous) {
      const made = main.stack.eventResources.get(event.name)!;
      const fnId = logicalId(main.stack, made.function);
      const config = configs.find((c) => c.Properties.FunctionName.Ref === fnId);
      expect(config, event.name).toBeDefined();
      expect(config.Properties).toMatchObject({
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
      });
      const sends = statementsOf(main.resources, logicalId(main.stack, made.role)).filter((s) =>
        actionsOf(s).includes('sqs:SendMessage'),
      );
      // Besides the failure queue, only the queues the function lists: the import sends its
      // pictures and its next part.
      expect(sends.flatMap(resourcesOf)).toEqual([
        { 'Fn::GetAtt': [queueId, 'Arn'] },
        ...(event.access.importQueue === 'send' ? [importQueueArn] : []),
        ...(event.access.pictureQueue === 'send' ? [pictureQueueArn] : []),
      ]);
    }
    // No route function may write to it.
    for (const made of main.stack.routeResources.values()) {
      // (The admin's retry of pictures sends to the picture queue, not to this one.)
      const sqs = statementsOf(main.resources, logicalId(main.stack, made.role)).filter(
        (s) => actionsOf(s).some((a) => a.startsWith('sqs:')) && JSON.stringify(resourcesOf(s)).includes(queueId),
      );
      expect(sqs).toEqual([]);
    }
  });

  it('the failure queue is encrypted, keeps messages 14 days and refuses non-TLS requests', () => {
    const queueId = logicalId(main.stack, main.stack.failedEvents);
    expect(main.resources[queueId].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 60 * 60,
    });
    const policies = Object.values(main.resources).filter(
      (r) => r.Type === 'AWS::SQS::QueuePolicy' && r.Properties.Queues.some((q: any) => q.Ref === queueId),
    );
    expect(policies.flatMap((p) => p.Properties.PolicyDocument.Statement)).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('an alarm goes off as soon as a failed invocation waits in the queue', () => {
    const queueId = logicalId(main.stack, main.stack.failedEvents);
    const alarmId = logicalId(main.stack, main.stack.failedEventsAlarm);
    expect(main.resources[alarmId].Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(main.resources[alarmId].Properties.AlarmDescription).toMatch(/import/i);
    const outputs = main.template.toJSON().Outputs;
    expect(outputs.FailedEventsQueueUrl.Value).toEqual({ Ref: queueId });
    expect(outputs.FailedEventsAlarmName.Value).toEqual({ Ref: alarmId });
  });
});

describe('HTTP API', () => {
  it('has one POST /api/... route per entry, integrated with that route function (payload 2.0)', () => {
    const { stack, resources } = main;
    const apiRoutes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    expect(apiRoutes).toHaveLength(routes.length);
    for (const route of routes) {
      expect(route.path).toMatch(/^\/api\//);
      const apiRoute = apiRoutes.find((r) => r.Properties.RouteKey === `POST ${route.path}`);
      expect(apiRoute, route.name).toBeDefined();
      const integrationId = apiRoute.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = resources[integrationId].Properties;
      expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      expect(integration.IntegrationUri).toEqual({
        'Fn::GetAtt': [logicalId(stack, stack.routeResources.get(route.name)!.function), 'Arn'],
      });
    }
  });

  it('logs access to a log group and throttles by default', () => {
    const stages = Object.values(main.resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const stage = stages[0].Properties;
    expect(stage.StageName).toBe('$default');
    expect(stage.AutoDeploy).toBe(true);
    expect(stage.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    const destination = stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0] as string;
    expect(main.resources[destination].Type).toBe('AWS::Logs::LogGroup');
    expect(main.resources[destination].Properties.RetentionInDays).toBeGreaterThan(0);
    expect(JSON.parse(stage.AccessLogSettings.Format)).toMatchObject({ requestId: '$context.requestId' });
  });
});

describe('least privilege', () => {
  const readRoute: Route = {
    name: 'getApprovedProducts',
    path: '/api/getApprovedProducts',
    module: 'handlers/check-auth.ts',
    memoryMb: 256,
    timeoutSeconds: 5,
    access: { table: 'read', secrets: [] },
  };
  const uploadRoute: Route = {
    ...readRoute,
    name: 'products',
    path: '/api/products',
    access: { table: 'readwrite', secrets: [], importsBucket: 'write' },
  };
  const secretRoute: Route = {
    ...readRoute,
    name: 'login',
    path: '/api/login',
    access: { table: 'readwrite', secrets: ['tokenSigningKey'] },
  };
  let synthetic: Built;
  beforeAll(() => {
    synthetic = build({
      routes: [readRoute, uploadRoute, secretRoute],
      eventFunctions: [],
      bundle: false,
      settings: { COMMISSION_HOLD_DAYS: '30', INSTANT_FEE_PAID_BY: 'platform' },
    });
  });

  const statements = (built: Built, made: FunctionResources, prefix: string) =>
    statementsOf(built.resources, logicalId(built.stack, made.role)).filter((s) =>
      actionsOf(s).some((a) => a.startsWith(prefix)),
    );
  const route = (built: Built, name: string) => built.stack.routeResources.get(name)!;

  it('every function gets the money settings the app was given (contexts), as the functions read them', () => {
    for (const made of synthetic.stack.routeResources.values()) {
      const fn = Stack.of(made.function).resolve((made.function.node.defaultChild as CfnFunction).environment);
      expect(fn.variables).toMatchObject({ COMMISSION_HOLD_DAYS: '30', INSTANT_FEE_PAID_BY: 'platform' });
    }
  });

  it('a read route can read the table and its indexes but not write', () => {
    expect(synthetic.stack.eventResources.size).toBe(0);
    const table = statements(synthetic, route(synthetic, readRoute.name), 'dynamodb:');
    const actions = table.flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const action of DYNAMODB_WRITE_ACTIONS) expect(actions).not.toContain(action);
    const tableId = logicalId(synthetic.stack, synthetic.stack.table);
    expect(table.flatMap(resourcesOf)).toContainEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
  });

  it('a readwrite route can write the table', () => {
    const actions = statements(synthetic, route(synthetic, uploadRoute.name), 'dynamodb:').flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
  });

  it('the real route table and event functions get exactly their table access level', () => {
    for (const { spec, made } of appFunctions(main.stack)) {
      const actions = statements(main, made, 'dynamodb:').flatMap(actionsOf);
      expect(actions, spec.name).toContain('dynamodb:GetItem');
      if (spec.access.table === 'read') {
        for (const action of DYNAMODB_WRITE_ACTIONS) expect(actions, spec.name).not.toContain(action);
      } else {
        expect(actions, spec.name).toContain('dynamodb:PutItem');
      }
    }
  });

  it('only functions that list the imports bucket touch it: put to write, get to read, nothing else', () => {
    const objects = (built: Built) => ({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalId(built.stack, built.stack.importsBucket), 'Arn'] }, '/*']],
    });
    // The images bucket's statements (issue 28) are test/infra/pictures.test.ts's.
    const imagesBucketArn = (built: Built) => ({
      'Fn::GetAtt': [logicalId(built.stack, built.stack.imagesBucket), 'Arn'],
    });
    const onImages = (built: Built, statement: any) =>
      JSON.stringify(resourcesOf(statement)).includes(JSON.stringify(imagesBucketArn(built)));
    for (const built of [synthetic, main]) {
      for (const { spec, made } of appFunctions(built.stack)) {
        const s3 = statements(built, made, 's3:').filter((statement) => !onImages(built, statement));
        const expected = { write: ['s3:PutObject'], read: ['s3:GetObject'], none: [] }[
          spec.access.importsBucket ?? 'none'
        ];
        expect(s3.flatMap(actionsOf), spec.name).toEqual(expected);
        for (const statement of s3) expect(resourcesOf(statement)).toEqual([objects(built)]);
      }
    }
    expect(statements(synthetic, route(synthetic, uploadRoute.name), 's3:')).toHaveLength(1);
    expect(statements(synthetic, route(synthetic, readRoute.name), 's3:')).toEqual([]);
  });

  it('no function can read a secret it does not list', () => {
    for (const built of [synthetic, main]) {
      const { stack } = built;
      const allSecrets = Object.keys(stack.secrets) as StackSecretName[];
      for (const { spec, made } of appFunctions(stack)) {
        const readable = statements(built, made, 'secretsmanager:').flatMap(resourcesOf);
        const expected = spec.access.secrets.map((name) => ({ Ref: logicalId(stack, stack.secrets[name]) }));
        // The grants in any order (CDK merges them into one statement, ordered by logical id).
        expect(readable, spec.name).toEqual(expect.arrayContaining(expected));
        expect(readable, spec.name).toHaveLength(expected.length);
        for (const other of allSecrets.filter((name) => !(spec.access.secrets as string[]).includes(name))) {
          expect(readable).not.toContainEqual({ Ref: logicalId(stack, stack.secrets[other]) });
        }
      }
    }
    expect(statements(synthetic, route(synthetic, readRoute.name), 'secretsmanager:')).toEqual([]);
    expect(statements(synthetic, route(synthetic, secretRoute.name), 'secretsmanager:')).toHaveLength(1);
  });

  it('only /api/searchAddress may call Amazon Location, and only Places v2 Autocomplete on the default provider', () => {
    const provider = (built: Built) => built.stack.resolve(placesProviderArn(built.stack));
    expect(provider(main)).toEqual({
      'Fn::Join': [
        '',
        ['arn:', { Ref: 'AWS::Partition' }, ':geo-places:', { Ref: 'AWS::Region' }, '::provider/default'],
      ],
    });
    const withPlaces = appFunctions(main.stack).filter(({ spec }) => spec.access.places);
    expect(withPlaces.map(({ spec }) => spec.name)).toEqual(['searchAddress']);
    for (const built of [synthetic, main]) {
      for (const { spec, made } of appFunctions(built.stack)) {
        const geo = statementsOf(built.resources, logicalId(built.stack, made.role)).filter((s) =>
          actionsOf(s).some((a) => a.startsWith('geo')),
        );
        if (spec.access.places) {
          expect(geo, spec.name).toHaveLength(1);
          expect(actionsOf(geo[0]), spec.name).toEqual(['geo-places:Autocomplete']);
          expect(resourcesOf(geo[0]), spec.name).toEqual([provider(built)]);
        } else {
          expect(geo, spec.name).toEqual([]);
        }
      }
    }
  });

  it('only the functions that send mail may, and only ses:SendEmail on the sender identity; they get MAIL_FROM and SITE_URL', () => {
    const identity = main.stack.resolve(mailIdentityArn(main.stack, 'portal.example'));
    const senders = appFunctions(main.stack).filter(({ spec }) => spec.access.mail);
    expect(senders.map(({ spec }) => spec.name).sort()).toEqual([
      'addOrder',
      'changeEmail',
      'confirmCheckout',
      'dailyPayouts',
      'markAsShipped',
      'payCommisionToMember',
      'refundOrder',
      'requestPasswordReset',
      'runPayoutBatch',
      'signup',
      'stripeConnectWebhook',
      'stripeWebhook',
      'verifyEmail',
      'withdraw',
    ]);
    for (const { spec, made } of appFunctions(main.stack)) {
      const ses = statementsOf(main.resources, logicalId(main.stack, made.role)).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('ses')),
      );
      const variables = main.resources[logicalId(main.stack, made.function)].Properties.Environment.Variables;
      if (spec.access.mail) {
        expect(ses, spec.name).toHaveLength(1);
        expect(actionsOf(ses[0]), spec.name).toEqual(['ses:SendEmail']);
        expect(resourcesOf(ses[0]), spec.name).toEqual([identity]);
        expect(variables.MAIL_FROM, spec.name).toBe(MAIL_FROM);
        expect(variables.SITE_URL, spec.name).toEqual({
          'Fn::Join': [
            '',
            ['https://', { 'Fn::GetAtt': [logicalId(main.stack, main.stack.distribution), 'DomainName'] }],
          ],
        });
      } else {
        expect(ses, spec.name).toEqual([]);
        expect(variables.MAIL_FROM, spec.name).toBeUndefined();
        expect(variables.SITE_URL, spec.name).toBeUndefined();
      }
    }
  });

  it('sends as the identity named by mailIdentity, or else the domain of mailFrom; without a sender no function may send, and the synth warns', () => {
    expect(senderDomain('no-reply@portal.example')).toBe('portal.example');
    expect(senderDomain('Portal <no-reply@mail.portal.example>')).toBe('mail.portal.example');
    expect(() => senderDomain('nobody')).toThrow('mailFrom is not an e-mail address');
    const sendRoute: Route = {
      name: 'verifyEmail',
      path: '/api/verifyEmail',
      module: 'handlers/check-auth.ts',
      memoryMb: 256,
      timeoutSeconds: 5,
      access: { table: 'readwrite', secrets: [], mail: 'send' },
    };
    const named = build({
      routes: [sendRoute],
      eventFunctions: [],
      bundle: false,
      mail: { from: 'no-reply@portal.example', identity: 'no-reply@portal.example' },
    });
    const role = logicalId(named.stack, named.stack.routeResources.get('verifyEmail')!.role);
    const ses = statementsOf(named.resources, role).filter((s) => actionsOf(s).includes('ses:SendEmail'));
    expect(resourcesOf(ses[0])).toEqual([named.stack.resolve(mailIdentityArn(named.stack, 'no-reply@portal.example'))]);

    const unconfigured = build({ routes: [sendRoute], eventFunctions: [], bundle: false });
    const unconfiguredRole = logicalId(unconfigured.stack, unconfigured.stack.routeResources.get('verifyEmail')!.role);
    expect(
      statementsOf(unconfigured.resources, unconfiguredRole).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('ses')),
      ),
    ).toEqual([]);
    expect(
      Annotations.fromStack(unconfigured.stack).findWarning('*', Match.stringLikeRegexp('No sender for e-mail')),
    ).toHaveLength(1);
    expect(Annotations.fromStack(named.stack).findWarning('*', Match.stringLikeRegexp('No sender for e-mail'))).toEqual(
      [],
    );
  });

  it('no function role has a wildcard action, a * resource or a managed policy', () => {
    for (const built of [synthetic, main]) {
      for (const { made } of appFunctions(built.stack)) {
        const roleId = logicalId(built.stack, made.role);
        expect(built.resources[roleId].Properties.ManagedPolicyArns).toBeUndefined();
        for (const statement of statementsOf(built.resources, roleId)) {
          expect(statement.Effect).toBe('Allow');
          for (const action of actionsOf(statement)) expect(action).not.toMatch(/^\*$|:\*$/);
          // dynamodb:ListStreams alone: an action with no resource-level permissions (the places
          // function's stream mapping needs it; its stream reads name the table's stream).
          if (actionsOf(statement).join() === 'dynamodb:ListStreams') continue;
          expect(resourcesOf(statement)).not.toContain('*');
        }
      }
    }
  });
});

describe('data', () => {
  it('the table is on-demand, point-in-time recoverable, encrypted, retained, with the TTL and indexes of shared/src/db', () => {
    main.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    main.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: tableDefinition.indexes.map((index) =>
          Match.objectLike({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
          }),
        ),
      }),
    });
  });

  it("the table's stream carries keys only, and the places function reads it filtered to the members' earnings shards (decision 0481)", () => {
    const tableId = logicalId(main.stack, main.stack.table);
    main.template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: tableDefinition.streamViewType },
    });
    const places = main.stack.eventResources.get('refreshPlaces')!;
    const fnId = logicalId(main.stack, places.function);
    const mappings = Object.values(main.resources).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName.Ref === fnId,
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toEqual({
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      MaximumRecordAgeInSeconds: 3600,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [logicalId(main.stack, main.stack.failedEvents), 'Arn'] } },
      },
      // Not the place item `EARNINGS` the function writes: that would run it again on its own write.
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'EARNINGS#' }] } } } }) }],
      },
    });
    // The stream's reads on the table's stream, ListStreams (no resource-level permissions) on *, and
    // the failed batches' description to the failure queue.
    const statements = statementsOf(main.resources, logicalId(main.stack, places.role));
    const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
    const streamReads = statements.filter((statement) =>
      resourcesOf(statement).some((resource) => JSON.stringify(resource) === JSON.stringify(streamArn)),
    );
    expect(streamReads.map((statement) => actionsOf(statement).sort())).toEqual([
      ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
    ]);
    const listStreams = statements.find((statement) => actionsOf(statement).includes('dynamodb:ListStreams'));
    expect([actionsOf(listStreams), resourcesOf(listStreams)]).toEqual([['dynamodb:ListStreams'], ['*']]);
    expect(
      statements.filter((statement) => actionsOf(statement).includes('sqs:SendMessage')).flatMap(resourcesOf),
    ).toEqual([{ 'Fn::GetAtt': [logicalId(main.stack, main.stack.failedEvents), 'Arn'] }]);
  });

  const bucketPolicyStatements = (built: Built, bucketId: string): any[] =>
    Object.values(built.resources)
      .filter((r) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === bucketId)
      .flatMap((r) => r.Properties.PolicyDocument.Statement);

  it.each(['importsBucket', 'memberBucket', 'adminBucket', 'logsBucket'] as const)(
    '%s blocks public access, is encrypted and denies non-TLS requests',
    (name) => {
      const id = logicalId(main.stack, main.stack[name]);
      const bucket = main.resources[id];
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
        { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
      ]);
      expect(bucketPolicyStatements(main, id)).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
      if (name !== 'logsBucket') {
        expect(bucket.Properties.LoggingConfiguration.DestinationBucketName).toEqual({
          Ref: logicalId(main.stack, main.stack.logsBucket),
        });
      }
    },
  );

  it('uploaded CSVs expire from the imports bucket after 30 days, and incomplete multipart uploads after a day', () => {
    const bucket = main.resources[logicalId(main.stack, main.stack.importsBucket)];
    const rules = bucket.Properties.LifecycleConfiguration.Rules as any[];
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 30 }));
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
    // A rule without a prefix or filter: every object.
    for (const rule of rules) expect(rule.Prefix ?? rule.Filter).toBeUndefined();
  });

  it('the imports bucket accepts browser POST uploads (presigned) from the portal origin only', () => {
    const cors = main.resources[logicalId(main.stack, main.stack.importsBucket)].Properties.CorsConfiguration;
    expect(cors.CorsRules).toHaveLength(1);
    expect(cors.CorsRules[0].AllowedMethods).toEqual(['POST']);
    expect(cors.CorsRules[0].AllowedOrigins).toEqual([
      {
        'Fn::Join': [
          '',
          ['https://', { 'Fn::GetAtt': [logicalId(main.stack, main.stack.distribution), 'DomainName'] }],
        ],
      },
    ]);
    for (const bucket of [main.stack.memberBucket, main.stack.adminBucket, main.stack.logsBucket]) {
      expect(main.resources[logicalId(main.stack, bucket)].Properties.CorsConfiguration).toBeUndefined();
    }
  });

  it('the site buckets are readable by this distribution only (OAC), nobody else', () => {
    const distributionId = logicalId(main.stack, main.stack.distribution);
    for (const bucket of [main.stack.memberBucket, main.stack.adminBucket]) {
      const allows = bucketPolicyStatements(main, logicalId(main.stack, bucket)).filter((s) => s.Effect === 'Allow');
      expect(allows).toHaveLength(1);
      expect(allows[0]).toMatchObject({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
      });
      expect(JSON.stringify(allows[0].Condition)).toContain(distributionId);
    }
  });

  it('creates the five secrets; the signing key is generated, 64 chars, no punctuation', () => {
    const { stack, resources } = main;
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::SecretsManager::Secret')).toHaveLength(5);
    expect(resources[logicalId(stack, stack.secrets.tokenSigningKey)].Properties.GenerateSecretString).toEqual({
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    for (const name of [
      'stripeSecretKey',
      'stripeWebhookSecret',
      'stripeConnectWebhookSecret',
      'stripePublishableKey',
    ] as const) {
      expect(resources[logicalId(stack, stack.secrets[name])].Properties.Description).toContain('put-secret-value');
    }
  });
});

describe('CloudFront', () => {
  const distribution = () =>
    main.resources[logicalId(main.stack, main.stack.distribution)].Properties.DistributionConfig;
  const originOf = (behavior: any) => distribution().Origins.find((o: any) => o.Id === behavior.TargetOriginId);
  const bucketDomain = (bucket: IConstruct) => ({
    'Fn::GetAtt': [logicalId(main.stack, bucket), 'RegionalDomainName'],
  });

  it('has exactly four behaviours: / (member bucket), /admin/* (admin bucket), /api/* (the HTTP API), /images/* (test/infra/pictures.test.ts)', () => {
    const config = distribution();
    expect(config.CacheBehaviors.map((b: any) => b.PathPattern).sort()).toEqual(['/admin/*', '/api/*', '/images/*']);
    expect(config.Origins).toHaveLength(4);

    const member = originOf(config.DefaultCacheBehavior);
    expect(member.DomainName).toEqual(bucketDomain(main.stack.memberBucket));
    expect(member.OriginAccessControlId).toBeDefined();
    expect(member.OriginPath ?? '').toBe('');

    const adminBehavior = config.CacheBehaviors.find((b: any) => b.PathPattern === '/admin/*');
    const admin = originOf(adminBehavior);
    expect(admin.DomainName).toEqual(bucketDomain(main.stack.adminBucket));
    expect(admin.OriginAccessControlId).toBeDefined();
    expect(admin.OriginPath ?? '').toBe(''); // /admin/x is the key admin/x

    const apiBehavior = config.CacheBehaviors.find((b: any) => b.PathPattern === '/api/*');
    const api = originOf(apiBehavior);
    expect(api.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(JSON.stringify(api.DomainName)).toContain(logicalId(main.stack, main.stack.api));
    expect(apiBehavior).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
    });
    expect(apiBehavior.FunctionAssociations).toBeUndefined();
  });

  it("forwards the viewer's address to the API (CloudFront-Viewer-Address, which countVisit reads) and not the Host", () => {
    const config = distribution();
    const apiBehavior = config.CacheBehaviors.find((b: any) => b.PathPattern === '/api/*');
    // The managed AllViewerExceptHostHeader: every viewer header but Host (API Gateway answers only
    // its own), the Authorization header with them, and CloudFront's viewer headers,
    // CloudFront-Viewer-Address among them (docs/decisions/0464). No policy of our own can do that:
    // a list of headers may not name Authorization, and "all viewer headers and these CloudFront
    // ones" sends the viewer's Host.
    expect(apiBehavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(Object.values(main.resources).filter((r: any) => r.Type === 'AWS::CloudFront::OriginRequestPolicy')).toEqual(
      [],
    );
    // Nothing on the way sets or removes it: no viewer-request function, no origin header of that name.
    expect(apiBehavior.FunctionAssociations).toBeUndefined();
    const names = (originOf(apiBehavior).OriginCustomHeaders ?? []).map((h: any) => String(h.HeaderName).toLowerCase());
    expect(names).not.toContain('cloudfront-viewer-address');
  });

  it('rewrites app routes on / and /admin/*, redirects to HTTPS, sends security headers, logs', () => {
    const config = distribution();
    const functionId = logicalId(main.stack, main.stack.node.findChild('SpaRewrite'));
    const headersId = logicalId(main.stack, main.stack.node.findChild('SecurityHeaders'));
    const adminBehavior = config.CacheBehaviors.find((b: any) => b.PathPattern === '/admin/*');
    for (const behavior of [config.DefaultCacheBehavior, adminBehavior]) {
      expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(behavior.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: headersId });
    }
    const headers = main.resources[headersId].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(Object.keys(headers).sort()).toEqual([
      'ContentSecurityPolicy',
      'ContentTypeOptions',
      'FrameOptions',
      'ReferrerPolicy',
      'StrictTransportSecurity',
      'XSSProtection',
    ]);
    // The headers the policy makes CloudFront send are those of security-headers.ts, which the local server sends.
    const sent = {
      'content-security-policy': headers.ContentSecurityPolicy.ContentSecurityPolicy,
      'strict-transport-security': `max-age=${headers.StrictTransportSecurity.AccessControlMaxAgeSec}${headers.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      'x-content-type-options': headers.ContentTypeOptions.Override === true ? 'nosniff' : undefined,
      'x-frame-options': headers.FrameOptions.FrameOption,
      'referrer-policy': headers.ReferrerPolicy.ReferrerPolicy,
      'x-xss-protection': `${headers.XSSProtection.Protection ? 1 : 0}${headers.XSSProtection.ModeBlock ? '; mode=block' : ''}`,
    };
    // Current guidance (OWASP, MDN): the auditor is switched off, the CSP protects.
    expect(headers.XSSProtection).toEqual({ Protection: false, Override: true });
    expect(sent['x-xss-protection']).toBe('0');
    const s3Origins = [`https://*.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`, `https://*.s3.${Aws.URL_SUFFIX}`];
    expect(sent).toEqual({
      ...securityHeaders(s3Origins),
      'content-security-policy': main.stack.resolve(securityHeaders(s3Origins)['content-security-policy']),
    });
    for (const header of Object.keys(headers)) expect(headers[header].Override, header).toBe(true);
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("connect-src 'self' https://api.stripe.com https://m.stripe.network https://*.s3.");
    expect(csp).toContain('AWS::Region'); // presigned uploads go to the regional S3 endpoint
    expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(config.Logging.Bucket).toEqual({
      'Fn::GetAtt': [logicalId(main.stack, main.stack.logsBucket), 'RegionalDomainName'],
    });
    const fn = main.resources[functionId].Properties;
    expect(fn.FunctionCode).toBe(spaRewriteSource);
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
  });

  it('the SPA function maps extension-less paths to the right index.html', () => {
    const context = vm.createContext({});
    vm.runInContext(spaRewriteSource, context);
    const run = (uri: string) => (context as { handler: (e: unknown) => any }).handler({ request: { uri } });
    const uriOf = (uri: string) => run(uri).uri;
    expect(uriOf('/')).toBe('/index.html');
    expect(uriOf('/my_account/payout_methods')).toBe('/index.html');
    expect(uriOf('/member_product_detail')).toBe('/index.html');
    // The customer's shop page a share link opens (product ids carry no dot).
    expect(uriOf('/shop/ba55a14f1e3a562689aa9638c7034ad4')).toBe('/index.html');
    expect(uriOf('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(uriOf('/favicon.ico')).toBe('/favicon.ico');
    expect(uriOf('/admin/')).toBe('/admin/index.html');
    expect(uriOf('/admin/orders')).toBe('/admin/index.html');
    expect(uriOf('/admin/product_import/x')).toBe('/admin/index.html');
    expect(uriOf('/admin/assets/index-abc.css')).toBe('/admin/assets/index-abc.css');
    expect(uriOf('/administrator')).toBe('/index.html');
    expect(uriOf('/api/login')).toBe('/api/login');
    expect(run('/admin')).toMatchObject({ statusCode: 301, headers: { location: { value: '/admin/' } } });
  });

  it('the SPA function sends a browser that accepts brotli to a built script’s or style sheet’s .br, and no one else', () => {
    const context = vm.createContext({});
    vm.runInContext(spaRewriteSource, context);
    const uriOf = (uri: string, acceptEncoding?: string) =>
      (context as { handler: (e: unknown) => { uri: string } }).handler({
        request: { uri, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': { value: acceptEncoding } } },
      }).uri;
    for (const accept of ['gzip, deflate, br, zstd', 'br', 'BR;q=0.5, gzip']) {
      expect(uriOf('/assets/react-abc123.js', accept), accept).toBe('/assets/react-abc123.js.br');
      expect(uriOf('/admin/assets/index-abc.css', accept), accept).toBe('/admin/assets/index-abc.css.br');
      // Only the built scripts and styles have a .br; pages, pictures and other folders do not.
      expect(uriOf('/assets/logo-abc.svg', accept), accept).toBe('/assets/logo-abc.svg');
      expect(uriOf('/assets/sub/x.js', accept), accept).toBe('/assets/sub/x.js');
      expect(uriOf('/demo.js', accept), accept).toBe('/demo.js');
      expect(uriOf('/my_account', accept), accept).toBe('/index.html');
    }
    for (const accept of [undefined, '', 'gzip', 'br;q=0, gzip', 'br; q=0', 'gzip, brotli']) {
      expect(uriOf('/assets/react-abc123.js', accept), String(accept)).toBe('/assets/react-abc123.js');
    }
  });
});

describe('site deployment', () => {
  it('uploads web-member/dist to the member bucket and web-admin/dist under admin/, invalidating CloudFront', () => {
    const deployments = Object.values(main.resources).filter(
      (r) => r.Type === 'Custom::CDKBucketDeployment' && r.Properties.DistributionId !== undefined,
    );
    expect(deployments).toHaveLength(2);
    const byBucket = (bucket: IConstruct) =>
      deployments.find((d) => d.Properties.DestinationBucketName.Ref === logicalId(main.stack, bucket))?.Properties;
    const member = byBucket(main.stack.memberBucket);
    const admin = byBucket(main.stack.adminBucket);
    expect(member.DestinationBucketKeyPrefix).toBeUndefined();
    expect(admin.DestinationBucketKeyPrefix).toBe('admin/');
    for (const deployment of [member, admin]) {
      expect(deployment.DistributionId).toEqual({ Ref: logicalId(main.stack, main.stack.distribution) });
      // The brotli forms go up on their own, with their encoding: never as plain files.
      expect(deployment.Exclude).toEqual(['*.br']);
    }
  });

  it('uploads each app’s brotli scripts and styles (<file>.br) with Content-Encoding: br and their type', () => {
    const brotli = Object.values(main.resources)
      .filter((r) => r.Type === 'Custom::CDKBucketDeployment' && r.Properties.DistributionId === undefined)
      .map((r) => ({
        bucket: r.Properties.DestinationBucketName.Ref,
        prefix: r.Properties.DestinationBucketKeyPrefix,
        exclude: r.Properties.Exclude,
        include: r.Properties.Include,
        metadata: r.Properties.SystemMetadata,
      }));
    const member = logicalId(main.stack, main.stack.memberBucket);
    const admin = logicalId(main.stack, main.stack.adminBucket);
    const expected = (bucket: string, prefix: string | undefined) => [
      {
        bucket,
        prefix,
        exclude: ['*'],
        include: ['assets/*.js.br'],
        metadata: { 'content-type': 'text/javascript; charset=utf-8', 'content-encoding': 'br' },
      },
      {
        bucket,
        prefix,
        exclude: ['*'],
        include: ['assets/*.css.br'],
        metadata: { 'content-type': 'text/css; charset=utf-8', 'content-encoding': 'br' },
      },
    ];
    expect(brotli).toEqual([...expected(member, undefined), ...expected(admin, 'admin/')]);
  });

  it('refuses a build made for tests, or one that does not say how it was built, in words', () => {
    const dirs = mkdtempSync(path.join(tmpdir(), 'portal-infra-test-build-'));
    try {
      const site = (name: string, info?: string) => {
        mkdirSync(path.join(dirs, name));
        writeFileSync(path.join(dirs, name, 'index.html'), '<!doctype html><title>app</title>');
        if (info !== undefined) writeFileSync(path.join(dirs, name, 'build.json'), info);
        return path.join(dirs, name);
      };
      const testBuild = build({
        routes: routes.slice(0, 1),
        bundle: false,
        siteDist: { member: site('member', '{"checksAnswers":true}'), admin: site('admin') },
      });
      const errors = Annotations.fromStack(testBuild.stack)
        .findError('*', Match.anyValue())
        .map((entry) => String(entry.entry.data));
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatch(/member is a build made for tests .* run `npm run build:web` before `cdk deploy`/);
      expect(errors[1]).toMatch(/admin has no readable build\.json .* run `npm run build:web`/);
      // A production build is taken as it is.
      expect(Annotations.fromStack(main.stack).findError('*', Match.stringLikeRegexp('build:web'))).toEqual([]);
    } finally {
      rmSync(dirs, { recursive: true, force: true });
    }
  });

  it('skips the upload with a warning when the apps are not built', () => {
    const unbuilt = build({ routes: routes.slice(0, 1), bundle: false });
    unbuilt.template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    const warnings = Annotations.fromStack(unbuilt.stack).findWarning('*', Match.stringLikeRegexp('npm run build:web'));
    expect(warnings).toHaveLength(2);
  });
});

describe('outputs', () => {
  it('exports the site URL, the API URL, the table name and the secret ARNs', () => {
    const outputs = main.template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining([
        'SiteUrl',
        'ApiUrl',
        'TableName',
        'TokenSigningKeyArn',
        'StripeSecretKeyArn',
        'StripeWebhookSecretArn',
        'StripeConnectWebhookSecretArn',
      ]),
    );
    expect(outputs.TableName.Value).toEqual({ Ref: logicalId(main.stack, main.stack.table) });
    expect(outputs.StripeSecretKeyArn.Value).toEqual({
      Ref: logicalId(main.stack, main.stack.secrets.stripeSecretKey),
    });
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  /** Every finding of the pack, acknowledged or not (the pack's acknowledgement lookup switched off). */
  function rawFindings(stack: Stack): { rule: string; path: string }[] {
    const checks = new AwsSolutionsChecks();
    (checks as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
    return checks
      .validateScope(stack)
      .violations.flatMap((v) => v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })));
  }

  /** Every acknowledgement made in the construct tree: rule id, where, why. */
  function acknowledgements(stack: Stack): { id: string; path: string; reason: unknown }[] {
    return stack.node.findAll().flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.entries(entry.data as Record<string, unknown>).map(([id, reason]) => ({
            id: id.replace(/^annotation::/i, ''),
            path: construct.node.path,
            reason,
          })),
        ),
    );
  }

  it('reports no unacknowledged finding, with and without the site deployments', () => {
    const unbuilt = build({ bundle: false, failOnFindings: true }); // would throw on a finding
    for (const stack of [main.stack, unbuilt.stack]) {
      const report = new AwsSolutionsChecks().validateScope(stack);
      expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
      expect(report.success).toBe(true);
    }
    expect(Annotations.fromStack(main.stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('the synth fails on an unacknowledged finding', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    const stack = new PortalStack(app, 'ResellerPortal', {
      routes: routes.slice(0, 1),
      siteDist: { member: emptyDir, admin: emptyDir },
    });
    new Bucket(stack, 'UnloggedBucket', { enforceSSL: true });
    addPortalChecks(app);
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it('the pack does run: it finds the acknowledged rules when acknowledgements are ignored', () => {
    const rules = new Set(rawFindings(main.stack).map((f) => f.rule));
    for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-L1', 'AwsSolutions-SMG4', 'AwsSolutions-CFR4']) {
      expect(rules).toContain(rule);
    }
    // The functions run on the latest Node runtime Lambda has: cdk-nag's L1 finds none of them.
    const functionPaths = appFunctions(main.stack).map(({ made }) => made.function.node.path);
    const outdated = rawFindings(main.stack).filter(
      (f) => f.rule === 'AwsSolutions-L1' && functionPaths.some((p) => f.path.startsWith(p)),
    );
    expect(outdated).toEqual([]);
  });

  it('every acknowledgement has a specific reason and silences a finding that exists', () => {
    const findings = rawFindings(main.stack);
    const acks = acknowledgements(main.stack);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(typeof ack.reason === 'string' && ack.reason.trim().length >= 40, `${ack.id} at ${ack.path}`).toBe(true);
      const silenced = findings.filter(
        (f) => f.rule === ack.id && (f.path === ack.path || f.path.startsWith(`${ack.path}/`)),
      );
      expect(silenced, `stale acknowledgement ${ack.id} at ${ack.path}`).not.toEqual([]);
    }
  });

  it('every suppression written into the template metadata carries a reason', () => {
    const suppressions = Object.values(main.resources).flatMap(
      (r) => (r.Metadata?.cdk_nag?.rules_to_suppress ?? []) as { id: string; reason: unknown }[],
    );
    expect(suppressions.length).toBeGreaterThan(0);
    for (const suppression of suppressions) {
      expect(suppression.id).toMatch(/^AwsSolutions-/);
      expect(typeof suppression.reason === 'string' && suppression.reason.trim().length > 0, suppression.id).toBe(true);
    }
  });
});
