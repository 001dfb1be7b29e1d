/** The parts of the `zipcodes` package (a US and Canada ZIP database, no types of its own) the local address search reads. */
declare module 'zipcodes' {
  export interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export const codes: Readonly<Record<string, ZipCode>>;
  export const states: { full: Readonly<Record<string, string>>; abbr: Readonly<Record<string, string>> };
}
