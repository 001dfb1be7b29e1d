import type { ProductContent, ProductRecord, ProductState } from '../products/product-store';

/**
 * What an import does with one valid row, given what is stored for its product:
 * - nothing stored: create it, unapproved (in review);
 * - banned or withdrawn: nothing; it stays as it is until an admin puts it back into review
 *   (counted with the banned rows);
 * - same content hash: nothing (unchanged);
 * - otherwise: revise it. An approved product goes back to review and members keep seeing
 *   the approved values until an admin decides on the new ones.
 */
export type UpsertDecision = 'create' | 'revise' | 'unchanged' | 'banned';

export function decideUpsert(stored: ProductState | undefined, incomingHash: string): UpsertDecision {
  if (!stored) return 'create';
  if (stored.status === 'banned' || stored.status === 'withdrawn') return 'banned';
  if (stored.contentHash === incomingHash) return 'unchanged';
  return 'revise';
}

export function newProduct(id: string, content: ProductContent, jobId: string, now: string): ProductRecord {
  return { id, status: 'review', current: content, createdAt: now, updatedAt: now, lastJobId: jobId };
}
