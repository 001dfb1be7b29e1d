import { AutocompleteCommand, GeoPlacesClient } from '@aws-sdk/client-geo-places';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { amazonLocationPlaces } from './amazon-location-places';

/** Amazon Location cannot be reached offline: the client is mocked, the request and mapping are checked. */
const places = mockClient(GeoPlacesClient);
beforeEach(() => places.reset());
afterAll(() => places.restore());

/** An Autocomplete result item as Places v2 documents it (AutocompleteResultItem). */
const whiteHouse = {
  PlaceId: 'AQAAAFUAlnKXGsvBqxhIf3ZMPZCiPjr',
  PlaceType: 'PointAddress' as const,
  Title: '1600 Pennsylvania Ave NW, Washington, DC 20500-0005, United States',
  Address: {
    Label: '1600 Pennsylvania Ave NW, Washington, DC 20500-0005, United States',
    Country: { Code2: 'US', Code3: 'USA', Name: 'United States' },
    Region: { Code: 'DC', Name: 'District of Columbia' },
    SubRegion: { Name: 'District of Columbia' },
    Locality: 'Washington',
    District: 'Downtown',
    PostalCode: '20500-0005',
    Street: 'Pennsylvania Ave NW',
    StreetComponents: [
      { BaseName: 'Pennsylvania', Type: 'Ave', TypePlacement: 'AfterBaseName' as const, Direction: 'NW' },
    ],
    AddressNumber: '1600',
  },
  Highlights: { Title: [{ StartIndex: 0, EndIndex: 4, Value: '1600' }] },
};

describe('the Amazon Location adapter', () => {
  it('asks Places v2 Autocomplete for US results, as many as wanted, with the text as typed', async () => {
    places.on(AutocompleteCommand).resolves({ PricingBucket: 'Core', ResultItems: [] });
    await amazonLocationPlaces.suggest('1600 Pennsylvania Ave', 5);
    const calls = places.commandCalls(AutocompleteCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueryText: '1600 Pennsylvania Ave',
      MaxResults: 5,
      Filter: { IncludeCountries: ['USA'] },
      Language: 'en',
    });
  });

  it('maps each result item to the contract: Label and the parts a form fills, nothing else', async () => {
    places.on(AutocompleteCommand).resolves({ PricingBucket: 'Core', ResultItems: [whiteHouse] });
    expect(await amazonLocationPlaces.suggest('1600 Pennsylvania Ave', 5)).toEqual([
      {
        PlaceId: whiteHouse.PlaceId,
        PlaceType: 'PointAddress',
        Title: whiteHouse.Title,
        Address: {
          Label: whiteHouse.Address.Label,
          Country: { Code2: 'US', Code3: 'USA', Name: 'United States' },
          Region: { Code: 'DC', Name: 'District of Columbia' },
          Locality: 'Washington',
          PostalCode: '20500-0005',
          Street: 'Pennsylvania Ave NW',
          AddressNumber: '1600',
        },
      },
    ]);
  });

  it('leaves out an item without a label, keeps a street-level one without a number', async () => {
    const street = {
      PlaceId: 'street-1',
      PlaceType: 'Street' as const,
      Title: 'Main St, Springfield, IL, United States',
      Address: { Label: 'Main St, Springfield, IL, United States', Street: 'Main St', Locality: 'Springfield' },
    };
    places.on(AutocompleteCommand).resolves({
      PricingBucket: 'Core',
      ResultItems: [{ PlaceId: 'x', PlaceType: 'Locality', Title: 'Nowhere' }, street],
    });
    const found = await amazonLocationPlaces.suggest('Main St, Springfield', 5);
    expect(found).toEqual([
      {
        PlaceId: 'street-1',
        PlaceType: 'Street',
        Title: street.Title,
        Address: { Label: street.Address.Label, Street: 'Main St', Locality: 'Springfield' },
      },
    ]);
  });

  it('lets a failure of the service through (the API answers 500 with a correlation id)', async () => {
    places.on(AutocompleteCommand).rejects(new Error('AccessDeniedException'));
    await expect(amazonLocationPlaces.suggest('1600 Pennsylvania Ave', 5)).rejects.toThrow('AccessDeniedException');
  });
});
