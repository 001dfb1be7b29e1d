import { createReadStream, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CsvProductSchema, productIdFromSpuNo, type CsvIssue } from '@portal/shared/domain/csv-product';
import { writeLargeCatalogueCsv } from '../../../test/fixtures/csv/generate-large';
import {
  CatalogueCsvChangedError,
  importCatalogueCsv,
  parseCatalogueCsv,
  validateCatalogueCsv,
  type CsvSource,
  type ImportRow,
} from './parse-csv';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/csv/', import.meta.url));
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

const CDN = 'https://img.northwind-cdn.test/spu';
const SUPPLIER = 'https://www.northwind-supply.test/product';
const HEADER =
  'product_name,brand,msrp_us,dropshipping_price_us,product_images_1,product_images_2,product_images_3,product_images_4,product_images_5,product_images_6,additional_product_images,html_description,url,spu_no';

function chunks(data: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) parts.push(data.subarray(at, at + size));
  return parts;
}

type IssueTuple = [row: number, column: string | null, message: string];
const tuples = (issues: readonly CsvIssue[]): IssueTuple[] => issues.map((i) => [i.row, i.column, i.message]);

interface Outcome {
  fatal: string | null;
  rowsRead: number;
  /** spu_no of the products to import, in order, with the row each comes from. */
  accepted: [row: number, spuNo: string][];
  errors: IssueTuple[];
  warnings: IssueTuple[];
}

async function outcomeOf(source: CsvSource): Promise<Outcome> {
  const { report, products } = await parseCatalogueCsv(source);
  expect(report.accepted).toBe(products.length);
  if (!report.fatal) expect(report.rowsRead).toBe(report.accepted + report.rejected + report.replaced);
  return {
    fatal: report.fatal?.message ?? null,
    rowsRead: report.rowsRead,
    accepted: products.map(({ row, product }) => [row, product.spu_no]),
    errors: tuples(report.errors),
    warnings: tuples(report.warnings),
  };
}

const damagedAt = (line: number, problem: string) =>
  `The file is damaged at line ${line}: ${problem}. No rows were imported.`;
const NOT_UTF8 =
  'the text is not UTF-8 (the file may have been saved as Latin-1 or Windows-1252; save it as "CSV UTF-8")';
const NOT_A_PRICE = (value: string) => `'${value}' is not a price; write a number such as 12.50`;
const NOT_ALLOWED = (value: string, scheme: string) =>
  `'${value}' uses ${scheme}:, but only http and https addresses are allowed`;
const NOT_COMPLETE = (value: string) =>
  `'${value}' is not a complete web address; it must start with https:// or http://`;
const LEFT_OUT = '; the image was left out';
const NO_IMAGE = 'the product has no usable image; its card will show no picture';

const none: Pick<Outcome, 'errors' | 'warnings'> = { errors: [], warnings: [] };

