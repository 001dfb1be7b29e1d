import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventFunctions } from '../../functions/src/routes';
import { LAMBDA_NPM_PLATFORM, lockedVersion, nativeModuleCommands } from '../../infra/lib/bundling';
import { addPortalChecks } from '../../infra/lib/checks';
import { buildDeployedBundles, bundleFolder } from '../../infra/lib/deployed-bundles';
import { PortalStack, repoRoot } from '../../infra/lib/portal-stack';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */

/**
 * Pictures we host (issue 28), in the stack: the images bucket behind CloudFront's `/images/*`
 * (origin access control, cached), the import function's grants on it, and its bundle carrying
 * sharp's linux-arm64 binaries, installed for Lambda's platform whatever machine synthesizes.
 * The import is bundled for real here (the first run installs sharp for linux-arm64 from the npm
 * registry into cdk.out/.native-modules, then reuses it).
 */

const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context;
const importFunction = eventFunctions.find((event) => event.name === 'importProducts')!;
const pictureFunction = eventFunctions.find((event) => event.name === 'hostPictures')!;
const continueFunction = eventFunctions.find((event) => event.name === 'continueImport')!;
let outdir = '';
let empty = '';
let stack: PortalStack;
let template: Template;
let app: App;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'portal-pictures-cdk-'));
  empty = mkdtempSync(path.join(tmpdir(), 'portal-pictures-site-'));
  app = new App({ outdir, context: { ...cdkContext, '@aws-cdk/core:failSynthOnValidationErrors': true } });
  stack = new PortalStack(app, 'ResellerPortal', {
    routes: [],
    eventFunctions: [importFunction, pictureFunction, continueFunction],
    siteDist: { member: path.join(empty, 'member'), admin: path.join(empty, 'admin') },
  });
  addPortalChecks(app);
  template = Template.fromStack(stack);
});
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(stack).getLogicalId(construct.node.defaultChild as never);

