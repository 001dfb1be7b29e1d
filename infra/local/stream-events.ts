import {
  DescribeStreamCommand,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
  type DynamoDBStreamsClient,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { readFileSync, renameSync } from 'node:fs';
import { writePrivateFile } from './files';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { FunctionTrigger } from './template';

/**
 * A DynamoDB stream → Lambda, locally (decision 0481): what Lambda's event source mapping does for
 * a table's stream, read from DynamoDB Local's own stream through the SDK's streams client. Each
 * shard is read in order, a batch at a time (a parallelization factor of 1: one batch of a shard in
 * flight); records that match none of the mapping's filters are passed over, as Lambda drops them.
 * A batch that throws, or whose handler names a record (ReportBatchItemFailures: its sequence
 * number), comes again from that record; halved first when the mapping bisects; after the retry
 * attempts, or when its oldest record is older than the maximum age, it is handed to `onFailure`
 * (the mapping's on-failure destination) and the shard goes on. Shards are read parent first.
 */
export interface StreamPoller {
  /** Resolves when a read of every shard, begun after the call, found nothing new and no batch is in flight. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** What the on-failure destination is told of a batch given up on (as Lambda's `DDBStreamBatchInfo`). */
export interface StreamBatchFailure {
  condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
  approximateInvokeCount: number;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  streamArn: string;
}

export interface StreamPollOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Records per invocation (the mapping's BatchSize). */
  batchSize?: number;
  /** The mapping's FilterCriteria patterns (JSON): a record is handed over when one matches. */
  filters?: readonly string[];
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  reportBatchItemFailures?: boolean;
  bisectBatchOnError?: boolean;
  /** Tries after the first (-1: until the record is too old). */
  retryAttempts?: number;
  /** -1: as old as the stream keeps (24 hours). */
  maxRecordAgeSeconds?: number;
  onFailure?: (failure: StreamBatchFailure) => Promise<void>;
  /** Between reads of a shard that had nothing new (Lambda reads each shard four times a second). */
  intervalMs?: number;
  /** Before a failed batch is tried again (doubled each time, at most 2 s). */
  retryDelayMs?: number;
  region?: string;
  log?: (line: string) => void;
  /**
   * Where each shard was left, kept across restarts as Lambda's mapping keeps its position (npm
   * start: a file in the data folder): a restart goes on after the last record handed over.
   */
  checkpoints?: StreamCheckpoints;
}

/** A mapping's position in its stream: the last sequence number handed over (or passed over) per shard. */
export interface StreamCheckpoints {
  load(streamArn: string): Record<string, string>;
  save(streamArn: string, positions: Record<string, string>): void;
}

/**
 * Checkpoints in a file of their own (0600, written to a temporary file and renamed over the old
 * one); a file of another stream (a table made again) or one that cannot be read starts afresh.
 */
export function checkpointFile(file: string): StreamCheckpoints {
  return {
    load(streamArn) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as { streamArn?: unknown; positions?: unknown };
        if (saved.streamArn !== streamArn || !saved.positions || typeof saved.positions !== 'object') return {};
        return Object.fromEntries(
          Object.entries(saved.positions).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
      } catch {
        return {};
      }
    },
    save(streamArn, positions) {
      const temporary = `${file}.${process.pid}.tmp`;
      writePrivateFile(temporary, JSON.stringify({ streamArn, positions }));
      renameSync(temporary, file);
    },
  };
}

/** An event source mapping on the table's stream, as the template sets it (template.ts). */
export type StreamMapping = Extract<FunctionTrigger, { kind: 'dynamodb' }>;

/** The mapping's own settings as the poller takes them: what `npm start`, the tests and the bench run. */
export function mappingSettings(
  mapping: StreamMapping,
): Pick<
  StreamPollOptions,
  | 'batchSize'
  | 'filters'
  | 'startingPosition'
  | 'reportBatchItemFailures'
  | 'bisectBatchOnError'
  | 'retryAttempts'
  | 'maxRecordAgeSeconds'
> {
  return {
    batchSize: mapping.batchSize,
    filters: mapping.filters,
    startingPosition: mapping.startingPosition,
    reportBatchItemFailures: mapping.reportBatchItemFailures,
    bisectBatchOnError: mapping.bisectBatchOnError,
    retryAttempts: mapping.retryAttempts,
    maxRecordAgeSeconds: mapping.maxRecordAgeSeconds,
  };
}

/** The message Lambda sends a stream mapping's on-failure destination about a batch it gave up on. */
export function onFailureMessage(failure: StreamBatchFailure, functionName: string): string {
  return JSON.stringify({
    requestContext: { condition: failure.condition, approximateInvokeCount: failure.approximateInvokeCount },
    responseContext: { functionName },
    version: '1.0',
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: {
      shardId: failure.shardId,
      startSequenceNumber: failure.startSequenceNumber,
      endSequenceNumber: failure.endSequenceNumber,
      batchSize: failure.batchSize,
      streamArn: failure.streamArn,
    },
  });
}

type Pattern = Record<string, unknown>;

/** One value of a filter pattern's list against a record's value: equal, or an operator Lambda's filters know. */
function matchesValue(rule: unknown, value: unknown): boolean {
  if (rule === null || typeof rule !== 'object') return value === rule;
  const [operator, operand] = Object.entries(rule as Record<string, unknown>)[0] ?? [];
  switch (operator) {
    case 'prefix':
      return typeof value === 'string' && typeof operand === 'string' && value.startsWith(operand);
    case 'exists':
      return (value !== undefined) === operand;
    case 'anything-but':
      return Array.isArray(operand) ? !operand.includes(value) : value !== operand;
    default:
      throw new Error(`The local stream runs no filter with the operator ${String(operator)}`);
  }
}

/** A Lambda filter pattern against a record (its JSON form): every key's rule holds. */
export function matchesPattern(pattern: Pattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, rule]) => {
    const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(rule)) {
      // `exists: false` holds of an absent value; any other rule needs one.
      return rule.some((one) => matchesValue(one, inner));
    }
    if (rule && typeof rule === 'object') return matchesPattern(rule as Pattern, inner);
    throw new Error(`A filter pattern's ${key} is neither a list of rules nor an object`);
  });
}

