import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDate, formatDollarText, formatMoney, ordinal } from './format';

describe('formatDate', () => {
  it.each([
    ['2026-11-01T20:08:00Z', 'November 1st, 2026 8:08 PM'],
    ['2026-11-02T20:08:00Z', 'November 2nd, 2026 8:08 PM'],
    ['2026-11-03T20:08:00Z', 'November 3rd, 2026 8:08 PM'],
    ['2026-11-04T20:08:00Z', 'November 4th, 2026 8:08 PM'],
    ['2026-11-11T20:08:00Z', 'November 11th, 2026 8:08 PM'],
    ['2026-11-12T20:08:00Z', 'November 12th, 2026 8:08 PM'],
    ['2026-11-13T20:08:00Z', 'November 13th, 2026 8:08 PM'],
    ['2026-11-21T20:08:00Z', 'November 21st, 2026 8:08 PM'],
    ['2026-11-22T20:08:00Z', 'November 22nd, 2026 8:08 PM'],
    ['2026-11-23T20:08:00Z', 'November 23rd, 2026 8:08 PM'],
    ['2026-12-31T20:08:00Z', 'December 31st, 2026 8:08 PM'],
  ])('writes %s as %s', (iso, text) => {
    expect(formatDate(iso, 'UTC')).toBe(text);
  });

  it('writes midnight as 12:00 AM and noon as 12:00 PM', () => {
    expect(formatDate('2026-03-05T00:00:00Z', 'UTC')).toBe('March 5th, 2026 12:00 AM');
    expect(formatDate('2026-03-05T12:00:00Z', 'UTC')).toBe('March 5th, 2026 12:00 PM');
    expect(formatDate('2026-03-05T00:59:00Z', 'UTC')).toBe('March 5th, 2026 12:59 AM');
    expect(formatDate('2026-03-05T09:05:00Z', 'UTC')).toBe('March 5th, 2026 9:05 AM');
  });

  it('shows the moment in the given time zone, including the day it falls on there', () => {
    const moment = '2026-11-22T01:08:00Z';
    expect(formatDate(moment, 'UTC')).toBe('November 22nd, 2026 1:08 AM');
    expect(formatDate(moment, 'America/New_York')).toBe('November 21st, 2026 8:08 PM');
    expect(formatDate(moment, 'Asia/Tokyo')).toBe('November 22nd, 2026 10:08 AM');
    expect(formatDate(new Date(moment), 'America/Los_Angeles')).toBe('November 21st, 2026 5:08 PM');
  });

  it('uses the runtime’s time zone when none is given', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const moment = new Date('2026-07-04T15:30:00Z');
    expect(formatDate(moment)).toBe(formatDate(moment, zone));
  });

  it('returns text that is not a date as it is', () => {
    expect(formatDate('not a date', 'UTC')).toBe('not a date');
    expect(formatDate(new Date(Number.NaN), 'UTC')).toBe('');
  });
});

describe('ordinal', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [10, '10th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [31, '31st'],
    [111, '111th'],
    [101, '101st'],
  ])('%i -> %s', (day, text) => {
    expect(ordinal(day)).toBe(text);
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [20_000, '20,000'],
    [1_234_567, '1,234,567'],
    [-4500, '-4,500'],
  ])('%i -> %s', (count, text) => {
    expect(formatCount(count)).toBe(text);
  });

  it('groups digits exactly as Intl.NumberFormat en-US does (written out, issue 16)', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    for (const count of [0, 7, 999, 1_000, 20_000, 999_999, 1_000_000, 1_234_567_890, -1, -1_500, -987_654_321]) {
      expect(formatCount(count)).toBe(intl.format(count));
    }
    expect(formatCount(Number.MAX_SAFE_INTEGER)).toBe(intl.format(Number.MAX_SAFE_INTEGER));
  });

  it('refuses a count that is not a whole number', () => {
    expect(() => formatCount(1.5)).toThrow(RangeError);
    expect(() => formatCount(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it.each([
    [104900, '$1,049.00'],
    [129900, '$1,299.00'],
    [5, '$0.05'],
    [0, '$0.00'],
    [130, '$1.30'],
    [100_000_000, '$1,000,000.00'],
    [-150, '-$1.50'],
    // Far beyond any price: still exact, because nothing is divided as a float.
    [900_719_925_474_099, '$9,007,199,254,740.99'],
  ])('%i cents -> %s', (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
    expect(() => formatMoney(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('formatDollarText', () => {
  it.each([
    ['1049.00', '$1,049.00'],
    ['24.99', '$24.99'],
    ['0.05', '$0.05'],
    ['1000000.00', '$1,000,000.00'],
  ])('the API amount %s -> %s', (amount, text) => {
    expect(formatDollarText(amount)).toBe(text);
  });

  it('shows text that is not a two-decimal amount as it came', () => {
    expect(formatDollarText('12.5')).toBe('$12.5');
    expect(formatDollarText('')).toBe('$');
  });
});

describe('formatBytes', () => {
  it.each([
    [12, '12 bytes'],
    [1023, '1,023 bytes'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5 MB'],
    [150 * 1024 * 1024, '150 MB'],
    [2048 * 1024 * 1024 * 1024, '2,048 GB'],
  ])('%i -> %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
