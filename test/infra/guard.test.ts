import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, BlockPublicAccess, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPortalChecks } from '../../infra/lib/checks';
import {
  PortalGuardChecks,
  assemblyTemplates,
  describeViolation,
  guardAssembly,
  runGuard,
} from '../../infra/lib/guard';
import { PortalStack, repoRoot } from '../../infra/lib/portal-stack';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */
type Template = { Resources: Record<string, any> };

/** The feature flags of cdk.json, so the test synthesizes what `npm run synth` does. */
const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context;

let work: string;
let outdir: string;
/** The real assembly's templates by file name. */
let templates: Map<string, Template>;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'portal-guard-'));
  outdir = path.join(work, 'cdk.out');
  // The real stack, unbundled (`bundle: false` in stack.test.ts), with the checks `npm run synth` runs;
  // a finding of cdk-nag or of cfn-guard throws here.
  const app = new App({
    outdir,
    context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:failSynthOnValidationErrors': true },
  });
  new PortalStack(app, 'ResellerPortal', {
    siteDist: { member: path.join(work, 'none'), admin: path.join(work, 'none') },
    mail: { from: 'Reseller Portal <no-reply@portal.example>' },
  });
  addPortalChecks(app);
  app.synth();
  templates = new Map(
    assemblyTemplates(outdir).map((file) => [path.basename(file), JSON.parse(readFileSync(file, 'utf8'))]),
  );
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The portal stack's own template, and the nested template holding the calls of a capability. */
const mainName = 'ResellerPortal.template.json';
const nestedName = (capability: string): string => {
  const name = [...templates.keys()].find((n) => n.startsWith(`ResellerPortal${capability}Calls`));
  expect(name, capability).toBeDefined();
  return name!;
};
/** The logical id of the only resource of a type (and description prefix) in a template. */
function idOf(template: Template, type: string, where: (r: any) => boolean = () => true): string {
  const ids = Object.entries(template.Resources)
    .filter(([, r]) => r.Type === type && where(r))
    .map(([id]) => id);
  expect(ids.length, `${type} in the template`).toBeGreaterThan(0);
  return ids[0]!;
}
const fnFor = (t: Template, name: string): string =>
  idOf(t, 'AWS::Lambda::Function', (r) => String(r.Properties.Description ?? '').startsWith(`${name}: `));

/**
 * The real templates with one change, written to a folder, checked by the runner the synth uses.
 * Only the templates the change touched go to cfn-guard: the others are the real ones, which the
 * first test checks whole (cfn-guard takes about half a second a template here, and a case left
 * seven to it; decision 0400).
 */
function guardWith(change: (templates: Map<string, Template>) => void) {
  const copy = new Map([...templates].map(([name, t]) => [name, structuredClone(t)]));
  change(copy);
  const dir = mkdtempSync(path.join(work, 'changed-'));
  const files = [...copy]
    .filter(([name, t]) => JSON.stringify(t) !== JSON.stringify(templates.get(name)))
    .map(([name, t]) => {
      writeFileSync(path.join(dir, name), JSON.stringify(t));
      return path.join(dir, name);
    });
  expect(files, 'the change touches a template').not.toEqual([]);
  return runGuard(files);
}

