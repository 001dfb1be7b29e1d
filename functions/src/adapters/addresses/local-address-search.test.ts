import { describe, expect, it } from 'vitest';
import { localAddressSearch } from './local-address-search';

/** The embedded address search over the `zipcodes` US ZIP database (no network, no table). */
const labels = async (text: string, limit = 5) =>
  (await localAddressSearch.suggest(text, limit)).map((item) => item.Address.Label);

describe('the embedded address search', () => {
  it('suggests the ZIPs that a partly typed ZIP begins, in the typed city and state', async () => {
    const found = await localAddressSearch.suggest('12 Main St, Springfield, IL 6270', 5);
    expect(found.length).toBeGreaterThan(1);
    for (const item of found) {
      expect(item.Address).toMatchObject({ Locality: 'Springfield', Region: { Code: 'IL' }, AddressNumber: '12' });
      expect(item.Address.PostalCode).toMatch(/^6270\d$/);
    }
    expect(new Set(found.map((item) => item.PlaceId)).size).toBe(found.length);
  });

  it('reads a full state name and a city of two words', async () => {
    expect(await labels('350 5th Ave, New York, New York 10118')).toEqual([
      '350 5th Ave, New York, NY 10118, United States',
    ]);
  });

  it('puts a city typed in full before longer names it begins, and stops at the limit', async () => {
    const found = await labels('1 Elm St, Springfield', 3);
    expect(found).toHaveLength(3);
    for (const label of found) expect(label).toMatch(/^1 Elm St, Springfield, [A-Z]{2} \d{5}, United States$/);
  });

  it('answers nothing for a ZIP that is not in the state typed, or a Canadian place', async () => {
    expect(await labels('1 Main St, Washington, CA 20500')).toEqual([]);
    expect(await labels('1 Main St, Ottawa, ON')).toEqual([]);
  });
});
