import type { ImportIssue } from '@portal/shared/api/products';
import type { CsvImportReport } from '@portal/shared/domain/csv-report';
import { createHash } from 'node:crypto';
import { importCatalogueCsv, validateCatalogueCsv, type ImportRow } from '../catalogue/parse-csv';
import { FileChangedError, type FileStore, type ImportCounters, type ImportJobRepository } from './job-store';
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

export async function runImport(deps: ImportDeps, source: ImportSource): Promise<ImportOutcome> {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const id = jobIdFor(source);
  const fileName = source.key.split('/').pop() ?? source.key;
  const attempt = await deps.jobs.claim(
    { id, fileName, bucket: source.bucket, key: source.key },
    now(),
    new Date(Date.parse(now()) - STALE_AFTER_MS).toISOString(),
  );
  if (attempt === null) return 'skipped';

  const counters: ImportCounters = {
    rowsRead: 0,
    rejected: 0,
    warnings: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    banned: 0,
  };
  let done = 0;
  let leased = false;
  try {
    await waitForLease(deps, id, attempt, now);
    leased = true;
    // Ids of products that may exist: only theirs need a state read. Read under the lease, so
    // an id missing here stays missing until this run creates it.
    const known = await deps.products.knownIds(KNOWN_IDS_LIMIT);
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
    Object.assign(counters, { rowsRead: report.rowsRead, rejected: report.rejected, warnings: report.warningCount });
    if (report.fatal) {
      await deps.jobs.finish(id, attempt, {
        ...counters,
        status: 'rejected',
        failure: /No rows were imported\.$/.test(report.fatal.message)
          ? report.fatal.message
          : `${report.fatal.message} No rows were imported.`,
        finishedAt: now(),
      });
      return 'rejected';
    }
    await deps.jobs.progress(id, attempt, { ...counters, phase: 'importing', heartbeatAt: now() });

    const rows = importCatalogueCsv(await deps.files.read(source.bucket, source.key, source.eTag), validation, {
      batchSize: deps.batchSize ?? 100,
    });
    // Parsing the next batches overlaps with writing the previous ones: up to `window` batches
    // are in flight, which is what keeps DynamoDB busy (one BatchWrite at a time leaves it idle).
    const window = deps.concurrency ?? 4;
    const pictures = deps.pictures;
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    let reported = 0;
    try {
      for await (const batch of rows) {
        if (failure) break;
        const task: Promise<void> = upsertBatch(
          deps.products,
          prefetch,
          known,
          batch,
          id,
          now(),
          counters,
          pictures,
        ).then(
          () => void (done += batch.length),
          (error: unknown) => void (failure ??= error),
        );
        inFlight.add(task);
        void task.finally(() => inFlight.delete(task));
        if (inFlight.size >= window) await Promise.race(inFlight);
        if (Date.now() - reported >= PROGRESS_EVERY_MS) {
          reported = Date.now();
          // The lease first: a run that lost it (taken for dead) stops before its next batch.
          await deps.jobs.renewLease(id, attempt, now());
          await deps.jobs.progress(id, attempt, { ...counters, rowsDone: done, heartbeatAt: now() });
        }
      }
    } finally {
      // Also when the file stops mid-way: let the writes under way finish, so the counters are true.
      await Promise.all(inFlight);
    }
    if (failure) throw failure;
    await deps.jobs.finish(id, attempt, { ...counters, rowsDone: done, status: 'completed', finishedAt: now() });
    return 'completed';
  } catch (error) {
    const changed = error instanceof FileChangedError;
    await deps.jobs
      .finish(id, attempt, {
        ...counters,
        rowsDone: done,
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
    // Whatever the end; a release that fails leaves the lease to go stale (STALE_AFTER_MS).
    if (leased) await deps.jobs.releaseLease(id, attempt).catch(() => undefined);
  }
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
  pictures?: ImportPictures,
): Promise<void> {
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
    const content: ProductContent = pictures ? { ...imported, hosted_images: {} } : imported;
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
  if (pictures) await sendPictureWork(pictures, jobId, written);
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
