import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  checkProductRow,
  checkWebAddress,
  mapHeader,
  normalizeText,
  parseWebAddress,
  withoutFormulaGuard,
  type CsvColumn,
} from './csv-product';
import { parsePrice, parsePriceInFull } from './money';
import { seededRandom } from '../../../test/fixtures/csv/generate-large';

/**
 * The validator's fast paths (a value already in normal form is returned without the costlier
 * general step) against the general step, on values generated from a fixed seed out of the
 * pieces most likely to tell them apart.
 */

function joined(next: () => number, pieces: readonly string[], max: number): string {
  const count = Math.floor(next() * (max + 1));
  let text = '';
  for (let i = 0; i < count; i++) text += pieces[Math.floor(next() * pieces.length)]!;
  return text;
}

const SCHEMES = ['https://', 'http://', 'HTTPS://', 'ftp://', 'https:/', 'https:', '//', 'javascript:', ''];
const HOST_PIECES = [
  'a',
  'img',
  'cdn',
  'Z',
  '0',
  '9',
  '-',
  '.',
  'xn--',
  'xn--p1ai',
  '0x7f',
  '1',
  '_',
  '@',
  ':',
  ' ',
  'é',
  '%41',
];
const PATH_PIECES = [
  '/',
  'spu',
  'A',
  '1',
  '.',
  '..',
  '-',
  '_',
  '~',
  '.jpg',
  '%20',
  ' ',
  '\\',
  '?',
  '#',
  'é',
  ':',
  '@',
  '//',
];

describe('checkWebAddress', () => {
  it('gives what URL parsing gives on 30 000 generated addresses', () => {
    const next = seededRandom(16);
    const differing: string[] = [];
    let canonical = 0;
    for (let i = 0; i < 30_000; i++) {
      // Half from pieces that make likely-canonical addresses, half from all pieces.
      const likely = next() < 0.5;
      const text =
        (likely ? ['https://', 'http://'] : SCHEMES)[Math.floor(next() * (likely ? 2 : SCHEMES.length))]! +
        joined(next, likely ? HOST_PIECES.slice(0, 8) : HOST_PIECES, 6) +
        joined(next, likely ? PATH_PIECES.slice(0, 9) : PATH_PIECES, 8);
      const general = parseWebAddress(text);
      if (JSON.stringify(checkWebAddress(text)) !== JSON.stringify(general)) differing.push(text);
      if (general.ok && general.href === text) canonical += 1;
    }
    expect(differing).toEqual([]);
    // Enough of them are canonical for the fast path to be exercised.
    expect(canonical).toBeGreaterThan(2_000);
  });

  it('takes the fast path for an image address as suppliers write them', () => {
    expect(checkWebAddress('https://img.northwind-cdn.test/spu/SPU-1000000/1.jpg')).toEqual({
      ok: true,
      href: 'https://img.northwind-cdn.test/spu/SPU-1000000/1.jpg',
    });
  });
});

// Control characters are exactly what this pattern is for.
// eslint-disable-next-line no-control-regex
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]+/g;
const TEXT_PIECES = [
  'a',
  'Z',
  '9',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2003',
  '\ufeff',
  'e\u0301',
  'é',
  "'",
  '=',
  '-',
  '😀',
  '~',
];

