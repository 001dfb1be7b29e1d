/**
 * How the portal writes dates, counts and money for people: both apps' screens and the server's
 * messages go through this one module, so "20,000", "$1,049.00" and "November 21st, 2026 8:08 PM"
 * read the same everywhere. (The API's wire format for money, "1049.00", is `formatCents` in
 * money.ts: it is data, not display.)
 *
 * Everything is US English, as the spec's screens are; only the time zone follows the viewer.
 */

/**
 * A whole number with US digit grouping (20000 -> '20,000'), written out rather than by
 * Intl.NumberFormat: creating that formatter loads ICU data, 16 ms in a cold function and 20–100 ms
 * in the browser task that renders the first price (issue 16). Only for safe integers, whose
 * String() has no exponent.
 */
function groupDigits(whole: number): string {
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return whole < 0 ? `-${digits}` : digits;
}

/** 20000 -> '20,000'. Counts are whole numbers; anything else is a mistake upstream. */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) throw new RangeError(`Expected a whole number to count, got ${count}`);
  return groupDigits(count);
}

/** 1536 -> '1.5 KB', 5_242_880 -> '5 MB', 12 -> '12 bytes' (binary units, as file choosers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? formatCount(Math.round(value)) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/**
 * 104900 -> '$1,049.00', 5 -> '$0.05', -150 -> '-$1.50'. The amount is integer cents (see
 * money.ts); dollars and cents are split in integers, so no floating-point dollars appear.
 */
export function formatMoney(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Expected a whole number of cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  const rest = magnitude % 100;
  const dollars = (magnitude - rest) / 100;
  return `${sign}$${groupDigits(dollars)}.${String(rest).padStart(2, '0')}`;
}

/** The API's two-decimal dollar text ('1049.00', see the `Dollars` schema). */
const DOLLAR_TEXT = /^(?<dollars>\d+)\.(?<cents>\d{2})$/;

/**
 * '1049.00' (an amount as the API sends it) -> '$1,049.00'. Read into integer cents first, then
 * written by `formatMoney`. Text that is not such an amount is shown as it came, after a '$'.
 */
export function formatDollarText(amount: string): string {
  const groups = DOLLAR_TEXT.exec(amount)?.groups;
  const dollars = Number(groups?.dollars);
  if (!groups || !Number.isSafeInteger(dollars * 100)) return `$${amount}`;
  return formatMoney(dollars * 100 + Number(groups.cents));
}

/** 1 -> '1st', 2 -> '2nd', 3 -> '3rd', 4 -> '4th', 11 -> '11th', 12 -> '12th', 21 -> '21st'. */
export function ordinal(day: number): string {
  const lastTwo = day % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${day}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      // 12-hour clock that counts 12, 1 … 11: midnight is 12:00 AM and noon 12:00 PM.
      hourCycle: 'h12',
    });
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * A moment as the spec's tables write it: month name, day ordinal, year and time, e.g.
 * 'November 21st, 2026 8:08 PM', in `timeZone` (an IANA name; by default the viewer's own).
 * Takes a Date or an ISO timestamp; text that is not a date is returned as it is.
 */
export function formatDate(value: Date | string, timeZone?: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of dateFormat(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const { month, day, year, hour, minute, dayPeriod } = parts;
  return `${month} ${ordinal(Number(day))}, ${year} ${hour}:${minute} ${dayPeriod}`;
}
