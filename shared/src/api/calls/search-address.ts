import type { Call } from '../call';
import { SearchAddressRequest, SearchAddressResponse } from '../address';

/**
 * POST /api/searchAddress (member): Address suggestions for the payout form (Amazon Location
 * Places v2 Autocomplete).
 */
export const searchAddress = {
  name: 'searchAddress',
  path: '/api/searchAddress',
  role: 'member',
  body: 'json',
  request: SearchAddressRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const searchAddressResponse = SearchAddressResponse;
