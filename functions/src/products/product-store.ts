import type { CsvProduct } from '@portal/shared/domain/csv-product';
import type { CatalogueList, ProductAction, ProductStatus } from '@portal/shared/domain/product-status';

export type { ProductStatus } from '@portal/shared/domain/product-status';
import type { HostedPicture } from '@portal/shared/domain/pictures';

/**
 * The values of one imported version of a product (description already sanitized). An import that
 * hosts pictures (issue 28) adds `hosted_images`: per supplier address, the picture it gave (an
 * address that failed is absent), and the description's `<img>` then point to our copies.
 * Products imported before have none, and are shown with the supplier's addresses.
 */
export type ProductContent = Omit<CsvProduct, 'id'> & { hosted_images?: Record<string, HostedPicture> };

export interface ProductRecord {
  id: string;
  status: ProductStatus;
  /** The latest imported values: what an admin reviews. */
  current: ProductContent;
  /** The values an admin approved: what members see, until a newer version is approved. */
  approved?: ProductContent;
  createdAt: string;
  updatedAt: string;
  approvedAt?: string;
  lastJobId: string;
}

/** What an import needs to know of a stored product to decide on a row. */
export type ProductState = Pick<ProductRecord, 'id' | 'status'> & { contentHash: string };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** changed: still in review, but not the version the admin approved (an import changed it since). */
export type ModerationOutcome = 'done' | 'not-found' | 'not-in-review' | 'changed';

/**
 * The outcome of an admin's move (PRODUCT_TRANSITIONS): done; not found; not-allowed (the product
 * is in a status the move does not start from: someone moved it first); changed (approve only: an
 * import replaced the version the admin saw).
 */
export type MoveOutcome =
  | { outcome: 'done'; status: ProductStatus }
  | { outcome: 'not-found' }
  | { outcome: 'not-allowed'; status: ProductStatus }
  | { outcome: 'changed' };

/** A count read by a bounded Query: atLeast when there were more than `count`. */
export interface BoundedCount {
  count: number;
  atLeast: boolean;
}

export interface ProductRepository {
  get(id: string): Promise<ProductRecord | undefined>;
  /** States of up to 100 products by id, in one round trip where possible. */
  states(ids: readonly string[]): Promise<Map<string, ProductState>>;
  /**
   * Writes new products (unapproved) as they are, with no condition: only for the import run that
   * holds the catalogue write lease (ImportJobRepository.takeLease), which read them as missing
   * while holding it. Nothing else creates products. Their ids go into the id directory first.
   */
  putNew(products: readonly ProductRecord[]): Promise<void>;
  /**
   * Every product id there is (and perhaps a few more: ids written just before a run died), from
   * the id directory: a product whose id is not in it does not exist. Builds the directory from
   * the stored products the first time (for the holder of the catalogue write lease only). null
   * when there are more than `limit` ids: the caller then reads every state.
   */
  knownIds(limit: number): Promise<ReadonlySet<string> | null>;
  /**
   * Replaces the current version of an existing product and puts it in review, only if it is
   * still as `expected` says (status and content hash); false when it changed meanwhile.
   */
  revise(id: string, content: ProductContent, expected: ProductState, jobId: string, now: string): Promise<boolean>;
  inReview(cursor: string | undefined, limit: number): Promise<Page<ProductRecord>>;
  approvedPage(cursor: string | undefined, limit: number): Promise<Page<ProductRecord>>;
  /** Approves the product only while `version` (the content hash of its current values) is in review. */
  approve(id: string, version: string, now: string): Promise<ModerationOutcome>;
  ban(id: string, now: string): Promise<ModerationOutcome>;
  /**
   * Any admin move of the transition table: read, check the move from the status found, then an
   * update conditional on that status and content hash (and, for approve, on `version`); a write
   * that lost a race is decided again on a fresh read.
   */
  move(id: string, action: ProductAction, now: string, version?: string): Promise<MoveOutcome>;
  /** One page of a catalogue list by name; `search`: the exact SPU first, then names starting with it. */
  catalogue(
    list: CatalogueList,
    search: string | undefined,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<ProductRecord>>;
  /** How many products wait for review, counting at most `cap`. */
  reviewCount(cap: number): Promise<BoundedCount>;
}
