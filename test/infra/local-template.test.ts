import { beforeAll, describe, expect, it } from 'vitest';
import {
  CHECKOUT_CANCEL_MAX_RECEIVES,
  eventFunctions,
  PICTURE_MAX_RECEIVES,
  routes,
  secretEnv,
} from '../../functions/src/routes';
import {
  LOCAL_MAIL_FROM,
  localContexts,
  functionRole,
  localFunctions,
  synthesizeTemplates,
  templateInputsHash,
  templateQueues,
  TEST_TEMPLATE_CACHE,
  withTrigger,
  type LocalFunction,
  type SynthesizedTemplates,
} from '../../infra/local/template';

/**
 * The local runtime reads what runs back from the synthesized stack (infra/local/template.ts): each
 * function's handler module, memory, timeout, environment and triggers are those of the template,
 * and the template is the route table's (the stack is built from it).
 */
let templates: SynthesizedTemplates;
let functions: LocalFunction[];
const local = {
  tableName: 'local-table',
  buckets: { ImportsBucket: 'local-imports', ImagesBucket: 'local-images' },
  secrets: { TOKEN_SIGNING_KEY: 'signing-key', STRIPE_SECRET_KEY: 'sk_test_local' },
  siteUrl: 'http://localhost:3999',
  region: 'us-east-1',
  queues: {
    PictureQueue: {
      url: 'http://127.0.0.1:9324/000000000000/local-PictureQueue',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-PictureQueue',
    },
    PictureDeadLetters: {
      url: 'http://127.0.0.1:9324/000000000000/local-PictureDeadLetters',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-PictureDeadLetters',
    },
    CheckoutCancelQueue: {
      url: 'http://127.0.0.1:9324/000000000000/local-CheckoutCancelQueue',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-CheckoutCancelQueue',
    },
    CheckoutCancelDeadLetters: {
      url: 'http://127.0.0.1:9324/000000000000/local-CheckoutCancelDeadLetters',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-CheckoutCancelDeadLetters',
    },
    ImportQueue: {
      url: 'http://127.0.0.1:9324/000000000000/local-ImportQueue',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-ImportQueue',
    },
    FailedEvents: {
      url: 'http://127.0.0.1:9324/000000000000/local-FailedEvents',
      arn: 'arn:aws:sqs:us-east-1:000000000000:local-FailedEvents',
    },
  },
};

beforeAll(async () => {
  templates = (await synthesizeTemplates({ cacheDir: TEST_TEMPLATE_CACHE, contexts: localContexts({ env: {} }) }))
    .templates;
  functions = localFunctions(templates, local);
});

const byName = (name: string): LocalFunction => {
  const found = functions.find((fn) => fn.name === name);
  if (!found) throw new Error(`no function ${name} in the template`);
  return found;
};