/** Every fixture and exactly what reading it gives. */
const EXPECTED: Record<string, Outcome> = {
  'valid-catalogue.csv': {
    fatal: null,
    rowsRead: 5,
    accepted: [
      [2, 'SPU-10001'],
      [3, 'SPU-10002'],
      [4, 'SPU-10003'],
      [5, 'SPU-10004'],
      [6, 'SPU-10005'],
    ],
    ...none,
  },
  'empty.csv': { fatal: 'The file is empty.', rowsRead: 0, accepted: [], ...none },
  'header-only.csv': { fatal: 'The file has a header line but no product rows.', rowsRead: 0, accepted: [], ...none },
  'semicolon-delimited.csv': {
    fatal:
      "The file does not look comma-separated: its first line uses ';' between the column names. Save it as CSV with commas (CSV UTF-8) and upload it again.",
    rowsRead: 0,
    accepted: [],
    ...none,
  },
  'tab-delimited.csv': {
    fatal:
      'The file does not look comma-separated: its first line uses tabs between the column names. Save it as CSV with commas (CSV UTF-8) and upload it again.',
    rowsRead: 0,
    accepted: [],
    ...none,
  },
  'missing-columns.csv': {
    fatal:
      'The file is missing the required columns msrp_us and spu_no. The first line must name the columns, including product_name, msrp_us, dropshipping_price_us and spu_no.',
    rowsRead: 0,
    accepted: [],
    ...none,
  },
  'duplicate-columns.csv': {
    fatal: 'The column msrp_us appears more than once in the header (columns 3 and 6); keep only one.',
    rowsRead: 0,
    accepted: [],
    ...none,
  },
  'extra-reordered-columns.csv': {
    fatal: null,
    rowsRead: 2,
    accepted: [
      [2, 'SPU-30001'],
      [3, 'SPU-30002'],
    ],
    errors: [],
    warnings: [
      [1, 'Weight_kg', 'not a column the import uses; its values were ignored'],
      [1, 'Category', 'not a column the import uses; its values were ignored'],
    ],
  },
  'bom.csv': {
    fatal: null,
    rowsRead: 2,
    accepted: [
      [2, 'SPU-40001'],
      [3, 'SPU-40002'],
    ],
    ...none,
  },
  'crlf.csv': {
    fatal: null,
    rowsRead: 3,
    // The description of row 3 spans lines 3-6, so the next row is on line 7.
    accepted: [
      [2, 'SPU-50001'],
      [3, 'SPU-50002'],
      [7, 'SPU-50003'],
    ],
    ...none,
  },
  'quoted-fields.csv': {
    fatal: null,
    rowsRead: 4,
    accepted: [
      [2, 'SPU-60001'],
      [3, 'SPU-60002'],
      [7, 'SPU-60003'],
    ],
    errors: [[9, 'msrp_us', "'12.345' has more than two decimals"]],
    warnings: [],
  },
  'unterminated-quote.csv': {
    fatal: damagedAt(4, 'a quoted value starts in the row on this line and is never closed'),
    rowsRead: 2,
    accepted: [],
    ...none,
  },
  'runaway-quote.csv': {
    fatal: damagedAt(
      4,
      'in the row starting on this line, a closing quote is followed by more text instead of a comma or the end of the line; a quote inside a quoted value must be doubled ("") and every quoted value must be closed',
    ),
    rowsRead: 2,
    accepted: [],
    ...none,
  },
  'invalid-closing-quote.csv': {
    fatal: damagedAt(
      3,
      'in the row starting on this line, a closing quote is followed by more text instead of a comma or the end of the line; a quote inside a quoted value must be doubled ("") and every quoted value must be closed',
    ),
    rowsRead: 1,
    accepted: [],
    ...none,
  },
  'bare-quote.csv': {
    fatal: damagedAt(
      3,
      'a value that is not in quotes contains a quote; put the whole value in double quotes and double the quote inside ("")',
    ),
    rowsRead: 1,
    accepted: [],
    ...none,
  },
  'latin1.csv': {
    // Rows 2 and 3 come before the break and are checked (row 3 has an error), but nothing is imported.
    fatal: damagedAt(4, NOT_UTF8),
    rowsRead: 2,
    accepted: [],
    errors: [[3, 'msrp_us', NOT_A_PRICE('abc')]],
    warnings: [],
  },
  'utf16le.csv': {
    fatal: damagedAt(
      1,
      'the text is UTF-16, not UTF-8 (a spreadsheet\'s "Unicode Text" format); save it as "CSV UTF-8"',
    ),
    rowsRead: 0,
    accepted: [],
    ...none,
  },
  'truncated-utf8.csv': { fatal: damagedAt(3, NOT_UTF8), rowsRead: 1, accepted: [], ...none },
  'prices.csv': {
    fatal: null,
    rowsRead: 13,
    accepted: [
      [5, 'SPU-80004'],
      [11, 'SPU-80010'],
      [14, 'SPU-80013'],
    ],
    errors: [
      [2, 'msrp_us', "'-5' is negative; a price must be greater than zero"],
      [3, 'msrp_us', "'0' is zero; a price must be greater than zero"],
      [4, 'msrp_us', NOT_A_PRICE('abc')],
      [6, 'msrp_us', "'12.345' has more than two decimals"],
      [
        7,
        'msrp_us',
        "'1,29.00' has a misplaced thousands separator; commas must separate groups of three digits, as in 1,299.00",
      ],
      [8, 'msrp_us', 'a price is required'],
      [9, 'msrp_us', "'12,50' uses a comma for decimals; write the price with a dot, as in 12.50"],
      [10, 'msrp_us', NOT_A_PRICE('NaN')],
      [12, 'msrp_us', "'$2,000,000' is more than the maximum of $1,000,000.00"],
      [13, 'msrp_us', NOT_A_PRICE('Infinity')],
      [13, 'dropshipping_price_us', "'-1' is negative; a price must be greater than zero"],
    ],
    warnings: [[14, 'dropshipping_price_us', '$24.99 is higher than the MSRP of $19.99']],
  },
  'xss-payloads.csv': {
    fatal: null,
    rowsRead: 4,
    accepted: [
      [3, 'SPU-90002'],
      [5, 'SPU-90004'],
    ],
    errors: [
      [2, 'product_name', "contains HTML markup ('<script>'); it must be plain text"],
      [4, 'brand', "contains HTML markup ('<img src=x onerror=alert(1)>'); it must be plain text"],
    ],
    warnings: [],
  },
  'bad-urls.csv': {
    fatal: null,
    rowsRead: 4,
    accepted: [
      [2, 'SPU-91001'],
      [5, 'SPU-91004'],
    ],
    errors: [
      [3, 'url', NOT_ALLOWED('javascript:alert(document.domain)', 'javascript')],
      [4, 'url', NOT_COMPLETE('www.northwind-supply.test/product/SPU-9…')],
    ],
    warnings: [
      [2, 'product_images_1', NOT_ALLOWED('javascript:alert(1)', 'javascript') + LEFT_OUT],
      [2, 'product_images_3', NOT_ALLOWED('data:image/png;base64,iVBORw0KGgo=', 'data') + LEFT_OUT],
      [2, 'product_images_4', NOT_COMPLETE('/images/SPU-91001/4.jpg') + LEFT_OUT],
      [2, 'product_images_5', NOT_COMPLETE('//img.northwind-cdn.test/spu/SPU-91001/…') + LEFT_OUT],
      [2, 'product_images_6', "'https://' is not a valid web address" + LEFT_OUT],
      [
        2,
        'additional_product_images',
        'image 2: ' + NOT_ALLOWED('ftp://files.northwind-cdn.test/8.jpg', 'ftp') + LEFT_OUT,
      ],
      [
        2,
        'additional_product_images',
        "image 3: 'https://user:secret@img.northwind-cdn.t…' contains a user name or password" + LEFT_OUT,
      ],
      [4, 'product_images_1', NOT_ALLOWED('data:image/gif;base64,R0lGODlhAQABAAAAA…', 'data') + LEFT_OUT],
      [5, 'product_images_1', NOT_COMPLETE('img/SPU-91004.jpg') + LEFT_OUT],
      [5, 'product_images_1', NO_IMAGE],
    ],
  },
  'duplicate-spu.csv': {
    fatal: null,
    rowsRead: 5,
    // SPU-20001 is on rows 2, 4 and 6 (last one with spaces around it): row 6 wins. Row 5 is
    // invalid, so it does not replace row 3.
    accepted: [
      [3, 'SPU-20002'],
      [6, 'SPU-20001'],
    ],
    errors: [[5, 'msrp_us', NOT_A_PRICE('abc')]],
    warnings: [
      [4, 'spu_no', "'SPU-20001' also appears on row 2; this row replaces it (the last row wins)"],
      [6, 'spu_no', "'SPU-20001' also appears on row 4; this row replaces it (the last row wins)"],
    ],
  },
  'ragged-rows.csv': {
    fatal: null,
    rowsRead: 4,
    accepted: [
      [2, 'SPU-92001'],
      [5, 'SPU-92004'],
    ],
    errors: [
      [
        3,
        null,
        'has 4 values but the header names 14 columns; every row needs a value, possibly empty, for every column',
      ],
      [
        4,
        null,
        'has 15 values but the header names 14 columns; a value that contains a comma must be enclosed in double quotes',
      ],
    ],
    warnings: [],
  },
  'missing-values.csv': {
    fatal: null,
    rowsRead: 4,
    accepted: [[5, 'SPU-93004']],
    errors: [
      [2, 'product_name', 'a value is required'],
      [3, 'spu_no', 'a value is required'],
      [4, 'spu_no', 'a value is required'],
      [4, 'product_name', 'a value is required'],
      [4, 'msrp_us', 'a price is required'],
      [4, 'dropshipping_price_us', 'a price is required'],
    ],
    warnings: [[5, 'product_images_1', NO_IMAGE]],
  },
  'blank-lines.csv': {
    fatal: null,
    rowsRead: 3,
    // Line 2 is empty, line 4 holds only commas, lines 6-7 are blank: none of them is a row.
    accepted: [
      [3, 'SPU-94001'],
      [5, 'SPU-94002'],
      [8, 'SPU-94003'],
    ],
    ...none,
  },
  'unicode.csv': {
    fatal: null,
    rowsRead: 3,
    accepted: [
      [2, 'SPU-95001'],
      [3, 'SPU-95002'],
      [4, 'SPU-95003'],
    ],
    ...none,
  },
};

