/**
 * The carriers an admin can name when marking an order shipped, the shape of each one's tracking
 * numbers, and the page where a customer follows a parcel. Pure: the server validates with it
 * (./order-page.ts), the admin's form checks as the admin types, and the order page
 * and the shipping mail build their links from it.
 *
 * The formats are those the carriers print on their labels (spaces and dashes as printed are
 * allowed and dropped; letters are upper-cased):
 * - USPS: Intelligent Mail package barcodes of 20, 22, 26, 30 or 34 digits, or an international
 *   (UPU S10) number: two letters, nine digits, two letters (EA123456789US);
 * - UPS: "1Z", then 16 letters or digits (1Z999AA10123456784), or "T" and 10 digits (freight);
 * - FedEx: 12, 14, 15, 20, 22 or 34 digits;
 * - DHL: 10 or 11 digits (Express), "JJD" and 18 digits or "JVGL" and 16 to 20 digits (Parcel),
 *   "GM" and 16 to 18 digits (eCommerce), or a UPU S10 number;
 * - Other: whatever the carrier prints (1 to 60 visible characters), shown without a link.
 */
/** The shipment fields' messages (the admin's form shows them as the server says them). */
export const CARRIER_WITHOUT_NUMBER = 'Enter the tracking number the carrier gave, or leave the carrier empty.';
export const NUMBER_WITHOUT_CARRIER = 'Choose the carrier of this tracking number.';
export const NAME_THE_CARRIER = 'Name the carrier, so the customer knows whose site to look on.';

export const KNOWN_CARRIERS = ['usps', 'ups', 'fedex', 'dhl'] as const;
export type KnownCarrier = (typeof KNOWN_CARRIERS)[number];
export const CARRIERS = [...KNOWN_CARRIERS, 'other'] as const;
export type Carrier = (typeof CARRIERS)[number];

export const CARRIER_LABELS: Record<Carrier, string> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  other: 'Other',
};

const S10 = '[A-Z]{2}\\d{9}[A-Z]{2}';
const FORMATS: Record<KnownCarrier, { pattern: RegExp; example: string; words: string }> = {
  usps: {
    pattern: new RegExp(`^(\\d{20}|\\d{22}|\\d{26}|\\d{30}|\\d{34}|${S10})$`),
    example: '9400 1000 0000 0000 0000 00',
    words: '20, 22, 26, 30 or 34 digits, or 2 letters, 9 digits and 2 letters',
  },
  ups: {
    pattern: /^(1Z[0-9A-Z]{16}|T\d{10})$/,
    example: '1Z999AA10123456784',
    words: '"1Z" and 16 letters or digits',
  },
  fedex: {
    pattern: /^(\d{12}|\d{14}|\d{15}|\d{20}|\d{22}|\d{34})$/,
    example: '123456789012',
    words: '12, 14, 15, 20, 22 or 34 digits',
  },
  dhl: {
    pattern: new RegExp(`^(\\d{10}|\\d{11}|JJD\\d{18}|JVGL\\d{16,20}|GM\\d{16,18}|${S10})$`),
    example: '1234567890',
    words: '10 or 11 digits, or "JJD" and 18 digits, or "GM" and 16 to 18 digits',
  },
};

export const MAX_TRACKING_LENGTH = 60;
export const MAX_CARRIER_NAME_LENGTH = 60;

export const isKnownCarrier = (carrier: string): carrier is KnownCarrier =>
  (KNOWN_CARRIERS as readonly string[]).includes(carrier);

/** A tracking number as the carrier's systems read it: a known carrier's without spaces or dashes, upper case; another's trimmed. */
export function normalizeTracking(carrier: Carrier, value: string): string {
  return carrier === 'other' ? value.trim().replace(/\s+/g, ' ') : value.replace(/[\s-]/g, '').toUpperCase();
}

/** What is wrong with a tracking number for this carrier, in words a person can act on; null when it is fine. */
export function trackingProblem(carrier: Carrier, value: string): string | null {
  const normalized = normalizeTracking(carrier, value);
  if (normalized === '') return 'Enter the tracking number.';
  if (normalized.length > MAX_TRACKING_LENGTH) {
    return `A tracking number has at most ${MAX_TRACKING_LENGTH} characters.`;
  }
  // Control characters never belong in a tracking number (a pasted line break, a tab).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(normalized)) return 'The tracking number has characters that cannot be printed.';
  if (carrier === 'other') return null;
  const format = FORMATS[carrier];
  if (format.pattern.test(normalized)) return null;
  return `This is not a ${CARRIER_LABELS[carrier]} tracking number: it has ${format.words} (for example ${format.example}). Check it, or choose another carrier.`;
}

/** An example of the carrier's numbers, for the field's hint. */
export const trackingExample = (carrier: KnownCarrier): string => FORMATS[carrier].example;

/** The carrier's own tracking page for a number, for the carriers the portal knows; null for any other. */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  if (!isKnownCarrier(carrier)) return null;
  const number = encodeURIComponent(normalizeTracking(carrier, trackingNumber));
  switch (carrier) {
    case 'usps':
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`;
    case 'ups':
      return `https://www.ups.com/track?tracknum=${number}`;
    case 'fedex':
      return `https://www.fedex.com/fedextrack/?trknbr=${number}`;
    case 'dhl':
      return `https://www.dhl.com/us-en/home/tracking.html?tracking-id=${number}&submit=1`;
  }
}

/** The name a customer reads: the known carrier's, or the one the admin typed for another. */
export function carrierName(carrier: string, otherName?: string | null): string {
  if (isKnownCarrier(carrier)) return CARRIER_LABELS[carrier];
  return otherName?.trim() || 'The carrier';
}
