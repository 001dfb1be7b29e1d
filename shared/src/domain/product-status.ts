/**
 * A product's one stored status and every move an admin may make between them, checked in one
 * place: each product write takes its condition from this table (functions/src/adapters/dynamo-products.ts),
 * and a move the table does not allow from the status found is refused in words (409).
 *
 * - review: waiting for an admin (new, re-imported, or put back into review);
 * - approved: members see it (and keep seeing the approved values while a newer import waits in review);
 * - banned: never shown, never changed by an import;
 * - withdrawn: was approved, taken away from members (their lists, share pages, checkout);
 *   an import leaves it as it is, like a banned one.
 *
 * An import's own move (a changed approved product back to review, members still seeing the
 * approved values) is not an admin's and stays in imports/upsert.ts.
 */

export const PRODUCT_STATUSES = ['review', 'approved', 'banned', 'withdrawn'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export type ProductAction = 'approve' | 'ban' | 'withdraw' | 'reopen';

export interface ProductTransition {
  action: ProductAction;
  from: ProductStatus;
  to: ProductStatus;
}

export const PRODUCT_TRANSITIONS = [
  { action: 'approve', from: 'review', to: 'approved' },
  { action: 'ban', from: 'review', to: 'banned' },
  { action: 'withdraw', from: 'approved', to: 'withdrawn' },
  { action: 'reopen', from: 'banned', to: 'review' },
  { action: 'reopen', from: 'withdrawn', to: 'review' },
] as const satisfies readonly ProductTransition[];

/** The move `action` makes from `from`, or undefined when the table has none. */
export function productTransition(action: ProductAction, from: ProductStatus): ProductTransition | undefined {
  return PRODUCT_TRANSITIONS.find((move) => move.action === action && move.from === from);
}

/** The statuses `action` may start from. */
export function productActionFrom(action: ProductAction): ProductStatus[] {
  return PRODUCT_TRANSITIONS.filter((move) => move.action === action).map((move) => move.from);
}

/** Whether members (and customers on a share link) see the approved values of a product in this status. */
export function membersSee(status: ProductStatus, hasApproved: boolean): boolean {
  return hasApproved && (status === 'approved' || status === 'review');
}

/** The admin's catalogue lists: what members see, banned, withdrawn. The review list is its own. */
export const CATALOGUE_LISTS = ['approved', 'banned', 'withdrawn'] as const;
export type CatalogueList = (typeof CATALOGUE_LISTS)[number];

/** The catalogue list a product is in, or null (in review for the first time). */
export function catalogueListOf(status: ProductStatus, hasApproved: boolean): CatalogueList | null {
  if (status === 'banned' || status === 'withdrawn') return status;
  return membersSee(status, hasApproved) ? 'approved' : null;
}

/**
 * A product name as the catalogue's search compares it: Unicode-compatible, accents removed,
 * lower case, runs of spaces as one, trimmed, at most 200 characters (the index's sort key holds
 * it, within DynamoDB's 1 024 bytes). "Café  MUG" and "cafe mug" are the same.
 */
export function searchableName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
