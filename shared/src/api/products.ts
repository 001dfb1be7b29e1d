import { pure } from './pure';
import * as z from './zod';
import { Id, IdRequest } from './schemas';

/**
 * What the catalogue calls send and answer. Money is integer cents inside the system and a
 * two-decimal dollar string ("1299.00") at this edge, as the spec's screens show it.
 */

const Dollars = /* @__PURE__ */ pure(() => z.string().check(z.regex(/^\d+\.\d{2}$/)));

/** An opaque page cursor: pass back `nextCursor` to get the following page. */
export const Cursor = /* @__PURE__ */ pure(() => z.string().check(z.maxLength(2048)));

export const PageRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    cursor: z.optional(Cursor),
    limit: z.optional(z.int().check(z.gte(1), z.lte(100))),
  }),
);
export type PageRequest = z.infer<typeof PageRequest>;

/**
 * A picture we host (issue 28): `src` the 640 px WebP variant (or the widest made below it),
 * `srcset` every variant with its width, and the intrinsic size of `src`.
 */
export const PictureSource = /* @__PURE__ */ pure(() =>
  z.object({ src: z.string(), srcset: z.string(), width: z.int(), height: z.int() }),
);
export type PictureSource = z.infer<typeof PictureSource>;

export const ProductCard = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    product_name: z.string(),
    brand: z.string(),
    msrp_us: Dollars,
    dropshipping_price_us: Dollars,
    /** The caller's commission on one unit by their rule (issue 39; the spec's 10 % by default), two decimals. */
    you_make: Dollars,
    /** The first image, or null when the product has none: our copy when hosted, else the supplier's address. */
    image: z.nullable(z.string()),
    /** The first image's variants when we host it (products imported before pictures were hosted: absent or null). */
    picture: z.optional(z.nullable(PictureSource)),
  }),
);
export type ProductCard = z.infer<typeof ProductCard>;

export const ProductDetail = /* @__PURE__ */ pure(() =>
  z.extend(ProductCard, {
    /** Slides in order: image slots 1 to 6, then the additional images (spec section 9). */
    images: z.array(z.string()),
    /** When the product's pictures are hosted: one per slide of `images`, in the same order. */
    pictures: z.optional(z.array(PictureSource)),
    /** Sanitized on the server; the apps sanitize again with DOMPurify before rendering. */
    html_description: z.string(),
  }),
);
export type ProductDetail = z.infer<typeof ProductDetail>;

const ReviewFacts = /* @__PURE__ */ pure(() => ({
  spu_no: z.string(),
  status: z.enum(['review', 'approved', 'banned', 'withdrawn']),
  /** True when an earlier version is approved and visible to members until this one is decided. */
  hasApprovedVersion: z.boolean(),
  updatedAt: z.string(),
}));

/** A card of the review list: no description or image list, so a page stays small. */
export const ImportedProductCard = /* @__PURE__ */ pure(() => z.extend(ProductCard, ReviewFacts));
export type ImportedProductCard = z.infer<typeof ImportedProductCard>;

/** A field whose imported value differs from the approved one members see: the old and the new value. */
export const ProductChange = /* @__PURE__ */ pure(() =>
  z.discriminatedUnion('field', [
    z.object({
      field: z.enum(['product_name', 'brand', 'msrp_us', 'dropshipping_price_us', 'html_description', 'url']),
      /** Prices as dollars with two decimals; descriptions sanitized HTML. */
      before: z.string(),
      after: z.string(),
    }),
    z.object({
      field: z.literal('images'),
      before: z.array(z.string()),
      after: z.array(z.string()),
      /** In `after` but not in `before`, and the other way round, in slide order. */
      added: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  ]),
);
export type ProductChange = z.infer<typeof ProductChange>;

/** What an admin reviews: the imported values, and whether members currently see an older approved version. */
export const ImportedProduct = /* @__PURE__ */ pure(() =>
  z.extend(ProductDetail, {
    ...ReviewFacts,
    url: z.string(),
    /**
     * The version under review (the content hash of the imported values). Approve names it, so an
     * import that changed the product after the admin opened it is never approved unseen.
     */
    version: z.string(),
    /**
     * null when members see no approved version (a new product, or a banned one); otherwise how
     * the imported values differ from the approved ones: name, brand, prices, images, description,
     * supplier page (empty when they are the same).
     */
    changes: z.nullable(z.array(ProductChange)),
  }),
);
export type ImportedProduct = z.infer<typeof ImportedProduct>;

export const ProductPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(ProductCard), nextCursor: z.nullable(z.string()) }),
);
export const ImportedProductPage = /* @__PURE__ */ pure(() =>
  z.object({
    items: z.array(ImportedProductCard),
    nextCursor: z.nullable(z.string()),
  }),
);

/**
 * The cancelling of a banned or withdrawn product's checkouts not yet paid (issue 38): how many
 * were open when it started, how many are cancelled at Stripe so far, how many were found paid
 * (their orders are flagged), and once `done`, how many could not be cancelled.
 */
export const CheckoutCancels = /* @__PURE__ */ pure(() =>
  z.object({
    total: z.int(),
    cancelled: z.int(),
    paid: z.int(),
    notCancelled: z.int(),
    done: z.boolean(),
  }),
);

export const ModerationResult = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    status: ReviewFacts.status,
    /**
     * A ban or withdrawal: the product's checkouts not yet paid, as their cancelling at Stripe
     * starts (through the checkout-cancel queue, issue 38); getCheckoutCancels follows it.
     */
    openCheckouts: z.optional(CheckoutCancels),
  }),
);

