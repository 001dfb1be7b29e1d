import { formatMoney } from './format';

/**
 * Money as integer cents. Every amount the portal stores or computes with is a safe integer
 * number of US cents; dollars with two decimals exist only as text at the edges (CSV input,
 * API output, screens). Nothing here multiplies or divides floating-point dollars.
 */

/** The largest price a supplier row may carry: $1,000,000.00. Anything above is a typo. */
export const MAX_PRICE_CENTS = 100_000_000;

/** 'You Make' is this percentage of the dropshipping (sell) price (spec section 9). */
export const YOU_MAKE_PERCENT = 10;

export type ParsePriceResult = { ok: true; cents: number } | { ok: false; message: string };

/** Plain digits, or digits grouped in threes by commas; then an optional fraction. */
const PRICE_PATTERN = /^(?<int>[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)?(?:\.(?<frac>[0-9]+))?$/;
/** '12,50': a comma used as the decimal separator. */
const DECIMAL_COMMA_PATTERN = /^[0-9]+,[0-9]{1,2}$/;
const SIGN_PATTERN = /^[-−]|^\$\s*[-−]/;
const MAX_VALUE_TEXT = 40;

/**
 * Reads a supplier price such as '12', '12.5', '12.50', '$1,299.00' or ' 7.99 ' into cents.
 * Accepted: surrounding spaces, one leading '$', thousands commas in groups of three, at most
 * two decimals. Rejected with a message naming the value: empty text, anything that is not
 * such a number (abc, NaN, Infinity, 1e3, 12 USD), zero, negative amounts, more than two
 * decimals, misplaced commas and amounts above $1,000,000.00.
 *
 * The message reads on after "Row 7, column msrp_us: ", e.g. "'12.345' has more than two decimals".
 */
export function parsePrice(text: string): ParsePriceResult {
  // Most prices are written '12.50' or '12': read them without the general rules' patterns.
  const cents = plainPriceCents(text);
  if (cents !== -1 && cents <= MAX_PRICE_CENTS) return { ok: true, cents };
  return parsePriceInFull(text);
}

const DIGIT_0 = 0x30;
const DIGIT_1 = 0x31;
const DIGIT_9 = 0x39;
const DOT = 0x2e;
/** The most digits a price's whole part can have (MAX_PRICE_CENTS is $1,000,000.00). */
const MAX_WHOLE_DIGITS = 7;

/**
 * The cents of a plain price, or -1: '12.50' or '12', that is 1 to 7 digits without a leading zero,
 * then two decimals or none; no spaces, sign, symbol or commas. Read a character at a time: the
 * regular expression it replaces (/^([1-9][0-9]{0,6})(?:\.([0-9]{2}))?$/) made a match array
 * and two strings for every price.
 */
function plainPriceCents(text: string): number {
  const first = text.charCodeAt(0);
  if (!(first >= DIGIT_1 && first <= DIGIT_9)) return -1;
  let whole = 0;
  let at = 0;
  for (; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code < DIGIT_0 || code > DIGIT_9) break;
    if (at === MAX_WHOLE_DIGITS) return -1;
    whole = whole * 10 + (code - DIGIT_0);
  }
  if (at === text.length) return whole * 100;
  if (text.charCodeAt(at) !== DOT || text.length !== at + 3) return -1;
  const tens = text.charCodeAt(at + 1) - DIGIT_0;
  const units = text.charCodeAt(at + 2) - DIGIT_0;
  if (tens < 0 || tens > 9 || units < 0 || units > 9) return -1;
  return whole * 100 + tens * 10 + units;
}

