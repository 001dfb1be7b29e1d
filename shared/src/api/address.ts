import { pure } from './pure';
import * as z from './zod';

/**
 * /api/searchAddress: the address autocomplete. The answer is shaped after Amazon Location's
 * Places v2 Autocomplete result (`@aws-sdk/client-geo-places`, AutocompleteResultItem), keeping
 * the parts a US address form fills: street (AddressNumber + Street), city (Locality), state
 * (Region.Code) and ZIP (PostalCode). The embedded provider answers the same shape.
 */

/** Text of 8 characters or fewer is refused: too short to suggest anything useful. */
export const ADDRESS_SEARCH_MIN_LENGTH = 9;
export const ADDRESS_SEARCH_MAX_LENGTH = 200;
export const ADDRESS_SEARCH_TOO_SHORT = 'Type more than 8 characters of the address.';
/** What the street field's hint asks: suggestions come once the text names a city or a ZIP code after the street. */
export const ADDRESS_SEARCH_HINT =
  'For suggestions, type the street, a comma, then your city or ZIP code (like 12 Main St, Springfield).';

export const SearchAddressRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    text: z
      .string()
      .check(
        z.trim(),
        z.minLength(ADDRESS_SEARCH_MIN_LENGTH, ADDRESS_SEARCH_TOO_SHORT),
        z.maxLength(ADDRESS_SEARCH_MAX_LENGTH, `Type at most ${ADDRESS_SEARCH_MAX_LENGTH} characters of the address.`),
      ),
  }),
);
export type SearchAddressRequest = z.infer<typeof SearchAddressRequest>;

export const SuggestedAddress = /* @__PURE__ */ pure(() =>
  z.object({
    /** The whole address as one line, e.g. "1600 Pennsylvania Ave NW, Washington, DC 20500, United States". */
    Label: z.string(),
    Country: z.optional(
      z.object({ Code2: z.optional(z.string()), Code3: z.optional(z.string()), Name: z.optional(z.string()) }),
    ),
    /** The state: `Code` is its 2-letter postal code. */
    Region: z.optional(z.object({ Code: z.optional(z.string()), Name: z.optional(z.string()) })),
    /** The city. */
    Locality: z.optional(z.string()),
    PostalCode: z.optional(z.string()),
    Street: z.optional(z.string()),
    AddressNumber: z.optional(z.string()),
  }),
);
export type SuggestedAddress = z.infer<typeof SuggestedAddress>;

export const AddressSuggestion = /* @__PURE__ */ pure(() =>
  z.object({
    PlaceId: z.string(),
    /** Street, Locality, PostalCode…: what the suggestion stands for (Places v2 PlaceType). */
    PlaceType: z.string(),
    Title: z.string(),
    Address: SuggestedAddress,
  }),
);
export type AddressSuggestion = z.infer<typeof AddressSuggestion>;

export const SearchAddressResponse = /* @__PURE__ */ pure(() => z.object({ ResultItems: z.array(AddressSuggestion) }));
export type SearchAddressResponse = z.infer<typeof SearchAddressResponse>;

/** What a form fills when a suggestion is chosen. */
export interface AddressParts {
  street: string;
  city: string;
  state: string;
  zip: string;
  label: string;
}

/** The form's fields from a suggestion: street = number + street, city, 2-letter state, ZIP. */
export function addressParts(address: SuggestedAddress): AddressParts {
  return {
    street: [address.AddressNumber, address.Street].filter(Boolean).join(' '),
    city: address.Locality ?? '',
    state: address.Region?.Code ?? '',
    zip: address.PostalCode ?? '',
    label: address.Label,
  };
}