describe('parseCatalogueCsv on the fixtures', () => {
  it('has an expectation for every fixture file', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.csv'));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(Object.entries(EXPECTED))('%s', async (name, expected) => {
    expect(await outcomeOf([fixture(name)])).toEqual(expected);
  });

  it.each(Object.keys(EXPECTED))('%s gives the same result however it is chunked', async (name) => {
    const whole = await parseCatalogueCsv([fixture(name)]);
    for (const size of [1, 3, 7, 64]) {
      expect(await parseCatalogueCsv(chunks(fixture(name), size))).toEqual(whole);
    }
  });
});

describe("a chunk larger than the parser's 64 KiB slice", () => {
  /**
   * About 400 KB: multi-byte characters everywhere (so slice ends fall inside characters),
   * quoted descriptions over several lines (LF and CRLF inside), CRLF rows, blank lines, a rejected row and a
   * repeated spu_no. `broken` adds an unclosed quote past the third slice.
   */
  const file = (broken: boolean): Buffer => {
    const lines = [HEADER];
    for (let i = 0; i < 700; i++) {
      const name = `"Tasse ${'é€'.repeat(i % 7)} n° ${i}, 😀"`;
      const price = i === 350 ? 'abc' : `${10 + (i % 50)}.99`;
      const description = `"<p>${'€€€€ é—'.repeat(20 + (i % 13))}</p>\n<ul>\r\n<li>""${i}""</li>\n</ul>"`;
      const spu = i % 97 === 5 ? 'SPU-REPEAT' : `SPU-${i}`;
      const row = [
        name,
        'Marque ü',
        price,
        '5.00',
        `${CDN}/${spu}/1.jpg`,
        '',
        '',
        '',
        '',
        '',
        '',
        description,
        '',
        spu,
      ];
      lines.push(row.join(','));
      if (i % 50 === 0) lines.push('');
      if (broken && i === 600) lines.push(`Bad "quote,Brand,1.00,1.00,,,,,,,,,,SPU-BAD`);
    }
    return Buffer.from(lines.map((line) => `${line}\r\n`).join(''));
  };
  const SLICE = 64 * 1024;

  it.each([false, true])('is read as when it comes in small chunks (broken: %s)', async (broken) => {
    const data = file(broken);
    expect(data.length).toBeGreaterThan(5 * SLICE);
    // Slice ends inside a character: a UTF-8 continuation byte right after one.
    const cut = [1, 2, 3, 4, 5].filter((k) => (data[k * SLICE]! & 0xc0) === 0x80);
    expect(cut.length).toBeGreaterThan(0);
    const whole = await parseCatalogueCsv([data]);
    expect(whole.report.rowsRead).toBeGreaterThan(broken ? 600 : 699);
    // The broken row: after the header, 601 rows of 4 lines each and 13 blank lines.
    expect(whole.report.fatal?.line ?? null).toBe(broken ? 1 + 601 * 4 + 13 + 1 : null);
    expect(await parseCatalogueCsv(chunks(data, 4093))).toEqual(whole);
    expect(await parseCatalogueCsv(chunks(data, SLICE + 1))).toEqual(whole);
  });
});

