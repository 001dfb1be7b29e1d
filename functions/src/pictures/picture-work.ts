import type { HostedPicture } from '@portal/shared/domain/pictures';
import type { ProductContent, ProductRecord } from '../products/product-store';
import { descriptionPictureAddresses } from '@portal/shared/domain/description-pictures';
import type { PictureHost } from './host-pictures';
import { hostProductPictures, type PictureWarning } from './product-pictures';

/**
 * The pictures of imported products, hosted through a queue (issue 38). The import stores each
 * product with no hosted picture yet (`hosted_images: {}`: the card shows the placeholder, the
 * description shows no supplier `<img>`) and sends one message per product version as soon as
 * its batch is stored; the picture function hosts that version's pictures and writes them onto the
 * product: onto the version in review and, when the admin approved it meanwhile, onto the approved
 * one (approving never waits for pictures).
 *
 * A product's record under its import job is the idempotency key: once complete, a redelivered
 * message finds it and does nothing (nothing fetched, nothing counted twice). The job's counts
 * (hosted, failed) are added in the same transaction that completes the record.
 */

export interface PictureWork {
  jobId: string;
  productId: string;
  /** The content hash of the product version whose pictures these are. */
  version: string;
  /** How many pictures the import counted for it (in the job's total). */
  pictures: number;
  /** The product's row in the file: a picture that fails is a warning on it in the import's report. */
  row: number;
}

/** A picture that could not be hosted: its column and the admin's words (product-pictures.ts). */
export type PictureFailure = PictureWarning;

export interface PictureRecord {
  status: 'done' | 'retrying';
  version: string;
  hosted: number;
  failed: number;
  failures: PictureFailure[];
}

export interface PictureRecordRepository {
  get(jobId: string, productId: string): Promise<PictureRecord | undefined>;
  /**
   * Completes the product's record, unless it is complete already (false then), and adds to the
   * job's counts in the same transaction: `hostedAdded` pictures hosted, the record's failures, and
   * `totalAdded` to the total (negative for a version replaced before its pictures were hosted).
   */
  complete(
    work: PictureWork,
    record: Omit<PictureRecord, 'status'>,
    change: { hostedAdded: number; totalAdded: number },
  ): Promise<boolean>;
  /** The job's products whose pictures failed, a page at a time. */
  failed(
    jobId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: PictureWork[]; nextCursor: string | null }>;
  /**
   * Opens a completed record with failures again for another try: its failures are taken off the
   * job's count. False when it is not complete with failures (retried already).
   */
  reopen(work: PictureWork): Promise<boolean>;
}

export interface PictureQueue {
  /** Sends the works, WORKS_PER_MESSAGE to a message, 10 messages a request; throws when some could not be sent. */
  send(works: readonly PictureWork[]): Promise<void>;
}

export interface PictureProducts {
  get(id: string): Promise<ProductRecord | undefined>;
  /**
   * Writes the hosted pictures onto the product's versions whose content hash is `version` (in
   * review, approved, or both). False when neither is that version any more.
   */
  setHostedPictures(id: string, version: string, hosted: Record<string, HostedPicture>): Promise<boolean>;
}

export interface PictureWorkDeps {
  records: PictureRecordRepository;
  products: PictureProducts;
  host: PictureHost;
}

/** Tries at most this many times a picture whose host may answer later (timeouts, 429, 5xx). */
export const PICTURE_ATTEMPTS = 3;

/** The backoff before try `attempt + 1`: 1 minute, then 5 (the message is kept invisible meanwhile). */
export function retryDelaySeconds(attempt: number): number {
  return attempt <= 1 ? 60 : 300;
}

export type PictureWorkOutcome = 'hosted' | 'already-done' | 'replaced' | 'retry';

/** Every picture address of a product version: its image slots, its additional images and its description's `<img>`. */
export function pictureAddresses(
  content: Pick<ProductContent, 'product_images' | 'additional_product_images' | 'html_description'>,
): string[] {
  return [
    ...new Set([
      ...content.product_images,
      ...content.additional_product_images,
      ...descriptionPictureAddresses(content.html_description),
    ]),
  ];
}

/**
 * Product versions per message: a stored batch of 100 products is one SendMessageBatch of 10
 * messages (one SQS request per batch, not ten), and one message is what one picture function
 * hosts per invocation (its batch size is 1), as 10 one-product messages were.
 */