describe('hosted pictures in the stack', () => {
  it('CloudFront serves /images/* from the images bucket through origin access control, cached, GET and HEAD only', () => {
    const distribution = template.findResources('AWS::CloudFront::Distribution');
    const config = (Object.values(distribution)[0] as any).Properties.DistributionConfig;
    const behavior = config.CacheBehaviors.find((entry: any) => entry.PathPattern === '/images/*');
    expect(behavior).toMatchObject({
      AllowedMethods: ['GET', 'HEAD'],
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6', // CachingOptimized
    });
    expect(behavior.FunctionAssociations).toBeUndefined();
    const origin = config.Origins.find((entry: any) => entry.Id === behavior.TargetOriginId);
    expect(origin.S3OriginConfig).toBeDefined();
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(JSON.stringify(origin.DomainName)).toContain(logicalId(stack.imagesBucket));
    // The bucket is private: only CloudFront (this distribution) may read it.
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: Match.objectLike({ BlockPublicAcls: true, RestrictPublicBuckets: true }),
    });
    const policies = template.findResources('AWS::S3::BucketPolicy', {
      Properties: { Bucket: { Ref: logicalId(stack.imagesBucket) } },
    });
    const statements = Object.values(policies).flatMap((policy: any) => policy.Properties.PolicyDocument.Statement);
    const read = statements.find((statement: any) => statement.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(read.Action).toBe('s3:GetObject');
    expect(JSON.stringify(read.Condition)).toContain(logicalId(stack.distribution));
  });

  it('the picture queue: a dead-letter queue after 5 receives, a visibility of 6 × the timeout, reserved concurrency, partial batch failures', () => {
    const queue = template.findResources('AWS::SQS::Queue')[logicalId(stack.pictureQueue)] as any;
    expect(queue.Properties.VisibilityTimeout).toBe(6 * pictureFunction.timeoutSeconds);
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.pictureDeadLetters), 'Arn'] },
      maxReceiveCount: 5,
    });
    const made = stack.eventResources.get('hostPictures')!;
    const fn = template.findResources('AWS::Lambda::Function')[logicalId(made.function)] as any;
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(10);
    expect(fn.Properties.Environment.Variables.PICTURE_QUEUE_URL).toEqual({ Ref: logicalId(stack.pictureQueue) });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(made.function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.pictureQueue), 'Arn'] },
      // One message of up to 10 products an invocation.
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    // The import sends to the queue and no longer touches the pictures' bucket.
    const importer = stack.eventResources.get('importProducts')!;
    const importFn = template.findResources('AWS::Lambda::Function')[logicalId(importer.function)] as any;
    expect(importFn.Properties.Environment.Variables.IMAGES_BUCKET).toBeUndefined();
    expect(importFn.Properties.Environment.Variables.PICTURE_QUEUE_URL).toEqual({ Ref: logicalId(stack.pictureQueue) });
    const importRole = logicalId(importer.role);
    const sends = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy: any) => policy.Properties.Roles.some((role: any) => role.Ref === importRole))
      .flatMap((policy: any) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: any) => JSON.stringify(statement.Resource).includes(logicalId(stack.pictureQueue)));
    expect(sends.map((statement: any) => [statement.Action].flat().sort())).toEqual([
      ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
    ]);
  });

  it('the import queue: a long import’s next part, one message at a time; past 3 receives into the failed-events queue', () => {
    const queue = template.findResources('AWS::SQS::Queue')[logicalId(stack.importQueue)] as any;
    // Longer than a part's heartbeat takes to go stale (16 minutes): a dead part's redelivery takes it over.
    expect(queue.Properties.VisibilityTimeout).toBe(18 * 60);
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.failedEvents), 'Arn'] },
      maxReceiveCount: 3,
    });
    const made = stack.eventResources.get('continueImport')!;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(made.function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.importQueue), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // Both parts' functions may send the next part, and read their queue's URL.
    for (const name of ['importProducts', 'continueImport']) {
      const fn = stack.eventResources.get(name)!;
      const props = (template.findResources('AWS::Lambda::Function')[logicalId(fn.function)] as any).Properties;
      expect(props.Environment.Variables.IMPORT_QUEUE_URL).toEqual({ Ref: logicalId(stack.importQueue) });
      expect(props.Timeout).toBe(900);
    }
  });

  it('the picture function gets IMAGES_BUCKET and get/put on its objects, list on the bucket, nothing more', () => {
    const made = stack.eventResources.get('hostPictures')!;
    const fn = template.findResources('AWS::Lambda::Function')[logicalId(made.function)] as any;
    expect(fn.Properties.Environment.Variables.IMAGES_BUCKET).toEqual({ Ref: logicalId(stack.imagesBucket) });
    expect(fn.Properties.Architectures).toEqual(['arm64']);
    expect(fn.Properties.Environment.Variables.PICTURE_FETCH_ALLOWED_ORIGINS).toBeUndefined();
    const roleId = logicalId(made.role);
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy: any) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((policy: any) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: any) => JSON.stringify(statement.Resource).includes(logicalId(stack.imagesBucket)));
    expect(statements.map((statement: any) => [statement.Action].flat())).toEqual([
      ['s3:GetObject', 's3:PutObject'],
      ['s3:ListBucket'],
    ]);
  });

  it('the installing commands name the locked versions for linux-arm64 with glibc', () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
    expect(pictureFunction.nativeModules).toEqual(['sharp']);
    expect(importFunction.nativeModules).toBeUndefined();
    const commands = nativeModuleCommands([`sharp@${lockedVersion(lock, 'sharp')}`], '/out dir', '/cache');
    expect(commands.join('\n')).toContain(`${LAMBDA_NPM_PLATFORM.join(' ')} 'sharp@${lockedVersion(lock, 'sharp')}'`);
    expect(LAMBDA_NPM_PLATFORM).toEqual(['--os=linux', '--cpu=arm64', '--libc=glibc']);
    expect(commands.at(-1)).toBe("cp -R '/cache'/node_modules '/out dir'/node_modules");
  });

  it("the picture function's bundle leaves sharp out of index.js and carries sharp with its linux-arm64 binaries only", () => {
    const made = stack.eventResources.get('hostPictures')!;
    const fn = template.findResources('AWS::Lambda::Function')[logicalId(made.function)] as any;
    const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
    const asset = path.join(outdir, `asset.${hash}`);
    expect(existsSync(path.join(asset, 'index.js'))).toBe(true);
    const code = readFileSync(path.join(asset, 'index.js'), 'utf8');
    // Loaded at run time from node_modules (a boolean: the bundle is too long for a failure message).
    expect(/(?:require|import)\("sharp"\)/.test(code)).toBe(true);
    expect(code.includes('sharp-libvips')).toBe(false);
    const modules = path.join(asset, 'node_modules');
    expect(JSON.parse(readFileSync(path.join(modules, 'sharp', 'package.json'), 'utf8')).version).toBe(
      lockedVersion(JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')), 'sharp'),
    );
    const platforms = readdirSync(path.join(modules, '@img')).filter((name) => name.startsWith('sharp-'));
    expect(platforms.sort()).toEqual(['sharp-libvips-linux-arm64', 'sharp-linux-arm64']);
    expect(existsSync(path.join(modules, '@img', 'sharp-linux-arm64', 'lib', 'sharp-linux-arm64.node'))).toBe(true);
  });

  it('the CDK bundles each function byte for byte as deployed-bundles.ts does (the bundles the handler tests and the stack test read)', async () => {
    const built = mkdtempSync(path.join(tmpdir(), 'portal-pictures-bundles-'));
    try {
      const specs = [importFunction, pictureFunction, continueFunction];
      await buildDeployedBundles(
        built,
        specs.map((spec) => spec.module),
      );
      for (const spec of specs) {
        const made = stack.eventResources.get(spec.name)!;
        const fn = template.findResources('AWS::Lambda::Function')[logicalId(made.function)] as any;
        const asset = path.join(outdir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
        for (const file of ['index.js', 'index.js.map']) {
          const ours = readFileSync(path.join(built, bundleFolder(spec.module), file), 'utf8');
          expect(ours.length, `${spec.name} ${file}`).toBeGreaterThan(1000);
          // a boolean: the bundles are too long for a failure message
          expect(ours === readFileSync(path.join(asset, file), 'utf8'), `${spec.name} ${file}`).toBe(true);
        }
      }
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });
});
