import { beforeAll, describe, expect, it } from 'vitest';
import { SearchAddressResponse } from '../../shared/src/api/address';
import { handler as searchAddress } from '../../functions/src/handlers/search-address';
import { handler as signup } from '../../functions/src/handlers/signup';
import { call, uniqueEmail } from './helpers';

/**
 * /api/searchAddress with the embedded provider (ADDRESS_SEARCH=local, set by setup.ts as npm
 * start sets it): the US ZIP database of the `zipcodes` package behind the Places v2 shape.
 */
let token = '';
beforeAll(async () => {
  const result = await call(signup, { body: { email: uniqueEmail('address'), password: 'long enough password' } });
  token = String(result.body.access_token);
});

const search = (body: unknown) => call(searchAddress, { body, headers: { authorization: `Bearer ${token}` } });

async function suggestions(text: string) {
  const result = await search({ text });
  expect(result.status).toBe(200);
  return SearchAddressResponse.parse(result.body).ResultItems;
}

describe('/api/searchAddress', () => {
  it.each(['', '12 Main', '  12 Main  ', '20500'])(
    'refuses %j (8 characters or fewer) with 400 naming text',
    async (text) => {
      const result = await search({ text });
      expect(result.status).toBe(400);
      expect(result.body.fields).toEqual({ text: 'Type more than 8 characters of the address.' });
    },
  );

  it('refuses more than 200 characters, a missing text and unknown fields', async () => {
    expect((await search({ text: `1 Main St, ${'x'.repeat(200)}` })).status).toBe(400);
    const missing = await search({});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toHaveProperty('text');
    expect((await search({ text: '1 Main St, Springfield', extra: 1 })).status).toBe(400);
  });

  it('answers 9 characters', async () => {
    expect((await search({ text: 'Boston MA' })).status).toBe(200);
  });

  it('finds a known address by its city, state and ZIP, with the parts the form fills', async () => {
    const [first, ...rest] = await suggestions('1600 Pennsylvania Ave NW, Washington DC 20500');
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      PlaceType: 'PointAddress',
      Address: {
        Label: '1600 Pennsylvania Ave NW, Washington, DC 20500, United States',
        AddressNumber: '1600',
        Street: 'Pennsylvania Ave NW',
        Locality: 'Washington',
        Region: { Code: 'DC', Name: 'District of Columbia' },
        PostalCode: '20500',
        Country: { Code2: 'US', Code3: 'USA' },
      },
    });
  });

  it('fills the city and state from a ZIP alone', async () => {
    const found = await suggestions('1 Main St, 62701');
    expect(found.map((item) => [item.Address.Locality, item.Address.Region?.Code, item.Address.PostalCode])).toEqual([
      ['Springfield', 'IL', '62701'],
    ]);
  });

  it('suggests the cities a partly typed name begins, one per city, at most five', async () => {
    const found = await suggestions('12 Main St, Springf');
    expect(found).toHaveLength(5);
    for (const item of found) {
      expect(item.Address.Locality).toMatch(/^Springf/);
      expect(item.Address.Label).toMatch(/^12 Main St, Springf/);
      expect(item.Address.PostalCode).toMatch(/^\d{5}$/);
    }
    const cities = found.map((item) => `${item.Address.Locality}, ${item.Address.Region?.Code}`);
    expect(new Set(cities).size).toBe(5);
    const inIllinois = await suggestions('12 Main St, Springfield, IL');
    expect(inIllinois.map((item) => item.Address.Label)).toEqual(['12 Main St, Springfield, IL 62701, United States']);
  });

  it('answers an empty list for text that is no US address', async () => {
    expect(await suggestions('qwertyuiop asdfghjkl')).toEqual([]);
    expect(await suggestions('1 Main St, Springfield, IL 99999')).toEqual([]);
    expect(await suggestions('1 Main St, Toronto ON')).toEqual([]);
  });
});
