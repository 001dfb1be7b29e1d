/**
 * Reads a US address as a member types it, for the embedded address search:
 * "1600 Pennsylvania Ave NW, Washington DC 20500" → number 1600, street "Pennsylvania Ave NW",
 * city "Washington", state DC, ZIP 20500. Partial typing is kept as a prefix: "12 Main St, Springf"
 * → city prefix "Springf"; "…, 2050" → ZIP prefix "2050".
 *
 * The street is the first comma-separated part when it starts with a house number; what follows
 * is the city, then the state (a 2-letter code or a full name from `states`) and the ZIP, with or
 * without commas between them.
 */
export interface TypedAddress {
  addressNumber?: string;
  street?: string;
  /** The city as typed (maybe its beginning). */
  city?: string;
  /** 2-letter code, upper case. */
  state?: string;
  /** 5 digits when complete, fewer while typing (a prefix). */
  zip?: string;
}

/** Upper-case state name → 2-letter code (e.g. "NEW YORK" → "NY"). */
export type StateNames = ReadonlyMap<string, string>;

const HOUSE_NUMBER = /^(\d+[A-Za-z]?(?:-\d+)?)\s+(\S.*)$/;
const ZIP_AT_END = /(?:^|[\s,])(\d{3,5})(?:-\d{0,4})?$/;

export function parseTypedAddress(text: string, states: StateNames): TypedAddress {
  const parts = text
    .replace(/\s+/g, ' ')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const result: TypedAddress = {};
  const first = parts[0];
  if (first === undefined) return result;

  const house = HOUSE_NUMBER.exec(first);
  if (house && parts.length > 1) {
    result.addressNumber = house[1]!;
    result.street = house[2]!;
    parts.shift();
  } else if (house && parts.length === 1) {
    // "1600 Pennsylvania Ave NW Washington DC 20500" without commas: the street runs up to the
    // city, which cannot be told apart; keep the whole as the street and read a trailing ZIP/state.
    result.addressNumber = house[1]!;
    result.street = house[2]!;
    const tail = readTail(house[2]!, states);
    if (tail.zip) result.zip = tail.zip;
    if (tail.state) result.state = tail.state;
    if (tail.zip || tail.state) result.street = tail.rest || house[2]!;
    return result;
  }

  const tail = readTail(parts.join(' '), states);
  if (tail.zip) result.zip = tail.zip;
  if (tail.state) result.state = tail.state;
  if (tail.rest) result.city = tail.rest;
  return result;
}

/** Takes a ZIP, then a state off the end of `text`; what is left is the city. */
function readTail(text: string, states: StateNames): { zip?: string; state?: string; rest: string } {
  let rest = text.trim();
  let zip: string | undefined;
  const zipMatch = ZIP_AT_END.exec(rest);
  if (zipMatch) {
    zip = zipMatch[1]!;
    rest = rest.slice(0, zipMatch.index).trim();
  }
  let state: string | undefined;
  const words = rest.split(' ').filter(Boolean);
  // The longest state name ending the text wins ("West Virginia" before "Virginia").
  for (let take = Math.min(3, words.length); take >= 1 && !state; take--) {
    const candidate = words
      .slice(words.length - take)
      .join(' ')
      .toUpperCase();
    const code = stateCode(candidate, states);
    // A lone word that is the whole text is a city being typed ("Washington"), not a state.
    if (code && take < words.length) {
      state = code;
      rest = words.slice(0, words.length - take).join(' ');
    }
  }
  return { zip, state, rest: rest.replace(/[\s,]+$/, '') };
}

function stateCode(candidate: string, states: StateNames): string | undefined {
  if (/^[A-Z]{2}$/.test(candidate)) {
    for (const code of states.values()) if (code === candidate) return code;
    return undefined;
  }
  return states.get(candidate);
}
