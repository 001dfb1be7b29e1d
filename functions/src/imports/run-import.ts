import type { ImportIssue } from '@portal/shared/api/products';
import type { CsvImportReport } from '@portal/shared/domain/csv-report';
import { createHash } from 'node:crypto';
import {
  importCatalogueCsv,
  importCatalogueCsvFrom,
  validateCatalogueCsv,
  type ImportRow,
  type ResumePoint,
} from '../catalogue/parse-csv';
import {
  FileChangedError,
  type FileStore,
  type ImportCheckpoint,
  type ImportContinuation,
  type ImportContinuations,
  type ImportCounters,
  type ImportJobRepository,
} from './job-store';
import type { ProductContent, ProductRecord, ProductRepository, ProductState } from '../products/product-store';
import { STALE_AFTER_MS } from './jobs';
import { RejectedRowsCollector } from './rejected-rows';
import { StatePrefetch } from './state-prefetch';
import { decideUpsert, newProduct } from './upsert';
import { pictureAddresses, type PictureQueue, type PictureWork } from '../pictures/picture-work';

/**
 * One import of a supplier CSV that landed in S3, as the ObjectCreated event starts it.
 *
 * 1. Claim the job (a conditional write): a redelivered event, or a second copy of it running at
 *    the same time, finds the job taken or done and imports nothing.
 * 2. Take the catalogue write lease (a conditional write on one item): one import writes to the
 *    catalogue at a time, so the states it reads stay true for the products it creates, and it
 *    creates them with plain BatchWrites. Another import's run waits for it (phase `waiting`).
 * 3. Pass 1 streams the file and validates every row; nothing is written. A file that is
 *    damaged anywhere, or has an unusable header, is rejected as a whole.
 *    While it reads, the stored state of each product it accepts is fetched (state-prefetch.ts).
 * 4. Pass 2 streams the same version of the file again (If-Match on its ETag) and upserts the
 *    products batch by batch: new ones in BatchWrites, changed ones with conditional updates
 *    (an admin may approve or ban meanwhile). The lease is renewed with the job's heartbeat and
 *    given up at the end, whatever the end.
 * After each batch is stored, its products' pictures go to the picture queue (issue 38): the run's
 * time does not depend on the pictures.
 * A run that dies leaves the job running with an old heartbeat (or failed, when it could say
 * so); the retry claims it again and converges, because every write is an idempotent upsert.
 */

export interface ImportSource {
  bucket: string;
  key: string;
  eTag?: string;
}

export interface ImportDeps {
  jobs: ImportJobRepository;
  products: ProductRepository;
  files: FileStore;
  now?: () => Date;
  /** Products per batch of pass 2: one BatchGet (up to 100 keys) and BatchWrites of 25. */
  batchSize?: number;
  /** Batches written at the same time. */
  concurrency?: number;
  /** How long this run may wait for another import's lease, in ms (Lambda: its remaining time less a margin). */
  waitBudgetMs?: () => number;
  /** How often a waiting run asks for the lease again, in ms. */
  leasePollMs?: number;
  /**
   * Hands the pictures of the products a run creates or changes to the picture queue (issue 38),
   * as soon as each batch is stored; absent where no picture queue is configured: products keep
   * the supplier's addresses.
   */
  pictures?: ImportPictures;
  /**
   * The invocation's time left, in ms (Lambda: context.getRemainingTimeInMillis). With it and a
   * continuation queue, a long file stops before the time runs out and goes on in a next part.
   */
  remainingMs?: () => number;
  /** Time left at which a part stops taking new batches: enough to finish those in flight and hand over. */
  checkpointReserveMs?: number;
  /** Where a part's checkpoint sends the message that starts the next part. */
  continuations?: ImportContinuations;
}

export interface ImportPictures {
  queue: PictureQueue;
  /** Adds a batch's pictures to the job's total, before their messages are sent. */
  addToTotal(jobId: string, pictures: number): Promise<void>;
}

export { STALE_AFTER_MS };

/** How often a running import writes its progress (and heartbeat) to the job. */
const PROGRESS_EVERY_MS = 1_000;