describe('cfn-guard rules (infra/guard)', () => {
  it('checks every template of the assembly, the nested stacks included, and the real stack passes every rule', () => {
    expect([...templates.keys()]).toContain(mainName);
    expect([...templates.keys()].filter((n) => n.endsWith('.nested.template.json'))).toHaveLength(6);
    expect(guardAssembly(outdir).map(describeViolation)).toEqual([]);
  });

  const main = (t: Map<string, Template>): Template => t.get(mainName)!;
  const table = (t: Map<string, Template>): any => main(t).Resources[idOf(main(t), 'AWS::DynamoDB::Table')];
  const bucket = (t: Map<string, Template>, prefix: string): [string, any] => {
    const id = idOf(main(t), 'AWS::S3::Bucket', () => true);
    const named = Object.keys(main(t).Resources).find((k) => k.startsWith(prefix)) ?? id;
    return [named, main(t).Resources[named]];
  };

  /** One change per way a rule can break: the rule, the resource it must name, the template. */
  const cases: {
    name: string;
    rule: string;
    change: (t: Map<string, Template>) => void;
    resource: (t: Map<string, Template>) => string;
    template?: () => string;
  }[] = [
    {
      name: 'the table without DeletionPolicy Retain',
      rule: 'PORTAL_TABLE_RETAINED',
      change: (t) => delete table(t).DeletionPolicy,
      resource: (t) => idOf(main(t), 'AWS::DynamoDB::Table'),
    },
    {
      name: 'the table with UpdateReplacePolicy Delete',
      rule: 'PORTAL_TABLE_RETAINED',
      change: (t) => (table(t).UpdateReplacePolicy = 'Delete'),
      resource: (t) => idOf(main(t), 'AWS::DynamoDB::Table'),
    },
    {
      name: 'the table without deletion protection',
      rule: 'PORTAL_TABLE_DELETION_PROTECTION',
      change: (t) => (table(t).Properties.DeletionProtectionEnabled = false),
      resource: (t) => idOf(main(t), 'AWS::DynamoDB::Table'),
    },
    {
      name: 'the table without point-in-time recovery',
      rule: 'PORTAL_TABLE_POINT_IN_TIME_RECOVERY',
      change: (t) => delete table(t).Properties.PointInTimeRecoverySpecification,
      resource: (t) => idOf(main(t), 'AWS::DynamoDB::Table'),
    },
    ...(['BlockPublicAcls', 'BlockPublicPolicy', 'IgnorePublicAcls', 'RestrictPublicBuckets'] as const).map(
      (setting) => ({
        name: `the images bucket with ${setting} false`,
        rule: 'PORTAL_BUCKET_BLOCKS_PUBLIC_ACCESS',
        change: (t: Map<string, Template>) =>
          (bucket(t, 'ImagesBucket')[1].Properties.PublicAccessBlockConfiguration[setting] = false),
        resource: (t: Map<string, Template>) => bucket(t, 'ImagesBucket')[0],
      }),
    ),
    {
      name: 'the imports bucket without encryption',
      rule: 'PORTAL_BUCKET_ENCRYPTED',
      change: (t) => delete bucket(t, 'ImportsBucket')[1].Properties.BucketEncryption,
      resource: (t) => bucket(t, 'ImportsBucket')[0],
    },
    {
      name: 'the imports bucket without its bucket policy',
      rule: 'PORTAL_BUCKET_TLS_ONLY',
      change: (t) => {
        const [id] = bucket(t, 'ImportsBucket');
        const policy = idOf(main(t), 'AWS::S3::BucketPolicy', (r) => r.Properties.Bucket.Ref === id);
        delete main(t).Resources[policy];
      },
      resource: (t) => bucket(t, 'ImportsBucket')[0],
    },
    {
      name: 'the imports bucket policy without its deny of requests without TLS',
      rule: 'PORTAL_BUCKET_TLS_ONLY',
      change: (t) => {
        const [id] = bucket(t, 'ImportsBucket');
        const policy = main(t).Resources[idOf(main(t), 'AWS::S3::BucketPolicy', (r) => r.Properties.Bucket.Ref === id)];
        policy.Properties.PolicyDocument.Statement = policy.Properties.PolicyDocument.Statement.filter(
          (s: any) => !s.Condition?.Bool?.['aws:SecureTransport'],
        );
      },
      resource: (t) => {
        const [id] = bucket(t, 'ImportsBucket');
        return idOf(main(t), 'AWS::S3::BucketPolicy', (r) => r.Properties.Bucket.Ref === id);
      },
    },
    {
      name: 'the images bucket policy allowing, not denying, requests without TLS',
      rule: 'PORTAL_BUCKET_TLS_ONLY',
      change: (t) => {
        const [id] = bucket(t, 'ImagesBucket');
        const policy = main(t).Resources[idOf(main(t), 'AWS::S3::BucketPolicy', (r) => r.Properties.Bucket.Ref === id)];
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          if (statement.Condition?.Bool?.['aws:SecureTransport']) statement.Effect = 'Allow';
        }
      },
      resource: (t) => {
        const [id] = bucket(t, 'ImagesBucket');
        return idOf(main(t), 'AWS::S3::BucketPolicy', (r) => r.Properties.Bucket.Ref === id);
      },
    },
    ...['importProducts', 'dailyPayouts'].map((name) => ({
      name: `${name} (asynchronous) without its on-failure destination`,
      rule: 'PORTAL_ASYNC_FUNCTION_FAILURE_DESTINATION',
      change: (t: Map<string, Template>) => {
        const fn = fnFor(main(t), name);
        delete main(t).Resources[
          idOf(main(t), 'AWS::Lambda::EventInvokeConfig', (r) => r.Properties.FunctionName.Ref === fn)
        ];
      },
      resource: (t: Map<string, Template>) => fnFor(main(t), name),
    })),
    {
      name: 'a function reading an SQS queue that has no dead-letter queue',
      rule: 'PORTAL_EVENT_SOURCE_FAILURE_DESTINATION',
      change: (t) => {
        main(t).Resources.UndeadQueue = { Type: 'AWS::SQS::Queue', Properties: {} };
        main(t).Resources.UndeadMapping = {
          Type: 'AWS::Lambda::EventSourceMapping',
          Properties: {
            FunctionName: { Ref: fnFor(main(t), 'importProducts') },
            EventSourceArn: { 'Fn::GetAtt': ['UndeadQueue', 'Arn'] },
          },
        };
      },
      resource: () => 'UndeadQueue',
    },
    {
      name: 'an API function (login, in a nested stack) with a 30 s timeout',
      rule: 'PORTAL_API_FUNCTION_TIMEOUT',
      change: (t) => {
        const nested = t.get(nestedName('Auth'))!;
        nested.Resources[loginId(nested)].Properties.Timeout = 30;
      },
      resource: (t) => loginId(t.get(nestedName('Auth'))!),
      template: () => nestedName('Auth'),
    },
    {
      name: "a function's log group (in a nested stack) without a retention",
      rule: 'PORTAL_LOG_GROUP_RETENTION',
      change: (t) => {
        const nested = t.get(nestedName('Sales'))!;
        delete nested.Resources[idOf(nested, 'AWS::Logs::LogGroup')].Properties.RetentionInDays;
      },
      resource: (t) => idOf(t.get(nestedName('Sales'))!, 'AWS::Logs::LogGroup'),
      template: () => nestedName('Sales'),
    },
    {
      name: 'a function without its log group',
      rule: 'PORTAL_FUNCTION_LOG_GROUP',
      change: (t) => delete main(t).Resources[fnFor(main(t), 'dailyPayouts')].Properties.LoggingConfig,
      resource: (t) => fnFor(main(t), 'dailyPayouts'),
    },
  ];
  function loginId(nested: Template): string {
    return idOf(nested, 'AWS::Lambda::Function', (r) => / \/api\/login /.test(` ${r.Properties.Description} `));
  }

  it('has a breaking case below for every rule of infra/guard', () => {
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(new PortalGuardChecks().ruleIds));
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s fails, naming the rule and the resource', (_name, c) => {
    const violations = guardWith(c.change);
    const expected = c.resource(templates);
    const template = c.template?.() ?? mainName;
    expect(violations.map(describeViolation)).toEqual([
      expect.stringMatching(new RegExp(`^${c.rule}: ${expected} in ${template.replace(/\./g, '\\.')}: \\S.+`)),
    ]);
  });

  it('takes a dead-letter queue, or a log group named /aws/lambda/<function>, as the rules say', () => {
    const violations = guardWith((t) => {
      const fn = fnFor(main(t), 'importProducts');
      delete main(t).Resources[
        idOf(main(t), 'AWS::Lambda::EventInvokeConfig', (r) => r.Properties.FunctionName.Ref === fn)
      ];
      main(t).Resources[fn].Properties.DeadLetterConfig = { TargetArn: { 'Fn::GetAtt': ['SomeQueue', 'Arn'] } };
      delete main(t).Resources[fn].Properties.LoggingConfig;
      main(t).Resources.NamedLogs = {
        Type: 'AWS::Logs::LogGroup',
        Properties: { LogGroupName: { 'Fn::Join': ['', ['/aws/lambda/', { Ref: fn }]] }, RetentionInDays: 30 },
      };
    });
    expect(violations.map(describeViolation)).toEqual([]);
  });
});