export const WORKS_PER_MESSAGE = 10;

/**
 * The picture works of a message body: an array of 1 to WORKS_PER_MESSAGE product versions (or one
 * alone, as messages were first sent); throws (a poison message) when it is not that.
 */
export function parsePictureWorks(body: string): PictureWork[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new Error('The picture message is not JSON');
  }
  if (!Array.isArray(value)) return [pictureWorkOf(value)];
  if (value.length === 0 || value.length > WORKS_PER_MESSAGE) {
    throw new Error(`The picture message holds ${value.length} product versions, not 1 to ${WORKS_PER_MESSAGE}`);
  }
  return value.map(pictureWorkOf);
}

function pictureWorkOf(value: unknown): PictureWork {
  const work = value as Partial<PictureWork> | null;
  const id = /^[0-9a-f]{32}$/;
  if (
    !work ||
    typeof work.jobId !== 'string' ||
    !id.test(work.jobId) ||
    typeof work.productId !== 'string' ||
    work.productId.length === 0 ||
    work.productId.length > 200 ||
    typeof work.version !== 'string' ||
    work.version.length === 0 ||
    !Number.isInteger(work.pictures) ||
    (work.pictures ?? -1) < 0 ||
    !Number.isInteger(work.row) ||
    (work.row ?? 0) < 1
  ) {
    throw new Error('The picture message is not a product version of an import');
  }
  const { jobId, productId, version, pictures, row } = work as PictureWork;
  return { jobId, productId, version, pictures, row };
}

/**
 * Hosts one product version's pictures. `attempt` is the message's receive count: a picture whose
 * host may answer later is tried again by the message's redelivery (the queue's backoff) until
 * PICTURE_ATTEMPTS, then counted failed. Answers `retry` when the message should come back.
 */
export async function hostPictureWork(
  deps: PictureWorkDeps,
  work: PictureWork,
  attempt: number,
): Promise<PictureWorkOutcome> {
  const stored = await deps.records.get(work.jobId, work.productId);
  if (stored?.status === 'done' && stored.version === work.version) return 'already-done';
  const product = await deps.products.get(work.productId);
  const content = [product?.current, product?.approved].find((version) => version?.content_hash === work.version);
  if (!content) {
    // A later import replaced this version (its own message hosts the new one): nothing to host.
    // Its pictures leave the job's total (and those hosted its count: a retried record's failures were taken off already).
    await deps.records.complete(
      work,
      { version: work.version, hosted: 0, failed: 0, failures: [] },
      { hostedAdded: -(stored?.hosted ?? 0), totalAdded: -work.pictures },
    );
    return 'replaced';
  }
  const { hosted, warnings, later } = await hostProductPictures(deps.host, content);
  const pictures = hosted.hosted_images;
  // What is hosted shows on the product now, also when some pictures are tried again later.
  if (Object.keys(pictures).length > 0) await deps.products.setHostedPictures(work.productId, work.version, pictures);
  if (later && attempt < PICTURE_ATTEMPTS) return 'retry';
  // Counted by address, as the import counted them (a picture in two places is one picture).
  const hostedCount = Object.keys(pictures).length;
  const failedCount = pictureAddresses(content).length - hostedCount;
  await deps.records.complete(
    work,
    { version: work.version, hosted: hostedCount, failed: failedCount, failures: warnings },
    { hostedAdded: hostedCount - (stored?.hosted ?? 0), totalAdded: 0 },
  );
  return 'hosted';
}

/** The words of the retry action's answer. */
export function retrySentence(products: number): string {
  if (products === 0) return 'No picture of this import is waiting for another try.';
  return `The failed pictures of ${products === 1 ? 'one product are' : `${products.toLocaleString('en-US')} products are`} being tried again.`;
}

/**
 * The admin's one action: every failed product of the import is opened again and sent to the
 * queue. A product retried already (by a second click) is not sent twice.
 */
export async function retryFailedPictures(
  deps: { records: PictureRecordRepository; queue: PictureQueue },
  jobId: string,
): Promise<number> {
  let cursor: string | undefined;
  let sent = 0;
  do {
    const page = await deps.records.failed(jobId, cursor, 100);
    const reopened: PictureWork[] = [];
    for (const work of page.items) if (await deps.records.reopen(work)) reopened.push(work);
    await deps.queue.send(reopened);
    sent += reopened.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return sent;
}
