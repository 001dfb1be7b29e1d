import { describe, expect, it } from 'vitest';
import { parseTypedAddress } from './parse-address';

const states = new Map([
  ['DISTRICT OF COLUMBIA', 'DC'],
  ['ILLINOIS', 'IL'],
  ['NEW YORK', 'NY'],
  ['VIRGINIA', 'VA'],
  ['WEST VIRGINIA', 'WV'],
  ['WASHINGTON', 'WA'],
]);
const parse = (text: string) => parseTypedAddress(text, states);

describe('parseTypedAddress', () => {
  it('reads number, street, city, state code and ZIP', () => {
    expect(parse('1600 Pennsylvania Ave NW, Washington DC 20500')).toEqual({
      addressNumber: '1600',
      street: 'Pennsylvania Ave NW',
      city: 'Washington',
      state: 'DC',
      zip: '20500',
    });
    expect(parse('1600 Pennsylvania Ave NW, Washington, DC, 20500-0003')).toMatchObject({
      city: 'Washington',
      state: 'DC',
      zip: '20500',
    });
  });

  it('reads a full state name, the longest one that ends the text', () => {
    expect(parse('350 5th Ave, New York New York 10118')).toEqual({
      addressNumber: '350',
      street: '5th Ave',
      city: 'New York',
      state: 'NY',
      zip: '10118',
    });
    expect(parse('1 Main St, Charleston, West Virginia')).toMatchObject({ city: 'Charleston', state: 'WV' });
  });

  it('keeps partial typing as prefixes: a city being typed, a ZIP being typed', () => {
    expect(parse('12 Main St, Springf')).toEqual({ addressNumber: '12', street: 'Main St', city: 'Springf' });
    expect(parse('12 Main St, Springfield, IL 627')).toEqual({
      addressNumber: '12',
      street: 'Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '627',
    });
  });

  it('does not take a lone city for a state, nor an unknown two letters for one', () => {
    expect(parse('1 Main St, Washington')).toMatchObject({ city: 'Washington' });
    expect(parse('1 Main St, Washington')).not.toHaveProperty('state');
    expect(parse('1 Main St, Springfield ZZ')).toEqual({
      addressNumber: '1',
      street: 'Main St',
      city: 'Springfield ZZ',
    });
  });

  it('reads a city without a street, and a street without commas', () => {
    expect(parse('Springfield, IL')).toEqual({ city: 'Springfield', state: 'IL' });
    expect(parse('1600 Pennsylvania Ave 20500')).toEqual({
      addressNumber: '1600',
      street: 'Pennsylvania Ave',
      zip: '20500',
    });
  });

  it('finds nothing in text without an address', () => {
    expect(parse('   ')).toEqual({});
    expect(parse(',,,')).toEqual({});
  });
});