describe('at synth (the CDK plugin)', () => {
  /** A small app with the portal checks; `build` adds what breaks a rule. */
  function synthFails(build: (stack: Stack) => void): string {
    const app = new App({ outdir: mkdtempSync(path.join(work, 'small-')), context: { ...cdkContext } });
    const stack = new Stack(app, 'Small');
    build(stack);
    addPortalChecks(app);
    try {
      app.synth();
    } catch (error) {
      return String((error as Error).message);
    }
    throw new Error('the synth passed');
  }

  it('fails the synth on a bucket without TLS-only access, naming the rule, the bucket and the template', () => {
    const message = synthFails((stack) => {
      new Bucket(stack, 'OpenBucket', {
        encryption: BucketEncryption.S3_MANAGED,
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      });
    });
    expect(message).toMatch(
      /PORTAL_BUCKET_TLS_ONLY: OpenBucket\w+ in Small\.template\.json: The bucket must have a bucket policy/,
    );
  });

  it('fails the synth on a rule broken inside a nested stack, naming the nested template', () => {
    const message = synthFails((stack) => {
      const nested = new NestedStack(stack, 'Calls');
      const fn = new LambdaFunction(nested, 'SlowCall', {
        runtime: Runtime.NODEJS_24_X,
        handler: 'index.handler',
        code: Code.fromInline('exports.handler = async () => ({})'),
        timeout: Duration.seconds(60),
        logGroup: new LogGroup(nested, 'SlowCallLogs', { retention: RetentionDays.ONE_MONTH }),
      });
      fn.addPermission('FromApi', { principal: new ServicePrincipal('apigateway.amazonaws.com') });
    });
    expect(message).toMatch(
      /PORTAL_API_FUNCTION_TIMEOUT: SlowCall\w+ in SmallCalls\w+\.nested\.template\.json: The function behind the HTTP API must time out within 29 s/,
    );
  });
});
