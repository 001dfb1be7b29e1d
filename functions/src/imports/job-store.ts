import type { ImportIssue, ImportJob } from '@portal/shared/api/products';
import type { RejectedRows } from './rejected-rows';

export interface ImportJobRecord extends ImportJob {
  bucket: string;
  key: string;
  /** Incremented by each run; a run only finishes the job it claimed. */
  attempt: number;
  heartbeatAt: string | null;
  /** Epoch seconds: set while the job waits for its file, removed when an import claims it. */
  expiresAt?: number;
  /** Where the next part of a long import starts (written by the part before it); absent for one part. */
  checkpoint?: ImportCheckpoint;
}

/**
 * A long import stops before its function's time runs out and a later invocation (its next part)
 * goes on from here: the file's byte and line after the last row written, what the next part needs
 * of the validation, and the counts so far (restored if a part dies and is run again).
 */
export interface ImportCheckpoint {
  /** The part that continues from here (2 for the checkpoint the first part writes). */
  part: number;
  from: { byte: number; line: number };
  /** The header's cells as in the file. */
  header: string[];
  /** Rows after `from` that a later row with the same spu_no replaced: gaps between them, base 36, comma-separated. */
  replaced: string;
  /** Products left to import from `from`. */
  remaining: number;
  /** The version of the file every part reads (If-Match). */
  eTag: string | null;
  counters: ImportCounters & { rowsDone: number };
}

/** The message that starts a long import's next part (one per part; a redelivered one does nothing). */
export interface ImportContinuation {
  jobId: string;
  attempt: number;
  part: number;
}

/** The queue of continuations: SQS in AWS, the local SQS under npm start. */
export interface ImportContinuations {
  send(message: ImportContinuation): Promise<void>;
}

export type ImportCounters = Pick<
  ImportJob,
  'rowsRead' | 'created' | 'updated' | 'unchanged' | 'rejected' | 'banned' | 'warnings'
>;

export interface ImportJobRepository {
  /** Records a job for a file about to be stored, before its S3 event can arrive. */
  create(job: ImportJobRecord): Promise<void>;
  get(id: string): Promise<ImportJobRecord | undefined>;
  /**
   * Claims the job for a run: true for a job that is queued, failed, unknown (created from the
   * event), or running with a heartbeat older than `staleBefore` (its run died). A completed or
   * rejected job, or one another run is working on, is not claimed: a redelivered event imports once.
   */
  claim(
    job: Pick<ImportJobRecord, 'id' | 'fileName' | 'bucket' | 'key'>,
    now: string,
    staleBefore: string,
  ): Promise<number | null>;
  progress(id: string, attempt: number, update: Partial<ImportJobRecord>): Promise<void>;
  /**
   * Ends part `checkpoint.part - 1` of the run `attempt`: stores the checkpoint and the counts, and
   * counts the next part as started, on the condition that this part is still the job's latest.
   * False when it is not (another run took the job over).
   */
  checkpoint(id: string, attempt: number, checkpoint: ImportCheckpoint, now: string): Promise<boolean>;
  /**
   * Claims part `part` of the run `attempt` for this invocation: the job is that run's, it is at
   * that part, and no live invocation is running it (none yet, or its heartbeat is older than
   * `staleBefore`, or it failed and its message came back). Answers the job with its checkpoint, or
   * null: a redelivered message, or one for a part already done, does nothing.
   */
  claimPart(
    id: string,
    attempt: number,
    part: number,
    now: string,
    staleBefore: string,
  ): Promise<ImportJobRecord | null>;
  finish(id: string, attempt: number, update: Partial<ImportJobRecord>): Promise<void>;
  /** Stores issues in order, numbered from `from` (0: the validation's; after them, the pictures' warnings). */
  putIssues(id: string, issues: readonly ImportIssue[], from?: number): Promise<void>;
  /** Deletes the issues and rows an earlier run of the job stored (a re-run of a replaced file has others). */
  clearIssuesAndRows(id: string): Promise<void>;
  /**
   * The catalogue write lease: the one import run that may create products, so that it creates
   * them with plain BatchWrites (no condition) on states it read while holding the lease. Taken by
   * this job's run (`attempt`) when nobody holds it, when this job held it (an earlier attempt of
   * the same job, which the claim has already taken over), or when the holder's heartbeat is older
   * than `staleBefore`. Answers null when taken, or the id of the job whose run holds it.
   */
  takeLease(id: string, attempt: number, now: string, staleBefore: string): Promise<string | null>;
  /** Writes the holder's heartbeat; throws LeaseLostError when another run has taken the lease. */
  renewLease(id: string, attempt: number, now: string): Promise<void>;
  /** Gives the lease up, if this run still holds it. */
  releaseLease(id: string, attempt: number): Promise<void>;
  /** The rows with errors or warnings, as the file holds them (overwrites a previous run's). */
  /** The rows with errors or warnings, as the file holds them (overwrites a previous run's). */
  putRejectedRows(id: string, rows: RejectedRows): Promise<void>;
  /** undefined for a job whose rows were not kept (imported before rows were kept, or not yet validated). */
  rejectedRows(id: string): Promise<RejectedRows | undefined>;
  issues(
    id: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: ImportIssue[]; nextCursor: string | null }>;
}

/** The stored object is not the version asked for: the file was replaced since its event was sent. */
export class FileChangedError extends Error {
  constructor(key: string) {
    super(`${key} was replaced since the import started`);
    this.name = 'FileChangedError';
  }
}

/** Another run took the catalogue write lease: this run was taken for dead and must not write products. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`Import ${id} lost the catalogue write lease to another run`);
    this.name = 'LeaseLostError';
  }
}

/** Where uploaded files live: S3 in AWS, the local S3 server on a developer's machine. */
export interface FileStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Streams an object; with `eTag`, only that version of it (a changed object fails with
   * FileChangedError); with `fromByte`, from that byte to the end (a Range).
   */
  read(
    bucket: string,
    key: string,
    eTag?: string,
    fromByte?: number,
  ): Promise<NodeJS.ReadableStream & AsyncIterable<Uint8Array>>;
  presignedPost(key: string, maxBytes: number): Promise<{ url: string; fields: Record<string, string> }>;
  bucket(): string;
}