/** parsePrice without its fast path for plain prices. */
export function parsePriceInFull(text: string): ParsePriceResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail('a price is required');
  const shown = quoteValue(trimmed);
  if (SIGN_PATTERN.test(trimmed)) return fail(`${shown} is negative; a price must be greater than zero`);
  const unsigned = trimmed.replace(/^\$\s*/, '');
  const match = PRICE_PATTERN.exec(unsigned);
  const intText = match?.groups?.int;
  const fracText = match?.groups?.frac;
  if (!match || (intText === undefined && fracText === undefined)) return fail(explainNotAPrice(unsigned, shown));
  if (fracText !== undefined && fracText.length > 2) return fail(`${shown} has more than two decimals`);
  const digits = (intText ?? '0').replaceAll(',', '').replace(/^0+(?=[0-9])/, '');
  // Checked on the digit count first so that a 400-digit value never meets Number().
  if (digits.length > 7) return tooLarge(shown);
  const cents = Number(digits) * 100 + Number((fracText ?? '').padEnd(2, '0'));
  if (cents === 0) return fail(`${shown} is zero; a price must be greater than zero`);
  if (cents > MAX_PRICE_CENTS) return tooLarge(shown);
  return { ok: true, cents };
}

function explainNotAPrice(unsigned: string, shown: string): string {
  if (DECIMAL_COMMA_PATTERN.test(unsigned)) {
    return `${shown} uses a comma for decimals; write the price with a dot, as in ${unsigned.replace(',', '.')}`;
  }
  if (/^[0-9,]*(\.[0-9]*)?$/.test(unsigned) && unsigned.includes(',') && /[0-9]/.test(unsigned)) {
    return `${shown} has a misplaced thousands separator; commas must separate groups of three digits, as in 1,299.00`;
  }
  return `${shown} is not a price; write a number such as 12.50`;
}

function tooLarge(shown: string): ParsePriceResult {
  return fail(`${shown} is more than the maximum of ${formatMoney(MAX_PRICE_CENTS)}`);
}

function fail(message: string): ParsePriceResult {
  return { ok: false, message };
}

/** A value as it appears in a message: quoted, on one line, shortened when long. */
export function quoteValue(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  const short = oneLine.length > MAX_VALUE_TEXT ? `${oneLine.slice(0, MAX_VALUE_TEXT - 1)}…` : oneLine;
  return `'${short}'`;
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Expected a whole number of cents, got ${cents}`);
}

/**
 * 129900 -> '1299.00', 5 -> '0.05', -150 -> '-1.50'. No currency sign, no grouping: the API's
 * and the CSV's wire format. For people, write money with `formatMoney` (format.ts).
 */
export function formatCents(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  const dollars = Math.trunc(magnitude / 100);
  const rest = magnitude % 100;
  return `${sign}${dollars}.${String(rest).padStart(2, '0')}`;
}

/**
 * 'You Make': 10 % of the dropshipping price, to the cent, rounded half up. The one rule the
 * server and both apps use.
 *
 * Computed as cents * 10 / 100 in integers: the remainder of the division by 100 decides the
 * rounding (below 50 rounds down, 50 and above rounds up). Examples: 1295 -> 130
 * (12.95 * 0.1 = 1.295 -> 1.30); 1294 -> 129 (1.294 -> 1.29); 999 -> 100 (0.999 -> 1.00);
 * 4 -> 0. No floating-point dollars are involved, so 12.95 * 0.1 never becomes 1.2949999.
 */
export function youMakeCents(dropshipCents: number): number {
  assertCents(dropshipCents);
  if (dropshipCents < 0) throw new RangeError(`A price cannot be negative, got ${dropshipCents} cents`);
  const scaled = dropshipCents * YOU_MAKE_PERCENT;
  assertCents(scaled);
  const remainder = scaled % 100;
  const whole = (scaled - remainder) / 100;
  return remainder >= 50 ? whole + 1 : whole;
}

/**
 * A commission's share of refunds, to the cent: round(C × R / T) rounded half up, in integers, for
 * a commission of C cents after R of an order's T cents were refunded. Computed on the running
 * refunded total, so partial refunds add up to exactly C when the order is refunded in full.
 */
export function commissionShareOfRefund(commissionCents: number, refundedCents: number, totalCents: number): number {
  if (totalCents <= 0) return 0;
  const refunded = Math.min(Math.max(refundedCents, 0), totalCents);
  return Math.floor((2 * commissionCents * refunded + totalCents) / (2 * totalCents));
}

/** Dollars with two decimals appear only at the API edge (a number of the answer); inside, everything is integer cents. */
export const dollars = (cents: number): number => cents / 100;
