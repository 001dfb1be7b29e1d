import type { AddressSuggestion } from '@portal/shared/api/address';

/**
 * The address autocomplete a capability needs (the port): the text a member typed → up to
 * `limit` US address suggestions, in the shape of Amazon Location's Places v2 Autocomplete.
 * In AWS Amazon Location answers (adapters/amazon-location-places.ts); `npm start` and the tests
 * use an embedded provider over the US ZIP database (adapters/local-address-search.ts).
 */
export interface AddressSearch {
  suggest(text: string, limit: number): Promise<AddressSuggestion[]>;
}

/** How many suggestions /api/searchAddress answers at most. */
export const ADDRESS_SUGGESTIONS = 5;