describe('what the accepted products hold', () => {
  const productsOf = async (name: string) => (await parseCatalogueCsv([fixture(name)])).products;
  const bySpu = (products: ImportRow[], spuNo: string) => products.find((p) => p.product.spu_no === spuNo)?.product;

  it('reads a full row into cents, images, a sanitized description and a derived id', async () => {
    const products = await productsOf('valid-catalogue.csv');
    for (const { product } of products) expect(CsvProductSchema.parse(product)).toEqual(product);
    expect(bySpu(products, 'SPU-10001')).toEqual({
      id: productIdFromSpuNo('SPU-10001'),
      spu_no: 'SPU-10001',
      product_name: 'Merino Wool Crew Socks (3 Pack)',
      brand: 'Trailhead',
      msrp_us_cents: 2499,
      dropshipping_price_us_cents: 1295,
      product_images: [1, 2, 3].map((n) => `${CDN}/SPU-10001/${n}.jpg`),
      additional_product_images: [`${CDN}/SPU-10001/detail-1.jpg`, `${CDN}/SPU-10001/detail-2.jpg`],
      html_description:
        '<h2>Warm, breathable comfort</h2><p>Knit from <strong>70% merino wool</strong> for all-day wear.</p><ul><li>Cushioned heel and toe</li><li>Sizes S, M, L</li></ul>',
      url: `${SUPPLIER}/SPU-10001`,
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(bySpu(products, 'SPU-10003')).toMatchObject({ msrp_us_cents: 12900, dropshipping_price_us_cents: 6450 });
    expect(bySpu(products, 'SPU-10003')?.product_images).toHaveLength(6);
    expect(bySpu(products, 'SPU-10004')?.html_description).toBe(
      '<p>Three boards: small, medium and large. <a href="https://www.northwind-supply.test/care" target="_blank" rel="noopener noreferrer">Care guide</a></p>',
    );
    expect(bySpu(products, 'SPU-10005')).toMatchObject({ msrp_us_cents: 104900, html_description: '' });
  });

  it('keeps commas, doubled quotes and line breaks of quoted values', async () => {
    const products = await productsOf('quoted-fields.csv');
    expect(bySpu(products, 'SPU-60001')).toMatchObject({
      product_name: 'Laptop Sleeve 15.6", Water-Resistant',
      html_description: '<p>Fits most 15.6" laptops, with a "quick-grab" handle.</p>',
    });
    expect(bySpu(products, 'SPU-60002')?.html_description).toBe(
      '<h3>Support where you need it</h3>\n<ul>\n<li>Adjustable lumbar, arms and height</li>\n</ul>',
    );
    expect(bySpu(products, 'SPU-60003')?.product_name).toBe('Camping Lantern Rechargeable');
    expect(bySpu(await productsOf('crlf.csv'), 'SPU-50002')?.html_description).toBe(
      '<p>Notes of cedar and amber.</p>\r\n<ul>\r\n<li>50 hour burn</li>\r\n</ul>',
    );
  });

  it('reads a BOM file, reordered headers and non-ASCII text', async () => {
    expect(bySpu(await productsOf('bom.csv'), 'SPU-40001')?.product_name).toBe('Yoga Mat, Non-Slip, 6 mm');
    expect(bySpu(await productsOf('extra-reordered-columns.csv'), 'SPU-30002')).toMatchObject({
      product_name: 'Cast Iron Skillet, 10 inch',
      brand: 'Forge & Hearth',
      msrp_us_cents: 4250,
      dropshipping_price_us_cents: 2125,
      product_images: [`${CDN}/SPU-30002/1.jpg`],
      html_description: '',
      url: '',
    });
    const unicode = await productsOf('unicode.csv');
    expect(unicode.map((p) => [p.product.product_name, p.product.brand])).toEqual([
      ['Crème Brûlée Torch', 'Pâtisserie Élan'],
      ['日本製 包丁 Santoku Knife', '関 Seki'],
      ['Party Lights 🎉 (20 ft)', 'Fête'],
    ]);
  });

  it('stores sanitized descriptions and names as plain text', async () => {
    const products = await productsOf('xss-payloads.csv');
    expect(bySpu(products, 'SPU-90002')?.html_description).toBe(
      '<p>Tracks steps, sleep and heart rate.</p><a target="_blank" rel="noopener noreferrer">Specs</a><p>Water-resistant to 50 m.</p>',
    );
    expect(bySpu(products, 'SPU-90004')).toMatchObject({
      product_name: 'Phone Case onmouseover=alert(1)',
      html_description: '<p>Slim fit.</p>',
    });
  });

  it('keeps the good images of a row whose other images were dropped', async () => {
    const products = await productsOf('bad-urls.csv');
    expect(bySpu(products, 'SPU-91001')).toMatchObject({
      product_images: [`${CDN}/SPU-91001/2.jpg`],
      additional_product_images: [`${CDN}/SPU-91001/7.jpg`, `${CDN}/SPU-91001/10.jpg`],
    });
  });

  it('imports the last row of a repeated spu_no', async () => {
    const products = await productsOf('duplicate-spu.csv');
    expect(bySpu(products, 'SPU-20001')).toMatchObject({
      id: productIdFromSpuNo('SPU-20001'),
      product_name: 'Glass Food Containers, 10 Pack',
      msrp_us_cents: 4900,
      html_description: '<p>Final version.</p>',
    });
    expect(bySpu(products, 'SPU-20002')).toMatchObject({ msrp_us_cents: 1900 });
  });
});

describe('limits', () => {
  const csvOf = (...rows: string[]) => Buffer.from([HEADER, ...rows].join('\n') + '\n');
  const rowWith = (spuNo: string, description: string) =>
    `Quilted Jacket,Basecamp,120.00,60.00,${CDN}/${spuNo}/1.jpg,,,,,,,"${description}",${SUPPLIER}/${spuNo},${spuNo}`;
  /** Deterministic HTML of exactly `bytes` bytes (ASCII). */
  const description = (bytes: number) => {
    const paragraph = '<p>Insulated, windproof and water-resistant shell with taped seams.</p>';
    return paragraph.repeat(Math.ceil(bytes / paragraph.length)).slice(0, bytes);
  };

  it('rejects a 200 KB description as a row error and accepts one of exactly 100 KB', async () => {
    const outcome = await outcomeOf([
      csvOf(rowWith('SPU-1', description(200 * 1024)), rowWith('SPU-2', description(100 * 1024))),
    ]);
    expect(outcome).toEqual({
      fatal: null,
      rowsRead: 2,
      accepted: [[3, 'SPU-2']],
      errors: [[2, 'html_description', 'is 204,800 bytes; the limit is 102,400 bytes (100 KB)']],
      warnings: [],
    });
  });

  it('stops at a row longer than 1 MiB, the sign of a quote that swallows the file', async () => {
    const outcome = await outcomeOf([csvOf(rowWith('SPU-1', 'ok'), rowWith('SPU-2', 'x'.repeat(1_100_000)))]);
    expect(outcome.fatal).toBe(
      damagedAt(
        3,
        'the row starting on this line is longer than 1,048,576 bytes, which usually means a quote is not closed',
      ),
    );
    expect(outcome.accepted).toEqual([]);
  });
});

describe('the two-pass import', () => {
  const collect = async (batches: AsyncIterable<ImportRow[]>) => {
    const sizes: number[] = [];
    const rows: ImportRow[] = [];
    for await (const batch of batches) {
      sizes.push(batch.length);
      rows.push(...batch);
    }
    return { sizes, rows };
  };

  it('validates first, then yields the products in batches, in file order', async () => {
    const validation = await validateCatalogueCsv([fixture('valid-catalogue.csv')]);
    expect(validation.report).toMatchObject({ fatal: null, accepted: 5 });
    const { sizes, rows } = await collect(
      importCatalogueCsv([fixture('valid-catalogue.csv')], validation, { batchSize: 2 }),
    );
    expect(sizes).toEqual([2, 2, 1]);
    const single = await parseCatalogueCsv([fixture('valid-catalogue.csv')]);
    expect(rows).toEqual(single.products);
  });

  it('writes each repeated spu_no once, from its winning row', async () => {
    const validation = await validateCatalogueCsv([fixture('duplicate-spu.csv')]);
    expect([...validation.winners]).toEqual([
      ['SPU-20001', 6],
      ['SPU-20002', 3],
    ]);
    const { rows } = await collect(importCatalogueCsv([fixture('duplicate-spu.csv')], validation));
    expect(rows.map((r) => [r.row, r.product.spu_no, r.product.html_description])).toEqual([
      [3, 'SPU-20002', ''],
      [6, 'SPU-20001', '<p>Final version.</p>'],
    ]);
  });

  it('refuses to import a file whose validation found it damaged', async () => {
    const validation = await validateCatalogueCsv([fixture('latin1.csv')]);
    expect(validation.report.fatal?.kind).toBe('not-utf8');
    await expect(collect(importCatalogueCsv([fixture('latin1.csv')], validation))).rejects.toThrow(
      'A file with a fatal problem cannot be imported.',
    );
  });

  it('notices when the second read is not the file that was validated', async () => {
    const validation = await validateCatalogueCsv([fixture('valid-catalogue.csv')]);
    await expect(collect(importCatalogueCsv([fixture('bom.csv')], validation))).rejects.toThrow(
      CatalogueCsvChangedError,
    );
    await expect(collect(importCatalogueCsv([fixture('latin1.csv')], validation))).rejects.toThrow(
      CatalogueCsvChangedError,
    );
    const truncated = fixture('valid-catalogue.csv').subarray(0, 900);
    await expect(collect(importCatalogueCsv([truncated], validation))).rejects.toThrow(CatalogueCsvChangedError);
  });

  it('reads a Node stream and closes it when the importer stops early', async () => {
    const path = join(FIXTURES, 'valid-catalogue.csv');
    const validation = await validateCatalogueCsv(createReadStream(path));
    const stream = createReadStream(path, { highWaterMark: 64 });
    for await (const batch of importCatalogueCsv(stream, validation, { batchSize: 1 })) {
      expect(batch).toHaveLength(1);
      break;
    }
    expect(stream.destroyed).toBe(true);
  });

  it('refuses a stream that yields text instead of bytes', async () => {
    const textStream = Readable.from(['product_name\n'], { objectMode: true });
    await expect(parseCatalogueCsv(textStream)).rejects.toThrow(
      'The CSV source must yield bytes; read the file without setting an encoding.',
    );
  });
});

describe('a 100 000-row file', () => {
  it('is read in bounded batches with every row accepted', { timeout: 600_000 }, async () => {
    const path = join(tmpdir(), `catalogue-100k-${process.pid}.csv`);
    try {
      const written = await writeLargeCatalogueCsv(path, 100_000, { lineEnding: '\r\n' });
      const validation = await validateCatalogueCsv(createReadStream(path));
      expect(validation.report).toEqual({
        fatal: null,
        rowsRead: 100_000,
        accepted: 100_000,
        rejected: 0,
        replaced: 0,
        errorCount: 0,
        warningCount: 0,
        errors: [],
        warnings: [],
        issuesTruncated: false,
      });
      let count = 0;
      let msrp = 0;
      let dropship = 0;
      let images = 0;
      let maxBatch = 0;
      let previousRow = 1;
      let first = '';
      let last = '';
      for await (const batch of importCatalogueCsv(createReadStream(path), validation)) {
        maxBatch = Math.max(maxBatch, batch.length);
        for (const { row, product } of batch) {
          if (row <= previousRow) throw new Error(`row ${row} came after row ${previousRow}`);
          previousRow = row;
          first ||= product.spu_no;
          last = product.spu_no;
          count += 1;
          msrp += product.msrp_us_cents;
          dropship += product.dropshipping_price_us_cents;
          images += product.product_images.length + product.additional_product_images.length;
        }
      }
      expect({ count, first, last, msrp, dropship, images, maxBatch }).toEqual({
        count: written.rows,
        first: written.firstSpuNo,
        last: written.lastSpuNo,
        msrp: written.totalMsrpCents,
        dropship: written.totalDropshipCents,
        images: written.totalImages,
        maxBatch: 25,
      });
    } finally {
      await rm(path, { force: true });
    }
  });
});