/** Waiting longer than this for the lease, a run gives up and is retried (its event is redelivered). */
const DEFAULT_WAIT_BUDGET_MS = 5 * 60 * 1000;
/** In Lambda, what a run keeps of its 15 minutes for the import itself after waiting for the lease. */
export const IMPORT_TIME_RESERVE_MS = 10 * 60 * 1000;
const LEASE_POLL_MS = 2_000;
/**
 * A part stops taking batches when this much of its invocation is left: its batches in flight (four
 * of 100 products, well under a second unless DynamoDB throttles and the SDK backs off) finish, then
 * the checkpoint and the next part's message are written.
 */
export const CHECKPOINT_RESERVE_MS = 90 * 1000;
/**
 * Replaced rows a checkpoint can carry (base 36 gaps: about 4 bytes each, well inside an item's
 * 400 KB). A file with more duplicates than that after the stopping point runs on in one part.
 */
const MAX_REPLACED_IN_CHECKPOINT = 50_000;
/** Above this many product ids (about 20 MB held), the id directory is not loaded: every state is read. */
const KNOWN_IDS_LIMIT = 200_000;

/** The job id in a key made by importKey (jobs.ts). */
const JOB_KEY = /^imports\/([0-9a-f]{32})\//;

/** Uploads made through the API carry their job id in the key; any other object gets one from its identity. */
export function jobIdFor(source: ImportSource): string {
  const fromKey = JOB_KEY.exec(source.key)?.[1];
  if (fromKey) return fromKey;
  return createHash('sha256')
    .update(`${source.bucket}\n${source.key}\n${source.eTag ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

/** failed: the file was replaced while it was imported; retrying this event cannot succeed. */
export type ImportOutcome = 'completed' | 'rejected' | 'skipped' | 'failed';

export const FILE_CHANGED =
  'The file was replaced while it was being imported, so no product was written from this run. Upload the file again.';

/** Still waiting for another import when this run had to stop: its event is retried. */
export const CATALOGUE_BUSY =
  'Another import was still writing to the catalogue, and this one waited as long as it could. It is retried automatically; nothing was written from this file yet.';

class CatalogueBusyError extends Error {
  constructor(holder: string) {
    super(`The catalogue write lease stayed with import ${holder}`);
    this.name = 'CatalogueBusyError';
  }
}

/** A read or write that failed mid-run: the admin's words; the error itself goes to the log (the S3 handler). */
export const IMPORT_STOPPED =
  'The import stopped before the end because the file or the database could not be reached. It is retried automatically; products already written are kept, and none is written twice.';

export type PartOutcome = ImportOutcome | 'continued';

export async function runImport(deps: ImportDeps, source: ImportSource): Promise<PartOutcome> {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const id = jobIdFor(source);
  const fileName = source.key.split('/').pop() ?? source.key;
  const attempt = await deps.jobs.claim(
    { id, fileName, bucket: source.bucket, key: source.key },
    now(),
    new Date(Date.parse(now()) - STALE_AFTER_MS).toISOString(),
  );
  if (attempt === null) return 'skipped';

  const run: PartRun = {
    id,
    attempt,
    part: 1,
    counters: { rowsRead: 0, rejected: 0, warnings: 0, created: 0, updated: 0, unchanged: 0, banned: 0 },
    done: 0,
  };
  return runPart(deps, run, now, async (known) => {
    const prefetch = new StatePrefetch(deps.products);
    const rejectedRows = new RejectedRowsCollector();
    const validation = await validateCatalogueCsv(await deps.files.read(source.bucket, source.key, source.eTag), {
      onKept: (product) => {
        if (!known || known.has(product.id)) prefetch.add(product.id);
      },
      onHeader: rejectedRows.onHeader,
      onRowWithIssues: rejectedRows.onRowWithIssues,
    });
    const { report } = validation;
    if (report.fatal) prefetch.stop();
    else prefetch.flush();
    // A run before this one may have stored the issues and rows of another version of the file.
    if (attempt > 1) await deps.jobs.clearIssuesAndRows(id);
    const validationIssues = issuesOf(report);
    await Promise.all([deps.jobs.putIssues(id, validationIssues), deps.jobs.putRejectedRows(id, rejectedRows.build())]);
    Object.assign(run.counters, {
      rowsRead: report.rowsRead,
      rejected: report.rejected,
      warnings: report.warningCount,
    });
    if (report.fatal) {
      await deps.jobs.finish(id, attempt, {
        ...run.counters,
        status: 'rejected',
        failure: /No rows were imported\.$/.test(report.fatal.message)
          ? report.fatal.message
          : `${report.fatal.message} No rows were imported.`,
        finishedAt: now(),
      });
      return 'rejected';
    }
    await deps.jobs.progress(id, attempt, { ...run.counters, phase: 'importing', heartbeatAt: now() });
    const rows = importCatalogueCsv(await deps.files.read(source.bucket, source.key, source.eTag), validation, {
      batchSize: deps.batchSize ?? 100,
    });
    return {
      rows,
      prefetch,
      resume: {
        header: [...validation.header],
        replaced: validation.replaced,
        accepted: report.accepted,
        eTag: source.eTag ?? null,
      },
    };
  });
}

/**
 * The next part of a long import (its continuation message): claims the part (a redelivered
 * message, or one for a part already done, imports nothing), then writes the products from the
 * checkpoint on, reading the file from its byte with a Range. The counts go on from the
 * checkpoint's, so no row is counted twice even when a part died and runs again.
 */
export async function continueImport(deps: ImportDeps, message: ImportContinuation): Promise<PartOutcome> {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const stale = new Date(Date.parse(now()) - STALE_AFTER_MS).toISOString();
  const job = await deps.jobs.claimPart(message.jobId, message.attempt, message.part, now(), stale);
  const checkpoint = job?.checkpoint;
  if (!job || !checkpoint || checkpoint.part !== message.part) return 'skipped';
  const { rowsDone, ...counters } = checkpoint.counters;
  const run: PartRun = { id: job.id, attempt: message.attempt, part: message.part, counters, done: rowsDone };
  await deps.jobs.progress(run.id, run.attempt, { ...counters, rowsDone, phase: 'importing', heartbeatAt: now() });
  return runPart(deps, run, now, async () => {
    const replaced = decodeRows(checkpoint.replaced);
    const eTag = checkpoint.eTag ?? undefined;
    const rows = importCatalogueCsvFrom(
      await deps.files.read(job.bucket, job.key, eTag, checkpoint.from.byte),
      {
        from: checkpoint.from,
        header: checkpoint.header,
        replaced: new Set(replaced),
        remaining: checkpoint.remaining,
      },
      { batchSize: deps.batchSize ?? 100 },
    );
    return {
      rows,
      prefetch: new StatePrefetch(deps.products),
      resume: { header: checkpoint.header, replaced, accepted: checkpoint.remaining, eTag: checkpoint.eTag },
    };
  });
}

/** One invocation's share of a run: the job, the run (attempt), which part, and the counts so far. */
interface PartRun {
  id: string;
  attempt: number;
  part: number;
  counters: ImportCounters;
  /** Products written so far, all parts together. */
  done: number;
}

/** What a part writes: the products to write, and what a checkpoint after them must carry. */
interface PartPlan {
  rows: AsyncGenerator<ImportRow[], void, undefined>;
  prefetch: StatePrefetch;
  resume: {
    header: string[];
    /** Rows replaced by later ones, in file order (from where this part reads on). */
    replaced: readonly number[];
    /** Products this part's rows hold, to the end of the file. */
    accepted: number;
    eTag: string | null;
  };
}

/**
 * A part of a run: the catalogue write lease, then what `prepare` gives (the first part validates
 * the file there) written batch by batch; then the job finished, or, when the invocation's time
 * runs short, a checkpoint and the next part's message. The lease stays with the job between parts.
 */
async function runPart(
  deps: ImportDeps,
  run: PartRun,
  now: () => string,
  prepare: (known: ReadonlySet<string> | null) => Promise<PartPlan | 'rejected'>,
): Promise<PartOutcome> {
  const { id, attempt, counters } = run;
  let leased = false;
  let handedOver = false;
  try {
    await waitForLease(deps, id, attempt, now);
    leased = true;
    // Ids of products that may exist: only theirs need a state read. Read under the lease, so
    // an id missing here stays missing until this run creates it.
    const known = await deps.products.knownIds(KNOWN_IDS_LIMIT);
    const plan = await prepare(known);
    if (plan === 'rejected') return 'rejected';
    const stoppedAt = await writeRows(deps, run, plan, known, now);
    if (stoppedAt) {
      const checkpoint = checkpointAt(run, plan, stoppedAt);
      if (!(await deps.jobs.checkpoint(id, attempt, checkpoint, now()))) {
        throw new Error(`Import ${id} was taken over by a newer run`);
      }
      handedOver = true;
      // The lease's heartbeat with the checkpoint's: the next part takes it over as this job's.
      await deps.jobs.renewLease(id, attempt, now());
      await deps.continuations!.send({ jobId: id, attempt, part: checkpoint.part });
      return 'continued';
    }
    await deps.jobs.finish(id, attempt, { ...counters, rowsDone: run.done, status: 'completed', finishedAt: now() });
    return 'completed';
  } catch (error) {
    const changed = error instanceof FileChangedError;
    await deps.jobs
      .finish(id, attempt, {
        ...counters,
        rowsDone: run.done,
        status: 'failed',
        failure: changed ? FILE_CHANGED : error instanceof CatalogueBusyError ? CATALOGUE_BUSY : IMPORT_STOPPED,
        finishedAt: now(),
      })
      .catch(() => undefined);
    // Both reads are pinned to the event's version of the file (the ETag), and a read checks it
    // before it gives anything: a replaced file stops the run before its first write, and a retry
    // of this event would stop the same way. The new file's own event imports it.
    if (changed) return 'failed';
    throw error;
  } finally {
    // Whatever the end but a hand-over; a release that fails leaves the lease to go stale (STALE_AFTER_MS).
    if (leased && !handedOver) await deps.jobs.releaseLease(id, attempt).catch(() => undefined);
  }
}

/**
 * Writes the plan's batches, `window` at a time. Answers null when the file is done, or where the
 * next part starts when the invocation's time ran short (after at least one batch, so every part
 * moves on): the batches in flight are finished first, so everything before that point is written
 * and counted, and nothing after it.
 */
async function writeRows(
  deps: ImportDeps,
  run: PartRun,
  plan: PartPlan,
  known: ReadonlySet<string> | null,
  now: () => string,
): Promise<{ next: ResumePoint; imported: number } | null> {
  const { id, attempt, counters } = run;
  // Parsing the next batches overlaps with writing the previous ones: up to `window` batches
  // are in flight, which is what keeps DynamoDB busy (one BatchWrite at a time leaves it idle).
  const window = deps.concurrency ?? 4;
  const reserve = deps.checkpointReserveMs ?? CHECKPOINT_RESERVE_MS;
  const canStop = deps.remainingMs !== undefined && deps.continuations !== undefined;
  const inFlight = new Set<Promise<void>>();
  // A stored batch's picture messages go out while the next batches are written: the window is
  // the database writes'; the sends have a window of their own, so they cannot pile up either.
  const sending = new Set<Promise<void>>();
  let failure: unknown;
  let reported = 0;
  let imported = 0;
  let last: ResumePoint | null = null;
  let stopped = false;
  try {
    for await (const batch of plan.rows) {
      if (failure) break;
      if (canStop && last && deps.remainingMs!() < reserve && checkpointFits(plan, last)) {
        stopped = true;
        break;
      }
      const task: Promise<void> = upsertBatch(
        deps.products,
        plan.prefetch,
        known,
        batch,
        id,
        now(),
        counters,
        deps.pictures !== undefined,
      ).then(
        (written) => {
          run.done += batch.length;
          if (!deps.pictures) return;
          const send = sendPictureWork(deps.pictures, id, written).catch((error: unknown) => void (failure ??= error));
          sending.add(send);
          void send.finally(() => sending.delete(send));
        },
        (error: unknown) => void (failure ??= error),
      );
      imported += batch.length;
      last = batch[batch.length - 1]!.next;
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      if (inFlight.size >= window) await Promise.race(inFlight);
      if (sending.size >= window) await Promise.race(sending);
      if (Date.now() - reported >= PROGRESS_EVERY_MS) {
        reported = Date.now();
        // The lease first: a run that lost it (taken for dead) stops before its next batch.
        await deps.jobs.renewLease(id, attempt, now());
        await deps.jobs.progress(id, attempt, { ...counters, rowsDone: run.done, heartbeatAt: now() });
      }
    }
  } finally {
    // Also when the file stops mid-way: let the writes under way finish, so the counters are true.
    await Promise.all(inFlight);
    // A batch's messages are sent once it is stored (its task added them before it ended).
    await Promise.all(sending);
  }
  if (failure) throw failure;
  return stopped && last ? { next: last, imported } : null;
}

/** Whether a checkpoint at `at` can carry the replaced rows after it (see MAX_REPLACED_IN_CHECKPOINT). */
function checkpointFits(plan: PartPlan, at: ResumePoint): boolean {
  return plan.resume.replaced.filter((row) => row >= at.line).length <= MAX_REPLACED_IN_CHECKPOINT;
}

function checkpointAt(
  run: PartRun,
  plan: PartPlan,
  stoppedAt: { next: ResumePoint; imported: number },
): ImportCheckpoint {
  return {
    part: run.part + 1,
    from: stoppedAt.next,
    header: plan.resume.header,
    replaced: encodeRows(plan.resume.replaced.filter((row) => row >= stoppedAt.next.line)),
    remaining: plan.resume.accepted - stoppedAt.imported,
    eTag: plan.resume.eTag,
    counters: { ...run.counters, rowsDone: run.done },
  };
}

/** Ascending row numbers as the gaps between them, base 36, comma-separated ("" for none). */
export function encodeRows(rows: readonly number[]): string {
  let previous = 0;
  return rows
    .map((row) => {
      const gap = row - previous;
      previous = row;
      return gap.toString(36);
    })
    .join(',');
}

export function decodeRows(encoded: string): number[] {
  if (encoded === '') return [];
  let row = 0;
  return encoded.split(',').map((gap) => (row += parseInt(gap, 36)));
}

/**
 * Takes the catalogue write lease, waiting while another live import holds it: the job says
 * `waiting`, and its heartbeat is written at each try, so it is not taken for dead meanwhile.
 */
async function waitForLease(deps: ImportDeps, id: string, attempt: number, now: () => string): Promise<void> {
  const budget = deps.waitBudgetMs?.() ?? DEFAULT_WAIT_BUDGET_MS;
  const poll = deps.leasePollMs ?? LEASE_POLL_MS;
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    const stale = new Date(Date.parse(now()) - STALE_AFTER_MS).toISOString();
    const holder = await deps.jobs.takeLease(id, attempt, now(), stale);
    if (holder === null) {
      if (tries > 0) await deps.jobs.progress(id, attempt, { phase: 'validating', heartbeatAt: now() });
      return;
    }
    if (Date.now() - started + poll > budget) throw new CatalogueBusyError(holder);
    await deps.jobs.progress(id, attempt, { phase: 'waiting', heartbeatAt: now() });
    await new Promise((resolve) => setTimeout(resolve, poll));
  }
}

/** The report's errors and warnings in file order, errors first on a row. */
export function issuesOf(report: CsvImportReport): ImportIssue[] {
  const issues: ImportIssue[] = [
    ...report.errors.map((issue) => ({ ...issue, severity: 'error' as const })),
    ...report.warnings.map((issue) => ({ ...issue, severity: 'warning' as const })),
  ];
  return issues.sort(
    (a, b) => (a.row ?? 0) - (b.row ?? 0) || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

const MAX_REVISE_TRIES = 5;

async function upsertBatch(
  products: ProductRepository,
  prefetch: StatePrefetch,
  known: ReadonlySet<string> | null,
  batch: readonly ImportRow[],
  jobId: string,
  now: string,
  counters: ImportCounters,
  withPictures: boolean,
): Promise<readonly ImportRow[]> {
  // The batch's states (prefetched, or one BatchGet) where the id directory says the product may
  // exist, all read while this run holds the catalogue write lease: a product read (or known) as
  // missing stays missing until this run puts it, since only the lease holder creates products.
  // Products that exist take the conditional-update path: an admin may approve or ban one
  // meanwhile, and then it is read and decided again (revised).
  const ids = batch.map(({ product }) => product.id);
  const states = await prefetch.statesOf(known ? ids.filter((id) => known.has(id)) : ids);
  const created: ProductRecord[] = [];
  const revisions: Promise<boolean>[] = [];
  const written: ImportRow[] = [];
  for (const row of batch) {
    const { id, ...imported } = row.product;
    // With a picture queue: no picture is shown until ours is hosted (the card's placeholder; the
    // description's `<img>` are left out until then, products/present.ts).
    const content: ProductContent = withPictures ? { ...imported, hosted_images: {} } : imported;
    const state = states.get(id);
    if (!state) {
      created.push(newProduct(id, content, jobId, now));
      written.push(row);
    } else {
      revisions.push(
        revise(products, id, content, state, jobId, now, counters).then((changed) => {
          if (changed) written.push(row);
          return changed;
        }),
      );
    }
  }
  const creating = products.putNew(created).then(() => void (counters.created += created.length));
  await Promise.all([creating, ...revisions]);
  // Written products (new, or a new version): their pictures go to the queue (writeRows).
  return written;
}

/** One message per stored product version with pictures; the job's total counts them first. */
async function sendPictureWork(pictures: ImportPictures, jobId: string, written: readonly ImportRow[]): Promise<void> {
  const works: PictureWork[] = [];
  for (const { row, product } of written) {
    const count = pictureAddresses(product).length;
    if (count > 0) works.push({ jobId, productId: product.id, version: product.content_hash, pictures: count, row });
  }
  if (works.length === 0) return;
  await pictures.addToTotal(
    jobId,
    works.reduce((sum, work) => sum + work.pictures, 0),
  );
  await pictures.queue.send(works);
}

/**
 * A conditional update on the state we read; when an admin acted meanwhile, decide again on the
 * new state. True when the product was written (its pictures are then sent to the queue).
 */
async function revise(
  products: ProductRepository,
  id: string,
  content: Parameters<ProductRepository['revise']>[1],
  initial: ProductState,
  jobId: string,
  now: string,
  counters: ImportCounters,
): Promise<boolean> {
  let state: ProductState | undefined = initial;
  for (let attempt = 0; attempt < MAX_REVISE_TRIES; attempt++) {
    const decision = decideUpsert(state, content.content_hash);
    if (decision === 'unchanged') {
      counters.unchanged += 1;
      return false;
    }
    if (decision === 'banned') {
      counters.banned += 1;
      return false;
    }
    if (decision === 'create') {
      // Missing (deleted since it was read: not something the portal does, but possible by hand).
      await products.putNew([newProduct(id, content, jobId, now)]);
      counters.created += 1;
      return true;
    }
    if (state && (await products.revise(id, content, state, jobId, now))) {
      counters.updated += 1;
      return true;
    }
    state = (await products.states([id])).get(id);
  }
  throw new Error(`product ${id} kept changing while it was being imported`);
}

/** A continuation message's body, or null for anything else. */
export function parseContinuation(body: string): ImportContinuation | null {
  try {
    const value = JSON.parse(body) as Partial<ImportContinuation>;
    const { jobId, attempt, part } = value;
    if (typeof jobId !== 'string' || !Number.isInteger(attempt) || !Number.isInteger(part)) return null;
    return { jobId, attempt: attempt!, part: part! };
  } catch {
    return null;
  }
}
