/**
 * CSV for people to open in a spreadsheet. A cell that starts with = + - @ tab or carriage
 * return would be run as a formula by Excel or Sheets (CSV injection), so it gets a leading
 * apostrophe, as OWASP recommends; every cell is quoted.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return [header, ...rows].map((row) => row.map(escapeCell).join(',')).join('\r\n') + '\r\n';
}
