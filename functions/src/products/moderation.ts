import type { ProductAction, ProductStatus } from '@portal/shared/domain/product-status';
import { DomainError } from '../errors';
import type { ModerationOutcome, MoveOutcome } from './product-store';

export const PRODUCT_NOT_FOUND = 'There is no product with that id.';
export const PRODUCT_CHANGED = 'This product changed since you opened it: review the new values, then approve again.';
export const NOT_IN_REVIEW = 'This product is no longer waiting for review: someone already approved or banned it.';
/** What a customer on a share link, and the checkout, are told about a withdrawn product. */
export const PRODUCT_WITHDRAWN = 'This product has been withdrawn from sale and can no longer be bought.';
export const MOVED_MEANWHILE = 'Someone else changed this product at the same time: reload it and try again.';

/** Why a move does not apply to a product in this status, in words for the admin (a 409). */
const NOT_ALLOWED: Record<ProductAction, Partial<Record<ProductStatus, string>> & { other: string }> = {
  approve: { other: NOT_IN_REVIEW },
  ban: { other: NOT_IN_REVIEW },
  withdraw: {
    withdrawn: 'This product is already withdrawn: members no longer see it.',
    banned: 'This product is banned: members do not see it, so there is nothing to withdraw.',
    review:
      'This product is waiting for review, so it cannot be withdrawn now: approve or ban it in Product Import first.',
    other: 'Only an approved product can be withdrawn.',
  },
  reopen: {
    review: 'This product is already waiting for review.',
    approved: 'This product is approved: withdraw it first if members should stop seeing it.',
    other: 'Only a banned or withdrawn product can be put back into review.',
  },
};

/** The 404 or 409 of a move that did not happen, in words; nothing when it was done. */
export function assertMoved(action: ProductAction, outcome: MoveOutcome): void {
  if (outcome.outcome === 'done') return;
  if (outcome.outcome === 'not-found') throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  if (outcome.outcome === 'changed') {
    throw new DomainError('conflict', action === 'approve' ? PRODUCT_CHANGED : MOVED_MEANWHILE);
  }
  const words = NOT_ALLOWED[action];
  throw new DomainError('conflict', words[outcome.status] ?? words.other);
}

export function assertModerated(outcome: ModerationOutcome): void {
  if (outcome === 'not-found') throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  if (outcome === 'not-in-review') throw new DomainError('conflict', NOT_IN_REVIEW);
  if (outcome === 'changed') throw new DomainError('conflict', PRODUCT_CHANGED);
}
