import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_CANCEL_MAX_RECEIVES, eventFunctions, routes } from '../../functions/src/routes';
import { addPortalChecks } from '../../infra/lib/checks';
import { PortalStack, repoRoot } from '../../infra/lib/portal-stack';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */

/**
 * The checkout-cancel queue in the stack (issue 38): its dead-letter queue and alarm, the cancel
 * function's event source mapping, and the sends: the ban (in its capability's nested stack) and
 * the cancel function (each next step). Synthesized without bundling; cdk-nag runs and must pass.
 */
const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context;
const cancelFunction = eventFunctions.find((event) => event.name === 'cancelCheckouts')!;
const ban = routes.find((route) => route.name === 'banProduct')!;
let empty = '';
let stack: PortalStack;
let template: Template;

beforeAll(() => {
  empty = mkdtempSync(path.join(tmpdir(), 'portal-cancels-site-'));
  const app = new App({
    context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:failSynthOnValidationErrors': true },
  });
  stack = new PortalStack(app, 'ResellerPortal', {
    routes: [ban],
    eventFunctions: [cancelFunction],
    siteDist: { member: path.join(empty, 'member'), admin: path.join(empty, 'admin') },
  });
  addPortalChecks(app);
  template = Template.fromStack(stack);
});
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(stack).getLogicalId(construct.node.defaultChild as never);

const sendsOf = (resources: Record<string, any>, roleId: string) =>
  Object.values(resources)
    .filter((resource: any) => resource.Type === 'AWS::IAM::Policy')
    .filter((policy: any) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((policy: any) => policy.Properties.PolicyDocument.Statement)
    .filter((statement: any) => [statement.Action].flat().includes('sqs:SendMessage'));

describe('the checkout-cancel queue in the stack', () => {
  it('has a dead-letter queue after 5 receives watched by an alarm, a visibility of 6 × the timeout, encryption', () => {
    const queue = template.findResources('AWS::SQS::Queue')[logicalId(stack.checkoutCancelQueue)] as any;
    expect(queue.Properties).toMatchObject({
      VisibilityTimeout: 6 * cancelFunction.timeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.checkoutCancelDeadLetters), 'Arn'] },
        maxReceiveCount: CHECKOUT_CANCEL_MAX_RECEIVES,
      },
    });
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[
      logicalId(stack.checkoutCancelDeadLettersAlarm)
    ] as any;
    expect(JSON.stringify(alarm.Properties.Dimensions)).toContain(logicalId(stack.checkoutCancelDeadLetters));
    expect(alarm.Properties.AlarmDescription).toMatch(/CheckoutCancelDeadLetters/);
  });

  it('feeds the cancel function a step at a time, with partial failures, its reserved concurrency, and no asynchronous destination', () => {
    const made = stack.eventResources.get('cancelCheckouts')!;
    const fn = template.findResources('AWS::Lambda::Function')[logicalId(made.function)] as any;
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(cancelFunction.reservedConcurrency);
    expect(fn.Properties.Environment.Variables.CHECKOUT_CANCEL_QUEUE_URL).toEqual({
      Ref: logicalId(stack.checkoutCancelQueue),
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(made.function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.checkoutCancelQueue), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: cancelFunction.reservedConcurrency },
    });
    expect(template.findResources('AWS::Lambda::EventInvokeConfig')).toEqual({});
    // It sends each next step to its own queue, and to no other.
    const sends = sendsOf(template.toJSON().Resources, logicalId(made.role));
    expect(sends.map((statement: any) => statement.Resource)).toEqual([
      { 'Fn::GetAtt': [logicalId(stack.checkoutCancelQueue), 'Arn'] },
    ]);
  });

  it('lets the ban (in its nested stack) send the first step, passing the queue as parameters', () => {
    const nested = [...stack.capabilityStacks.values()][0]!;
    const made = stack.routeResources.get('banProduct')!;
    const own = Template.fromStack(nested).toJSON().Resources;
    const fn = own[nested.getLogicalId(made.function.node.defaultChild as never)];
    expect(fn.Properties.Environment.Variables.CHECKOUT_CANCEL_QUEUE_URL).toEqual({ Ref: 'CheckoutCancelQueueUrl' });
    // No Stripe key any more: the ban makes no Stripe call.
    expect(fn.Properties.Environment.Variables.STRIPE_SECRET_KEY_ARN).toBeUndefined();
    const sends = sendsOf(own, nested.getLogicalId(made.role.node.defaultChild as never));
    expect(sends.map((statement: any) => statement.Resource)).toEqual([{ Ref: 'CheckoutCancelQueueArn' }]);
    const parameters = (template.toJSON().Resources as Record<string, any>)[
      stack.getLogicalId(nested.nestedStackResource as never)
    ].Properties.Parameters;
    expect(parameters.CheckoutCancelQueueUrl).toEqual({ Ref: logicalId(stack.checkoutCancelQueue) });
    expect(parameters.CheckoutCancelQueueArn).toEqual({
      'Fn::GetAtt': [logicalId(stack.checkoutCancelQueue), 'Arn'],
    });
  });
});
