import { DomainError } from '../errors';
import type { ModerationOutcome } from './product-store';

export const PRODUCT_NOT_FOUND = 'There is no product with that id.';
export const PRODUCT_CHANGED = 'This product changed since you opened it: review the new values, then approve again.';
export const NOT_IN_REVIEW = 'This product is no longer waiting for review: someone already approved or banned it.';

export function assertModerated(outcome: ModerationOutcome): void {
  if (outcome === 'not-found') throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  if (outcome === 'not-in-review') throw new DomainError('conflict', NOT_IN_REVIEW);
  if (outcome === 'changed') throw new DomainError('conflict', PRODUCT_CHANGED);
}
