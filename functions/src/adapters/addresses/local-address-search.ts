import { createHash } from 'node:crypto';
import type { AddressSuggestion } from '@portal/shared/api/address';
import type { AddressSearch } from '../../addresses/address-search';
import { localAwsCheck } from '../../config/local-aws-check';
import { parseTypedAddress, type StateNames, type TypedAddress } from '../../addresses/parse-address';

/**
 * The embedded address search behind `npm start` and the tests: the typed text is read by
 * parseTypedAddress, and its city, state and ZIP are matched against the US ZIP database of the
 * `zipcodes` npm package (about 41 000 US ZIP codes with their city and state, shipped offline).
 * The street is the member's own (no street database ships offline); the answer has the shape
 * Amazon Location's Places v2 Autocomplete answers.
 *
 * This module is never bundled into a Lambda function: composition.ts loads it with a dynamic
 * import only when ADDRESS_SEARCH=local (the database is some 5 MB of JavaScript).
 */

interface Place {
  zip: string;
  city: string;
  state: string;
}

interface Database {
  places: Place[];
  byZip: Map<string, Place>;
  states: StateNames;
  stateNames: Map<string, string>;
}

let database: Promise<Database> | undefined;

/** Loads the ZIP database on the first search (a module of several MB). */
function load(): Promise<Database> {
  database ??= import('zipcodes').then((module) => {
    const zipcodes = module.default;
    const places = Object.values(zipcodes.codes)
      .filter((code) => code.country === 'US' && /^\d{5}$/.test(code.zip))
      .map((code) => ({ zip: code.zip, city: code.city, state: code.state }))
      .sort((a, b) => a.zip.localeCompare(b.zip));
    const usCodes = new Set(places.map((place) => place.state));
    const states = new Map(Object.entries(zipcodes.states.full).filter(([, code]) => usCodes.has(code)));
    const stateNames = new Map([...states].map(([name, code]) => [code, titleCase(name)]));
    return { places, byZip: new Map(places.map((place) => [place.zip, place])), states, stateNames };
  });
  return database;
}

const titleCase = (text: string) =>
  text
    .toLowerCase()
    .replace(/\b[a-z]/g, (letter) => letter.toUpperCase())
    .replace(/ Of /g, ' of ');
const fold = (text: string) =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

/** The places matching what was typed, best first. */
function matches(db: Database, typed: TypedAddress): Place[] {
  const city = typed.city ? fold(typed.city) : undefined;
  if (!typed.zip && !city) return [];
  const exact = typed.zip?.length === 5 ? db.byZip.get(typed.zip) : undefined;
  const pool = exact ? [exact] : db.places;
  const found = pool.filter(
    (place) =>
      (!typed.zip || place.zip.startsWith(typed.zip)) &&
      (!typed.state || place.state === typed.state) &&
      (!city || fold(place.city).startsWith(city)),
  );
  // A city typed in full comes before longer names it begins ("Springfield" before "Springfield Gardens").
  return found.sort(
    (a, b) => Number(city !== undefined && fold(b.city) === city) - Number(city !== undefined && fold(a.city) === city),
  );
}

function suggestion(db: Database, typed: TypedAddress, place: Place): AddressSuggestion {
  const street = typed.street ? [typed.addressNumber, typed.street].filter(Boolean).join(' ') : undefined;
  const label = [street, place.city, `${place.state} ${place.zip}`, 'United States'].filter(Boolean).join(', ');
  return {
    PlaceId: `local.${createHash('sha256').update(label).digest('base64url').slice(0, 22)}`,
    PlaceType: typed.addressNumber ? 'PointAddress' : typed.street ? 'Street' : 'PostalCode',
    Title: label,
    Address: {
      Label: label,
      Country: { Code2: 'US', Code3: 'USA', Name: 'United States' },
      Region: { Code: place.state, Name: db.stateNames.get(place.state) ?? place.state },
      Locality: place.city,
      PostalCode: place.zip,
      ...(typed.street ? { Street: typed.street } : {}),
      ...(typed.addressNumber ? { AddressNumber: typed.addressNumber } : {}),
    },
  };
}

export const localAddressSearch: AddressSearch = {
  async suggest(text, limit) {
    // Amazon Location would check the function's role for geo-places:Autocomplete first.
    await localAwsCheck('GeoPlacesClient', 'AutocompleteCommand', { QueryText: text });
    const db = await load();
    const typed = parseTypedAddress(text, db.states);
    const seen = new Set<string>();
    const results: AddressSuggestion[] = [];
    for (const place of matches(db, typed)) {
      // Without a ZIP typed, one suggestion per city (its first ZIP); with one, one per ZIP.
      const key = typed.zip ? place.zip : `${place.city}|${place.state}`;
      if (seen.has(key)) continue;
      seen.add(key);
      results.push(suggestion(db, typed, place));
      if (results.length === limit) break;
    }
    return results;
  },
};
