import type { Call } from '../call';
import { CountVisitRequest, CountVisitResponse } from '../visits';

/**
 * POST /api/countVisit (public): counts a visit of a share page (no cookie, no personal data stored; bots not counted) and answers its id for the checkout.
 */
export const countVisit = {
  name: 'countVisit',
  path: '/api/countVisit',
  role: 'public',
  body: 'json',
  request: CountVisitRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const countVisitResponse = CountVisitResponse;
