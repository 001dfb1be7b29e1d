import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/src/adapters/dynamo-client';

/**
 * DynamoDB faults the local engine never produces, injected into the functions' own client
 * (db()) for one test. Everything else stays real: the document client's marshalling, the
 * request's serialization and signing, the SDK's own retry strategy, and DynamoDB Local for every
 * call that is not made to fail.
 *
 * - `fail`: a DynamoDB error as it comes over the wire (HTTP 400 and a JSON body with `__type`),
 *   answered in place of DynamoDB's. It is injected below the SDK's retry middleware and above
 *   nothing but the HTTP handler, so the SDK's own deserializer builds the error (its name,
 *   CancellationReasons, $metadata) and its retry strategy retries throttling as it would in AWS.
 * - `leaveUnprocessed`: a BatchWriteItem that DynamoDB only partly does: the real engine writes
 *   all but the last `count` requests, which come back as UnprocessedItems.
 * - `before`: runs another write (a real one, through the same engine) just before the command is
 *   sent, so a conditional write loses a real race and DynamoDB Local itself refuses it.
 *
 * A rule picks its sends by command name (the SDK's, e.g. 'TransactWriteItemsCommand'), by which
 * matching send it is (`which`, counting every attempt the SDK makes), and by `when`, a test on the
 * command's input as JSON text: match on ids or e-mail addresses, which appear whether the input is
 * still plain (`before`) or already marshalled (`fail`).
 *
 * aws-sdk-client-mock replaces `send`, so with it the SDK's retry strategy and error
 * deserialization would not run; these faults need both, hence middleware on the real client.
 */

type Input = Record<string, unknown>;

interface Rule {
  command: string;
  /** Which matching sends this rule acts on (1-based); the others pass. */
  times: (n: number) => boolean;
  when?: (input: string) => boolean;
  seen: number;
  action:
    | { kind: 'fail'; type: string; body: Record<string, unknown> }
    | { kind: 'unprocessed'; count: number }
    | { kind: 'before'; run: () => Promise<void> };
}

export interface FaultLog {
  /** Commands answered with an injected error, in order. */
  failed: string[];
  /** For each BatchWriteItem left partly done, how many of its requests came back unprocessed. */
  unprocessed: number[];
}

const ERROR_PREFIX: Record<string, string> = {
  ThrottlingException: 'com.amazon.coral.availability#',
};

function errorBody(type: string, extra: Record<string, unknown>): Uint8Array {
  const prefix = ERROR_PREFIX[type] ?? 'com.amazonaws.dynamodb.v20120810#';
  return new TextEncoder().encode(JSON.stringify({ __type: `${prefix}${type}`, ...extra }));
}

/** The nth matching send (1-based) among `which`: a number, a list, or `'all'`. */
const selector = (which: number | number[] | 'all') => (n: number) =>
  which === 'all' ? true : Array.isArray(which) ? which.includes(n) : n === which;

export class DynamoFaults {
  private readonly rules: Rule[] = [];
  readonly log: FaultLog = { failed: [], unprocessed: [] };
  private readonly client: DynamoDBDocumentClient = db();
  private readonly installed = new Set<string>();