/** A record as Lambda hands it to the function (the stream's ARN, the creation time in epoch seconds). */
export function toLambdaRecord(record: StreamRecord, streamArn: string, region: string): DynamoDBRecord {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    ...(record.eventID ? { eventID: record.eventID } : {}),
    ...(record.eventName ? { eventName: record.eventName } : {}),
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ...(record.dynamodb as DynamoDBRecord['dynamodb']),
      ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
    },
    eventSourceARN: streamArn,
  };
}

interface ShardState {
  shard: Shard;
  iterator?: string;
  /** The last record handed over or passed over: where an expired iterator starts again. */
  lastSequence?: string;
  closed: boolean;
}

export function pollStream(options: StreamPollOptions): StreamPoller {
  const { streams, streamArn, handler } = options;
  const region = options.region ?? 'us-east-1';
  const log = options.log ?? (() => undefined);
  const batchSize = options.batchSize ?? 100;
  const patterns = (options.filters ?? []).map((filter) => JSON.parse(filter) as Pattern);
  const retryAttempts = options.retryAttempts ?? -1;
  const maxAgeMs = (options.maxRecordAgeSeconds ?? -1) * 1000;
  const interval = options.intervalMs ?? 250;
  const shards = new Map<string, ShardState>();
  const positions: Record<string, string> = options.checkpoints?.load(streamArn) ?? {};
  let first = true;
  let stopped = false;
  let passes = 0;
  let emptyPass = -1;
  let wake: (() => void) | undefined;

  const matches = (record: DynamoDBRecord) =>
    patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));

  async function describe(): Promise<Shard[]> {
    const found: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
      );
      found.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return found;
  }

  async function iteratorOf(state: ShardState, type: 'TRIM_HORIZON' | 'LATEST'): Promise<string | undefined> {
    try {
      return await shardIterator(state, type);
    } catch (error) {
      // A position older than the stream keeps (24 hours): from the oldest record it has.
      if (!(error instanceof TrimmedDataAccessException) || !state.lastSequence) throw error;
      state.lastSequence = undefined;
      return shardIterator(state, 'TRIM_HORIZON');
    }
  }

  async function shardIterator(state: ShardState, type: 'TRIM_HORIZON' | 'LATEST'): Promise<string | undefined> {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: state.shard.ShardId!,
        ...(state.lastSequence
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.lastSequence }
          : { ShardIteratorType: type }),
      }),
    );
    return ShardIterator;
  }

  async function discover(): Promise<void> {
    for (const shard of await describe()) {
      if (shards.has(shard.ShardId!)) continue;
      const saved = positions[shard.ShardId!];
      const state: ShardState = { shard, closed: false, ...(saved ? { lastSequence: saved } : {}) };
      // Shards open when the mapping starts begin at its starting position; later ones at their start.
      state.iterator = await iteratorOf(state, first ? (options.startingPosition ?? 'TRIM_HORIZON') : 'TRIM_HORIZON');
      shards.set(shard.ShardId!, state);
    }
    first = false;
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function giveUp(
    shardId: string,
    records: DynamoDBRecord[],
    condition: StreamBatchFailure['condition'],
    invokes: number,
  ) {
    const failure: StreamBatchFailure = {
      condition,
      approximateInvokeCount: invokes,
      shardId,
      startSequenceNumber: records[0]!.dynamodb!.SequenceNumber!,
      endSequenceNumber: records.at(-1)!.dynamodb!.SequenceNumber!,
      batchSize: records.length,
      streamArn,
    };
    log(
      `a batch of ${records.length} stream records failed (${condition}); it goes to the on-failure destination and the stream goes on`,
    );
    await options.onFailure?.(failure).catch((error: unknown) => {
      log(`the failed batch could not be sent on: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Hands `records` over until they pass, are given up on, or the poller stops. */
  async function deliver(shardId: string, records: DynamoDBRecord[]): Promise<void> {
    let pending = records;
    let tries = 0;
    while (pending.length > 0 && !stopped) {
      tries += 1;
      let failedFrom = -1;
      try {
        const response = await handler({ Records: pending });
        const named = options.reportBatchItemFailures ? (response?.batchItemFailures ?? []) : [];
        if (named.length === 0) return;
        const indexes = named.map((failure) =>
          pending.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier),
        );
        // Lambda treats an identifier not in the batch as the whole batch failed.
        failedFrom = indexes.some((index) => index < 0) ? 0 : Math.min(...indexes);
      } catch (error) {
        log(`a stream batch failed: ${error instanceof Error ? error.message : String(error)}`);
        failedFrom = 0;
      }
      pending = pending.slice(failedFrom);
      const oldest = pending[0]?.dynamodb?.ApproximateCreationDateTime;
      if (maxAgeMs >= 0 && oldest !== undefined && Date.now() - oldest * 1000 > maxAgeMs) {
        await giveUp(shardId, pending, 'RecordAgeExceeded', tries);
        return;
      }
      if (options.bisectBatchOnError && pending.length > 1) {
        // Halves, each tried on its own with the mapping's retries (a split is not counted as one).
        const half = Math.ceil(pending.length / 2);
        await deliver(shardId, pending.slice(0, half));
        await deliver(shardId, pending.slice(half));
        return;
      }
      if (retryAttempts >= 0 && tries > retryAttempts) {
        await giveUp(shardId, pending, 'RetryAttemptsExhausted', tries);
        return;
      }
      await sleep(Math.min(2_000, (options.retryDelayMs ?? 100) * 2 ** (tries - 1)));
    }
  }

  /** One read of a shard: its new records handed over in batches. Answers how many it read. */
  async function readShard(state: ShardState): Promise<number> {
    if (!state.iterator) return 0;
    let result;
    try {
      result = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 1000 }));
    } catch (error) {
      if (error instanceof ExpiredIteratorException) {
        state.iterator = await iteratorOf(state, 'TRIM_HORIZON');
        return 0;
      }
      if (error instanceof TrimmedDataAccessException) {
        state.lastSequence = undefined;
        state.iterator = await iteratorOf(state, 'TRIM_HORIZON');
        return 0;
      }
      throw error;
    }
    const read = result.Records ?? [];
    const matched = read.map((record) => toLambdaRecord(record, streamArn, region)).filter(matches);
    // Records older than the mapping's maximum age are not handed over: Lambda discards them to
    // the on-failure destination.
    const tooOld = (record: DynamoDBRecord) =>
      maxAgeMs >= 0 && Date.now() - (record.dynamodb?.ApproximateCreationDateTime ?? Infinity) * 1000 > maxAgeMs;
    const expired = matched.filter(tooOld);
    if (expired.length > 0) await giveUp(state.shard.ShardId!, expired, 'RecordAgeExceeded', 0);
    const records = matched.filter((record) => !tooOld(record));
    for (let start = 0; start < records.length; start += batchSize) {
      await deliver(state.shard.ShardId!, records.slice(start, start + batchSize));
    }
    if (read.length > 0) {
      state.lastSequence = read.at(-1)!.dynamodb?.SequenceNumber;
      if (state.lastSequence && options.checkpoints && !stopped) {
        positions[state.shard.ShardId!] = state.lastSequence;
        options.checkpoints.save(streamArn, positions);
      }
    }
    state.iterator = result.NextShardIterator;
    if (!state.iterator) state.closed = true;
    return read.length;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      const pass = ++passes;
      let read = 0;
      try {
        await discover();
        for (const state of shards.values()) {
          const parent = state.shard.ParentShardId ? shards.get(state.shard.ParentShardId) : undefined;
          if (state.closed || (parent && !parent.closed)) continue;
          read += await readShard(state);
        }
      } catch (error) {
        if (stopped) return;
        if (error instanceof ResourceNotFoundException) {
          log(`the table's stream is gone (${streamArn}); its poller stops`);
          return;
        }
        log(`the table's stream could not be read: ${error instanceof Error ? error.message : String(error)}`);
        read = -1;
      }
      if (read === 0) emptyPass = pass;
      if (read <= 0 && !stopped) await sleep(read < 0 ? 1_000 : interval);
    }
  }

  let ended = false;
  const running = run().finally(() => {
    ended = true;
  });

  return {
    async idle() {
      const after = passes;
      while (emptyPass <= after) {
        if (stopped || ended) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
