import { DomainError, badRequest } from '../errors';
import { InvalidCursorError } from '../adapters/dynamo-client';
import type { ModerationOutcome } from './product-store';

export const PRODUCT_NOT_FOUND = 'There is no product with that id.';
export const NOT_IN_REVIEW = 'This product is no longer waiting for review: someone already approved or banned it.';

export function assertModerated(outcome: ModerationOutcome): void {
  if (outcome === 'not-found') throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  if (outcome === 'not-in-review') throw new DomainError('conflict', NOT_IN_REVIEW);
}

/** Runs a paged read, turning a cursor that does not decode into a 400. */
export async function withCursor<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidCursorError) throw badRequest(error.message, { cursor: error.message });
    throw error;
  }
}
