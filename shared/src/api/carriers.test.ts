import { describe, expect, it } from 'vitest';
import { carrierName, normalizeTracking, trackingProblem, trackingUrl } from './carriers';
import { MarkAsShippedRequest, shipmentOf } from './order-page';

describe('tracking numbers', () => {
  it.each([
    ['usps', '9400 1000 0000 0000 0000 00'],
    ['usps', 'EA123456789US'],
    ['ups', '1z999aa10123456784'],
    ['fedex', '1234-5678-9012'],
    ['dhl', '1234567890'],
    ['dhl', 'JJD000390007827140399'],
    ['other', 'Parcel 42 / bay 7'],
  ] as const)('accepts a %s number as printed: %s', (carrier, number) => {
    expect(trackingProblem(carrier, number)).toBeNull();
  });

  it.each([
    ['usps', '12345', 'USPS'],
    ['ups', '1Z123', 'UPS'],
    ['fedex', '1Z999AA10123456784', 'FedEx'],
    ['dhl', 'ABCDEFGHIJ', 'DHL'],
  ] as const)('refuses a number that is not %s’s, saying what one looks like', (carrier, number, name) => {
    expect(trackingProblem(carrier, number)).toMatch(
      new RegExp(
        `^This is not a ${name} tracking number: it has .+ \\(for example .+\\)\\. Check it, or choose another carrier\\.$`,
      ),
    );
  });

  it('refuses an empty number, one over 60 characters and one with a line break, whatever the carrier', () => {
    expect(trackingProblem('other', '   ')).toBe('Enter the tracking number.');
    expect(trackingProblem('other', 'x'.repeat(61))).toBe('A tracking number has at most 60 characters.');
    expect(trackingProblem('other', 'a\u0007b')).toBe('The tracking number has characters that cannot be printed.');
  });

  it('normalizes a known carrier’s number and keeps another’s words', () => {
    expect(normalizeTracking('ups', ' 1z 999-aa1 0123456784 ')).toBe('1Z999AA10123456784');
    expect(normalizeTracking('other', '  bay   7 ')).toBe('bay 7');
  });
});

describe('tracking pages', () => {
  it('link each known carrier’s own page with the number encoded, and nothing for another', () => {
    expect(trackingUrl('usps', '9400100000000000000000')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
    );
    expect(trackingUrl('ups', '1Z999AA10123456784')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(trackingUrl('fedex', '123456789012')).toBe('https://www.fedex.com/fedextrack/?trknbr=123456789012');
    expect(trackingUrl('dhl', '1234567890')).toBe(
      'https://www.dhl.com/us-en/home/tracking.html?tracking-id=1234567890&submit=1',
    );
    expect(trackingUrl('other', '123')).toBeNull();
    expect(carrierName('ups')).toBe('UPS');
    expect(carrierName('other', ' Speedy ')).toBe('Speedy');
  });
});

describe('the markAsShipped body', () => {
  const issues = (body: unknown) => {
    const result = MarkAsShippedRequest.safeParse(body);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
  };

  it("keeps the spec's { id } valid, with no shipment", () => {
    expect(MarkAsShippedRequest.safeParse({ id: 'o1' }).success).toBe(true);
    expect(shipmentOf(MarkAsShippedRequest.parse({ id: 'o1' }))).toBeNull();
  });

  it('takes a carrier with its number, normalized', () => {
    const body = MarkAsShippedRequest.parse({ id: 'o1', carrier: 'ups', trackingNumber: '1z999aa10123456784' });
    expect(shipmentOf(body)).toEqual({ carrier: 'ups', carrierName: null, trackingNumber: '1Z999AA10123456784' });
    const other = MarkAsShippedRequest.parse({
      id: 'o1',
      carrier: 'other',
      carrierName: ' Speedy ',
      trackingNumber: ' SP 1 ',
    });
    expect(shipmentOf(other)).toEqual({ carrier: 'other', carrierName: 'Speedy', trackingNumber: 'SP 1' });
  });

  it('names the field of each mistake', () => {
    expect(issues({ id: 'o1', trackingNumber: '123' })).toEqual({
      carrier: 'Choose the carrier of this tracking number.',
    });
    expect(issues({ id: 'o1', carrier: 'usps' })).toEqual({
      trackingNumber: 'Enter the tracking number the carrier gave, or leave the carrier empty.',
    });
    expect(Object.keys(issues({ id: 'o1', carrier: 'usps', trackingNumber: '1' }))).toEqual(['trackingNumber']);
    expect(issues({ id: 'o1', carrier: 'other', trackingNumber: 'x' })).toEqual({
      carrierName: 'Name the carrier, so the customer knows whose site to look on.',
    });
    expect(issues({ id: 'o1', carrier: 'ups', carrierName: 'x', trackingNumber: '1Z999AA10123456784' })).toEqual({
      carrierName: 'A carrier name is only needed when the carrier is "Other".',
    });
    expect(Object.keys(issues({ id: 'o1', carrier: 'pigeon', trackingNumber: '1' }))).toEqual(['carrier']);
    expect(Object.keys(issues({ id: 'o1', extra: 1 }))).toEqual(['']);
  });
});