describe('normalizeText and withoutFormulaGuard', () => {
  it('give what the general rules give on 30 000 generated values', () => {
    const next = seededRandom(17);
    for (let i = 0; i < 50_000; i++) {
      const text = joined(next, TEXT_PIECES, 8);
      expect(normalizeText(text), JSON.stringify(text)).toBe(
        text.normalize('NFC').replace(SPACE_OR_CONTROL, ' ').trim(),
      );
      expect(withoutFormulaGuard(text), JSON.stringify(text)).toBe(text.replace(/^(\s*)'(?=[=+\-@\t\r])/, '$1'));
    }
  });
});

const PRICE_PIECES = ['0', '1', '5', '9', '.', ',', ' ', '$', '-', '00', '99', '1000000', 'e'];

describe('parsePrice', () => {
  it.each([
    '12.50',
    '12',
    '1000000',
    '1000000.00',
    '1000000.01',
    '9999999.99',
    '10000000',
    '12.5',
    '12.',
    '.50',
    '01.00',
    '1.000',
    '12.5a',
    '1 2',
    '\u0663',
    '12.\uff15\uff10',
    '',
  ])('reads %j as the general rules do', (text) => {
    expect(parsePrice(text)).toEqual(parsePriceInFull(text));
  });

  it('gives what the general rules give on 30 000 generated prices', () => {
    const next = seededRandom(18);
    const differing: string[] = [];
    let plain = 0;
    for (let i = 0; i < 30_000; i++) {
      const text = joined(next, PRICE_PIECES, 6);
      const general = parsePriceInFull(text);
      if (JSON.stringify(parsePrice(text)) !== JSON.stringify(general)) differing.push(text);
      if (general.ok && /^[0-9.]+$/.test(text)) plain += 1;
    }
    expect(differing).toEqual([]);
    expect(plain).toBeGreaterThan(1_000);
  });
});

const LIST_PIECES = [
  ';',
  '; ',
  ' ',
  '',
  'https://img.test/a.jpg',
  'http://cdn.test/b/c.png',
  'ftp://x.test/d',
  'img.jpg',
  '\t',
];
const NAME_PIECES = ['Mug', ' ', '<', '>', 'b', '/', '!', '?', 'x', '<b>', '</i', '<!--', 'é', '&lt;'];
const columns = CSV_COLUMNS as readonly string[];
const mapping = (() => {
  const result = mapHeader(columns);
  if (!result.ok) throw new Error('the canonical header maps');
  return result.mapping;
})();
const rowWith = (values: Partial<Record<CsvColumn, string>>): string[] => {
  const base: Partial<Record<CsvColumn, string>> = {
    product_name: 'Mug',
    msrp_us: '10.00',
    dropshipping_price_us: '5.00',
    spu_no: 'SPU-1',
    product_images_1: 'https://img.test/1.jpg',
  };
  return columns.map((column) => ({ ...base, ...values })[column as CsvColumn] ?? '');
};

describe('the row checks written without intermediate arrays or regular expressions', () => {
  it('read additional_product_images as split, trim and filter would, on 20 000 generated lists', () => {
    const next = seededRandom(19);
    let warned = 0;
    for (let i = 0; i < 20_000; i++) {
      const list = joined(next, LIST_PIECES, 8);
      const entries = list
        .split(';')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const expectedWarnings: string[] = [];
      const images: string[] = [];
      entries.forEach((entry, index) => {
        const address = checkWebAddress(entry);
        if (address.ok) images.push(address.href);
        else expectedWarnings.push(`image ${index + 1}: ${address.problem}; the image was left out`);
      });
      const outcome = checkProductRow(rowWith({ additional_product_images: list }), 2, mapping);
      expect(outcome.product?.additional_product_images, JSON.stringify(list)).toEqual(images);
      const warnings = outcome.warnings.filter((w) => w.column === 'additional_product_images').map((w) => w.message);
      expect(warnings, JSON.stringify(list)).toEqual(expectedWarnings);
      if (expectedWarnings.length > 0) warned += 1;
    }
    expect(warned).toBeGreaterThan(1_000);
  });

  it('refuse markup in names exactly as the markup pattern alone does, on 20 000 generated names', () => {
    const next = seededRandom(20);
    const markup = /<[/!?]?[a-z!?][^<>]{0,30}>?/i;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const name = normalizeText(joined(next, NAME_PIECES, 6)) || 'Mug';
      const outcome = checkProductRow(rowWith({ product_name: name }), 2, mapping);
      const found = markup.exec(name);
      expect(outcome.product === null, JSON.stringify(name)).toBe(found !== null);
      if (found) refused += 1;
    }
    expect(refused).toBeGreaterThan(1_000);
  });
});