/** The admin's catalogue lists: what members see, banned, withdrawn. */
export const CatalogueListName = /* @__PURE__ */ pure(() => z.enum(['approved', 'banned', 'withdrawn']));

/**
 * One page of a catalogue list, by name. `search` finds the product whose SPU is exactly that
 * (first) and the products whose name starts with it (case, accents and repeated spaces aside).
 */
export const CatalogueRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    list: CatalogueListName,
    search: z.optional(z.string().check(z.trim(), z.maxLength(200, 'Search with at most 200 characters.'))),
    cursor: z.optional(Cursor),
    limit: z.optional(z.int().check(z.gte(1), z.lte(100))),
  }),
);
export type CatalogueRequest = z.infer<typeof CatalogueRequest>;

/** Approve the version the admin reviewed (ImportedProduct.version); a newer one is a 409. */
export const ApproveRequest = /* @__PURE__ */ pure(() =>
  z.extend(IdRequest, {
    version: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  }),
);
/** Ban names only the product: banning publishes nothing, whatever version is in review. */
export const BanRequest = IdRequest;

export const ImportIssue = /* @__PURE__ */ pure(() =>
  z.object({
    row: z.nullable(z.int()),
    column: z.nullable(z.string()),
    message: z.string(),
    severity: z.enum(['error', 'warning']),
  }),
);
export type ImportIssue = z.infer<typeof ImportIssue>;

/**
 * queued: the file is stored, the import has not started; running; completed; rejected: the
 * file was refused as a whole (nothing imported); failed: the import stopped on an error and is
 * retried (re-running converges to the same products).
 */
export const ImportJobStatus = /* @__PURE__ */ pure(() =>
  z.enum(['queued', 'running', 'completed', 'rejected', 'failed']),
);

export const ImportJob = /* @__PURE__ */ pure(() =>
  z.object({
    id: z.string(),
    fileName: z.string(),
    status: ImportJobStatus,
    /**
     * While running: waiting while another import writes to the catalogue (one import writes at a
     * time), checking the whole file, then writing the products.
     */
    phase: z.nullable(z.enum(['waiting', 'validating', 'importing'])),
    /** Products written so far in the importing phase. */
    rowsDone: z.int(),
    createdAt: z.string(),
    finishedAt: z.nullable(z.string()),
    rowsRead: z.int(),
    created: z.int(),
    updated: z.int(),
    unchanged: z.int(),
    rejected: z.int(),
    /** Rows of banned products, which an import never changes. */
    banned: z.int(),
    warnings: z.int(),
    /** Why the whole file was refused or the import stopped, in words. */
    failure: z.nullable(z.string()),
    /**
     * The pictures of its products, hosted through the picture queue after the import (issue 38):
     * how many it sent, how many are hosted, how many failed (the admin may try those again).
     * Absent for an import that sent none.
     */
    pictures: z.optional(z.object({ total: z.int(), hosted: z.int(), failed: z.int() })),
    /**
     * Invocations of the import function the file took: a long file stops before the function's
     * time runs out and goes on from a checkpoint in the next one. Absent for an import in one part.
     */
    parts: z.optional(z.int()),
  }),
);
export type ImportJob = z.infer<typeof ImportJob>;

export const ImportJobRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id }));
/** The retry of an import's failed pictures: how many products went back to the queue, in words too. */
export const RetryPicturesResult = /* @__PURE__ */ pure(() => z.object({ products: z.int(), message: z.string() }));
export const ImportIssuesRequest = /* @__PURE__ */ pure(() => z.strictObject({ id: Id, cursor: z.optional(Cursor) }));
export const ImportIssuesPage = /* @__PURE__ */ pure(() =>
  z.object({ items: z.array(ImportIssue), nextCursor: z.nullable(z.string()) }),
);
export const RejectedRowsCsv = /* @__PURE__ */ pure(() =>
  z.object({ fileName: z.string(), csv: z.string(), truncated: z.boolean() }),
);

/** Answer of /api/products: the job that will import the file, and the products now in review. */
export const UploadResult = /* @__PURE__ */ pure(() =>
  z.object({ job: ImportJob, unApprovedProducts: ImportedProductPage }),
);

/** The body of /api/products: a form with the CSV in the field `file` (read on the server from the raw body). */
export const UploadForm = /* @__PURE__ */ pure(() =>
  z.custom<FormData>(
    (value) => typeof FormData !== 'undefined' && value instanceof FormData,
    'Send a form with the file',
  ),
);
import { MAX_DIRECT_UPLOAD_BYTES, MAX_PRESIGNED_UPLOAD_BYTES } from './limits';
export { MAX_DIRECT_UPLOAD_BYTES, MAX_PRESIGNED_UPLOAD_BYTES };

export const UploadUrlRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    fileName: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
    size: z
      .int()
      .check(
        z.gte(1, 'The file is empty.'),
        z.lte(MAX_PRESIGNED_UPLOAD_BYTES, 'The file is larger than 100 MB, the largest supplier CSV accepted.'),
      ),
  }),
);
export const UploadUrl = /* @__PURE__ */ pure(() =>
  z.object({
    job: ImportJob,
    /** POST a multipart form to `url` with `fields` first and the file last, as S3 expects. */
    url: z.string(),
    fields: z.record(z.string(), z.string()),
  }),
);