describe('the local runtime’s view of the synthesized stack', () => {
  it('has every route as a function with its handler module, memory, timeout and POST route', () => {
    const api = withTrigger(functions, 'api');
    expect(api).toHaveLength(routes.length);
    for (const route of routes) {
      const fn = byName(route.name);
      expect(fn).toMatchObject({
        module: route.module,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
      });
      expect(fn.handler).toBe('index.handler');
      expect(fn.triggers).toEqual([
        { kind: 'api', method: 'POST', path: route.path, routeLogicalId: expect.any(String) as string },
      ]);
    }
  });

  it('has the event functions with the imports bucket’s notification, the daily schedule and the deploy trigger', () => {
    expect(functions).toHaveLength(routes.length + eventFunctions.length);
    for (const event of eventFunctions) {
      expect(byName(event.name)).toMatchObject({
        module: event.module,
        memoryMb: event.memoryMb,
        timeoutSeconds: event.timeoutSeconds,
      });
    }
    expect(byName('importProducts').triggers).toEqual([
      { kind: 's3', bucket: 'ImportsBucket', events: ['s3:ObjectCreated:*'] },
    ]);
    expect(byName('dailyPayouts').triggers).toEqual([
      { kind: 'schedule', expression: 'cron(0 0 * * ? *)', ruleLogicalId: expect.any(String) as string },
    ]);
    expect(byName('upgradeTable').triggers).toEqual([
      { kind: 'afterDeploy', triggerLogicalId: expect.any(String) as string },
    ]);
    // The picture queue's event source mapping (issue 38): its batch, its partial failures, and the
    // function's reserved concurrency, as the route table sets them.
    const pictures = eventFunctions.find((event) => event.trigger === 'pictureQueue')!;
    expect(byName('hostPictures').triggers).toEqual([
      {
        kind: 'sqs',
        queue: 'PictureQueue',
        batchSize: pictures.batchSize,
        maxConcurrency: Math.max(2, pictures.reservedConcurrency!),
        reportBatchItemFailures: true,
        mappingLogicalId: expect.any(String) as string,
      },
    ]);
    expect(byName('hostPictures').reservedConcurrency).toBe(pictures.reservedConcurrency);
    // The checkout-cancel queue's (issue 38): a step a batch, five at a time.
    const cancels = eventFunctions.find((event) => event.trigger === 'checkoutCancelQueue')!;
    expect(byName('cancelCheckouts').triggers).toEqual([
      {
        kind: 'sqs',
        queue: 'CheckoutCancelQueue',
        batchSize: 1,
        maxConcurrency: Math.max(2, cancels.reservedConcurrency!),
        reportBatchItemFailures: true,
        mappingLogicalId: expect.any(String) as string,
      },
    ]);
    expect(byName('cancelCheckouts').reservedConcurrency).toBe(cancels.reservedConcurrency);
    expect(byName('importProducts').reservedConcurrency).toBeUndefined();
    // A long import's next parts: one message at a time, from the import queue.
    expect(byName('continueImport').triggers).toEqual([
      {
        kind: 'sqs',
        queue: 'ImportQueue',
        batchSize: 1,
        maxConcurrency: 2,
        reportBatchItemFailures: true,
        mappingLogicalId: expect.any(String) as string,
      },
    ]);
    // The table stream's mapping (decision 0481): the places function on the earnings shards' writes.
    expect(byName('refreshPlaces').triggers).toEqual([
      {
        kind: 'dynamodb',
        table: 'Table',
        batchSize: 100,
        filters: [JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'EARNINGS#' }] } } } })],
        startingPosition: 'TRIM_HORIZON',
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAgeSeconds: 3600,
        onFailureQueue: 'FailedEvents',
        mappingLogicalId: expect.any(String) as string,
      },
    ]);
  });

  it('has the stack’s queues, the dead-letter queue first, with the visibility timeout and redrive of the stack', () => {
    const pictures = eventFunctions.find((event) => event.trigger === 'pictureQueue')!;
    expect(templateQueues(templates).filter((queue) => queue.name.startsWith('Picture'))).toEqual([
      { name: 'PictureDeadLetters', logicalId: expect.any(String) as string, visibilitySeconds: 30 },
      {
        name: 'PictureQueue',
        logicalId: expect.any(String) as string,
        visibilitySeconds: 6 * pictures.timeoutSeconds,
        deadLetter: { queue: 'PictureDeadLetters', maxReceiveCount: PICTURE_MAX_RECEIVES },
      },
    ]);
    const cancels = eventFunctions.find((event) => event.trigger === 'checkoutCancelQueue')!;
    expect(templateQueues(templates).filter((queue) => queue.name.startsWith('CheckoutCancel'))).toEqual([
      { name: 'CheckoutCancelDeadLetters', logicalId: expect.any(String) as string, visibilitySeconds: 30 },
      {
        name: 'CheckoutCancelQueue',
        logicalId: expect.any(String) as string,
        visibilitySeconds: 6 * cancels.timeoutSeconds,
        deadLetter: { queue: 'CheckoutCancelDeadLetters', maxReceiveCount: CHECKOUT_CANCEL_MAX_RECEIVES },
      },
    ]);
  });

  it('names each function’s role, a role of its own stack (what the IAM evaluation reads)', () => {
    const roles = new Set<string>();
    for (const fn of functions) {
      const stack = fn.stack === templates.stackName ? templates.root : templates.nested[fn.stack]!;
      expect(stack.Resources[fn.roleLogicalId]?.Type).toBe('AWS::IAM::Role');
      roles.add(`${fn.stack}/${fn.roleLogicalId}`);
    }
    expect(roles.size).toBe(functions.length);
    // Its policies: a read-only call's grants no table write, a writing call's does.
    const actions = (name: string) =>
      functionRole(templates, byName(name)).policies.flatMap(({ resource }) =>
        (resource.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap(
          (statement) => statement.Action,
        ),
      );
    expect(actions('getOrders')).toContain('dynamodb:Query');
    expect(actions('getOrders')).not.toContain('dynamodb:PutItem');
    expect(actions('markAsShipped')).toContain('dynamodb:PutItem');
  });

  it('gives a function only the variables its stack sets, resolved to the local table, buckets, secrets and origin', () => {
    for (const route of [...routes, ...eventFunctions]) {
      const { environment } = byName(route.name);
      expect(environment.TABLE_NAME).toBe('local-table');
      expect(environment.IMPORTS_BUCKET).toBe(route.access.importsBucket ? 'local-imports' : undefined);
      expect(environment.IMAGES_BUCKET).toBe(route.access.imagesBucket ? 'local-images' : undefined);
      expect(environment.MAIL_FROM).toBe(route.access.mail ? LOCAL_MAIL_FROM : undefined);
      for (const [name, variable] of Object.entries(secretEnv)) {
        // A secret's ARN becomes its local value; a secret the function is not granted is not there.
        const granted = route.access.secrets.includes(name as never);
        expect(environment[`${variable}_ARN`]).toBeUndefined();
        expect(environment[variable]).toBe(granted ? (local.secrets as Record<string, string>)[variable] : undefined);
      }
    }
    // The functions that mail link to the portal: the distribution's origin in the stack, the local one here.
    expect(byName('signup').environment.SITE_URL).toBe('http://localhost:3999');
    expect(byName('getOrders').environment.SITE_URL).toBeUndefined();
    // The picture queue's URL (its Ref, a nested stack's parameter followed) is the local queue's.
    for (const route of [...routes, ...eventFunctions]) {
      expect(byName(route.name).environment.PICTURE_QUEUE_URL).toBe(
        route.access.pictureQueue ? local.queues.PictureQueue.url : undefined,
      );
      expect(byName(route.name).environment.CHECKOUT_CANCEL_QUEUE_URL).toBe(
        route.access.checkoutCancelQueue ? local.queues.CheckoutCancelQueue.url : undefined,
      );
      expect(byName(route.name).environment.IMPORT_QUEUE_URL).toBe(
        route.access.importQueue ? local.queues.ImportQueue.url : undefined,
      );
    }
  });

  it('comes from the cache while its inputs are unchanged; another setting is another synth', async () => {
    const again = await synthesizeTemplates({ cacheDir: TEST_TEMPLATE_CACHE, contexts: localContexts({ env: {} }) });
    expect(again.synthMs).toBeUndefined();
    expect(again.templates).toEqual(templates);
    const settings = localContexts({ env: { COMMISSION_HOLD_DAYS: '0' } });
    expect(settings.commissionHoldDays).toBe('0');
    expect(templateInputsHash(settings)).not.toBe(templateInputsHash(localContexts({ env: {} })));
  });
});