  constructor() {
    // The error is answered below the SDK's retry and deserializer: each retry meets it again.
    this.add('deserialize', 'low', async (commandName, input) => {
      const rule = this.match(commandName, input, (action) => action.kind === 'fail');
      if (rule?.action.kind !== 'fail') return undefined;
      this.log.failed.push(commandName);
      return {
        response: {
          statusCode: rule.action.type === 'InternalServerError' ? 500 : 400,
          reason: 'Bad Request',
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amzn-requestid': `FAULT${this.log.failed.length}`,
          },
          body: errorBody(rule.action.type, rule.action.body),
        },
        output: undefined,
      };
    });
  }

  /** Answer the `which`-th matching `command` (the SDK's name, e.g. 'TransactWriteItemsCommand') with an error. */
  fail(
    command: string,
    type: string,
    options: {
      which?: number | number[] | 'all';
      when?: (input: string) => boolean;
      body?: Record<string, unknown>;
    } = {},
  ): this {
    this.rules.push({
      command,
      times: selector(options.which ?? 1),
      when: options.when,
      seen: 0,
      action: { kind: 'fail', type, body: options.body ?? { message: `Injected ${type}` } },
    });
    return this;
  }

  /** A TransactWriteItems cancelled with these reasons (one per item, in order). */
  cancel(
    codes: string[],
    options: { which?: number | number[] | 'all'; when?: (input: string) => boolean } = {},
  ): this {
    return this.fail('TransactWriteItemsCommand', 'TransactionCanceledException', {
      ...options,
      body: {
        Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
        CancellationReasons: codes.map((Code) => (Code === 'None' ? { Code } : { Code, Message: `Injected ${Code}` })),
      },
    });
  }

  /** The `which`-th matching BatchWriteItem writes all but its last `count` requests and answers them unprocessed. */
  leaveUnprocessed(count: number, which: number | number[] | 'all' = 1, when?: (input: string) => boolean): this {
    if (!this.installed.has('testFaultsUnprocessed')) {
      this.installed.add('testFaultsUnprocessed');
      // Above the serializer: the request sent is the real one minus the held-back writes.
      this.client.middlewareStack.add(
        (next, context) => async (args) => {
          const input = args.input as { RequestItems: Record<string, unknown[]> };
          const rule = this.match(String(context.commandName), input, (action) => action.kind === 'unprocessed');
          if (rule?.action.kind !== 'unprocessed') return next(args);
          this.log.unprocessed.push(rule.action.count);
          const held: Record<string, unknown[]> = {};
          const sent: Record<string, unknown[]> = {};
          let left = rule.action.count;
          for (const [table, requests] of Object.entries(input.RequestItems)) {
            const keep = Math.max(0, requests.length - left);
            left -= requests.length - keep;
            if (keep > 0) sent[table] = requests.slice(0, keep);
            if (keep < requests.length) held[table] = requests.slice(keep);
          }
          const result =
            Object.keys(sent).length > 0
              ? await next({ ...args, input: { ...input, RequestItems: sent } })
              : ({ output: { $metadata: {} }, response: {} } as Awaited<ReturnType<typeof next>>);
          const output = result.output as { UnprocessedItems?: Record<string, unknown[]> };
          return {
            ...result,
            output: { ...output, UnprocessedItems: { ...output.UnprocessedItems, ...held } },
          } as Awaited<ReturnType<typeof next>>;
        },
        { step: 'serialize', priority: 'high', name: 'testFaultsUnprocessed' },
      );
    }
    this.rules.push({
      command: 'BatchWriteItemCommand',
      times: selector(which),
      when,
      seen: 0,
      action: { kind: 'unprocessed', count },
    });
    return this;
  }

  /** Runs `run` just before the `which`-th matching command goes to DynamoDB. */
  before(
    command: string,
    run: () => Promise<void>,
    options: { which?: number; when?: (input: string) => boolean } = {},
  ): this {
    if (!this.installed.has('testFaults-initialize')) {
      this.add('initialize', 'high', async (commandName, input) => {
        const rule = this.match(commandName, input, (action) => action.kind === 'before');
        if (rule?.action.kind === 'before') await rule.action.run();
        return undefined;
      });
    }
    this.rules.push({
      command,
      times: selector(options.which ?? 1),
      when: options.when,
      seen: 0,
      action: { kind: 'before', run },
    });
    return this;
  }

  /** Takes every fault out of the client. */
  restore(): void {
    for (const name of this.installed) this.client.middlewareStack.remove(name);
    this.installed.clear();
    this.rules.length = 0;
  }

  private add(
    step: 'initialize' | 'deserialize',
    priority: 'high' | 'low',
    act: (commandName: string, input: Input) => Promise<{ response: unknown; output: unknown } | undefined>,
  ) {
    const name = `testFaults-${step}`;
    this.installed.add(name);
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const answer = await act(String(context.commandName), args.input as Input);
        return (answer ?? (await next(args))) as Awaited<ReturnType<typeof next>>;
      },
      { step: step as 'deserialize', priority, name },
    );
  }

  private match(commandName: string, input: Input, kind: (action: Rule['action']) => boolean): Rule | undefined {
    for (const rule of this.rules) {
      if (rule.command !== commandName || !kind(rule.action)) continue;
      if (rule.when && !rule.when(JSON.stringify(input))) continue;
      rule.seen += 1;
      if (rule.times(rule.seen)) return rule;
    }
    return undefined;
  }
}
