import { daysInMonth, FIRST_LISTED_BIRTH_YEAR, STRIPE_TEST_BIRTH_YEARS } from '@portal/shared/api/payments';

/** The tax ID as typed, with dashes inserted (123-45-6789): digits only, at most nine. */
export function formatTaxId(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/** A card number in groups of four (Amex 4-6-5), at most 19 digits. */
export function formatCardNumber(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 19);
  if (/^3[47]/.test(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The expiry as typed, "MM / YY". */
export function formatExpiry(typed: string): string {
  let digits = typed.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/**
 * The years of the birth-year dropdown, newest first, down to the spec's 1937; while Stripe is in
 * test mode, then Stripe's test years (1902, 1901, 1900), whose dates verify or fail on purpose.
 */
export function birthYears(today: Date, testMode = false): number[] {
  const years: number[] = [];
  for (let year = today.getFullYear(); year >= FIRST_LISTED_BIRTH_YEAR; year--) years.push(year);
  return testMode ? [...years, ...STRIPE_TEST_BIRTH_YEARS] : years;
}

/** The days the day dropdown offers: 1 to the last day of the month (of a leap year when none is chosen yet). */
export function dayCount(month: number | null, year: number | null): number {
  if (!month) return 31;
  return daysInMonth(month, year ?? 2000);
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** What Stripe would refuse of a card anyway, checked in the browser in Stripe's words (both card forms). */
export function checkCard(
  values: Record<'number' | 'expiry' | 'cvc', string>,
  now: Date,
): Partial<Record<'number' | 'expiry' | 'cvc', string>> {
  const errors: Partial<Record<'number' | 'expiry' | 'cvc', string>> = {};
  const digits = values.number.replace(/\D/g, '');
  if (!digits) errors.number = 'Enter your card number.';
  else if (digits.length < 13) errors.number = 'Your card number is incomplete.';
  const [month, year] = values.expiry.split('/').map((part) => Number(part.trim()));
  if (!values.expiry.trim()) errors.expiry = "Enter your card's expiration date.";
  else if (!month || !year || month < 1 || month > 12 || String(year).length !== 2) {
    errors.expiry = "Your card's expiration date is incomplete.";
  } else {
    const fullYear = 2000 + year;
    if (fullYear < now.getFullYear() || (fullYear === now.getFullYear() && month < now.getMonth() + 1)) {
      errors.expiry = "Your card's expiration date is in the past.";
    }
  }
  if (!/^\d{3,4}$/.test(values.cvc)) errors.cvc = "Your card's security code is incomplete.";
  return errors;
}
