import { describe, expect, it } from 'vitest';
import { formatCents, MAX_PRICE_CENTS, parsePrice, quoteValue, youMakeCents } from './money';

describe('parsePrice', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['$1,299.00', 129900],
    [' 7.99 ', 799],
    ['$ 7.99', 799],
    ['.99', 99],
    ['0.01', 1],
    ['007.10', 710],
    ['1,000,000.00', MAX_PRICE_CENTS],
    ['$12,345', 1234500],
  ])('reads %j as %i cents', (text, cents) => {
    expect(parsePrice(text)).toEqual({ ok: true, cents });
  });

  it.each([
    ['', 'a price is required'],
    ['   ', 'a price is required'],
    ['-5', "'-5' is negative; a price must be greater than zero"],
    ['$-5.00', "'$-5.00' is negative; a price must be greater than zero"],
    ['-$5', "'-$5' is negative; a price must be greater than zero"],
    ['0', "'0' is zero; a price must be greater than zero"],
    ['$0.00', "'$0.00' is zero; a price must be greater than zero"],
    ['abc', "'abc' is not a price; write a number such as 12.50"],
    ['NaN', "'NaN' is not a price; write a number such as 12.50"],
    ['Infinity', "'Infinity' is not a price; write a number such as 12.50"],
    ['1e3', "'1e3' is not a price; write a number such as 12.50"],
    ['12 USD', "'12 USD' is not a price; write a number such as 12.50"],
    ['12.', "'12.' is not a price; write a number such as 12.50"],
    ['$', "'$' is not a price; write a number such as 12.50"],
    ['+5', "'+5' is not a price; write a number such as 12.50"],
    ['12.345', "'12.345' has more than two decimals"],
    ['12.500', "'12.500' has more than two decimals"],
    [
      '1,29.00',
      "'1,29.00' has a misplaced thousands separator; commas must separate groups of three digits, as in 1,299.00",
    ],
    [
      '1299,000.00',
      "'1299,000.00' has a misplaced thousands separator; commas must separate groups of three digits, as in 1,299.00",
    ],
    ['12,50', "'12,50' uses a comma for decimals; write the price with a dot, as in 12.50"],
    ['1000000.01', "'1000000.01' is more than the maximum of $1,000,000.00"],
    ['$2,000,000', "'$2,000,000' is more than the maximum of $1,000,000.00"],
    ['9'.repeat(400), `'${'9'.repeat(39)}…' is more than the maximum of $1,000,000.00`],
  ])('rejects %j', (text, message) => {
    expect(parsePrice(text)).toEqual({ ok: false, message });
  });
});

describe('formatCents', () => {
  it.each([
    [129900, '1299.00'],
    [5, '0.05'],
    [0, '0.00'],
    [130, '1.30'],
    [100_000_000, '1000000.00'],
    [-150, '-1.50'],
  ])('%i cents', (cents, plain) => {
    expect(formatCents(cents)).toBe(plain);
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });
});

describe('youMakeCents', () => {
  it.each([
    [1295, 130],
    [1294, 129],
    [1250, 125],
    [999, 100],
    [995, 100],
    [994, 99],
    [5, 1],
    [4, 0],
    [0, 0],
    [129900, 12990],
  ])('%i cents -> %i cents', (dropship, youMake) => {
    expect(youMakeCents(dropship)).toBe(youMake);
  });

  it('agrees with exact decimal half-up rounding for every amount up to $100', () => {
    const mismatches: number[] = [];
    for (let cents = 0; cents <= 10_000; cents += 1) {
      // 10 % of n cents is n/10 cents; half up to a whole cent, without floating point.
      const expected = Math.floor(cents / 10) + (cents % 10 >= 5 ? 1 : 0);
      if (youMakeCents(cents) !== expected) mismatches.push(cents);
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses negative and fractional input', () => {
    expect(() => youMakeCents(-1)).toThrow(RangeError);
    expect(() => youMakeCents(12.5)).toThrow(RangeError);
  });
});

describe('quoteValue', () => {
  it('keeps messages on one line and short', () => {
    expect(quoteValue('a\nb')).toBe("'a b'");
    expect(quoteValue('x'.repeat(50))).toBe(`'${'x'.repeat(39)}…'`);
  });
});
