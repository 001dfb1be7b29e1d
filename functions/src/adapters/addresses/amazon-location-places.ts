import { AutocompleteCommand, GeoPlacesClient, type AutocompleteResultItem } from '@aws-sdk/client-geo-places';
import type { AddressSuggestion } from '@portal/shared/api/address';
import type { AddressSearch } from '../../addresses/address-search';

/**
 * Address search in AWS: Amazon Location Service Places v2 Autocomplete, US addresses only.
 * Places v2 needs no place index resource: the function's role is allowed
 * `geo-places:Autocomplete` on `arn:aws:geo-places:<region>::provider/default`, and the call is
 * signed with it (no API key). The region is the function's own (AWS_REGION).
 */
let client: GeoPlacesClient | undefined;
const geoPlaces = () => (client ??= new GeoPlacesClient({}));

export function toSuggestion(item: AutocompleteResultItem): AddressSuggestion | undefined {
  const address = item.Address;
  if (!item.PlaceId || !address?.Label) return undefined;
  const defined = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  return {
    PlaceId: item.PlaceId,
    PlaceType: item.PlaceType ?? 'PointAddress',
    Title: item.Title ?? address.Label,
    Address: defined({
      Label: address.Label,
      Country: address.Country
        ? defined({ Code2: address.Country.Code2, Code3: address.Country.Code3, Name: address.Country.Name })
        : undefined,
      Region: address.Region ? defined({ Code: address.Region.Code, Name: address.Region.Name }) : undefined,
      Locality: address.Locality,
      PostalCode: address.PostalCode,
      Street: address.Street,
      AddressNumber: address.AddressNumber,
    }),
  };
}

export const amazonLocationPlaces: AddressSearch = {
  async suggest(text, limit) {
    const answer = await geoPlaces().send(
      new AutocompleteCommand({
        QueryText: text,
        MaxResults: limit,
        Filter: { IncludeCountries: ['USA'] },
        Language: 'en',
      }),
    );
    return (answer.ResultItems ?? []).flatMap((item) => toSuggestion(item) ?? []);
  },
};
