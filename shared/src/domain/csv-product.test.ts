import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkWebAddress,
  contentHashOf,
  CSV_COLUMNS,
  CsvProductSchema,
  formatIssue,
  mapHeader,
  normalizeSpuNo,
  productIdFromSpuNo,
  utf8ByteLength,
  validateProductRow,
  checkProductRow,
  withContentHash,
  withoutFormulaGuard,
  type CsvColumn,
  type CsvProductContent,
  type HeaderMapping,
} from './csv-product';

const header = (): HeaderMapping => {
  const result = mapHeader([...CSV_COLUMNS]);
  if (!result.ok) throw new Error(result.fatal.message);
  return result.mapping;
};

const CDN = 'https://img.northwind-cdn.test/spu/SPU-1';

/** A valid row in the canonical column order, with some values replaced. */
function cells(values: Partial<Record<CsvColumn, string>> = {}): string[] {
  const base: Record<CsvColumn, string> = {
    product_name: 'Merino Wool Crew Socks',
    brand: 'Trailhead',
    msrp_us: '24.99',
    dropshipping_price_us: '12.95',
    product_images_1: `${CDN}/1.jpg`,
    product_images_2: '',
    product_images_3: '',
    product_images_4: '',
    product_images_5: '',
    product_images_6: '',
    additional_product_images: '',
    html_description: '<p>Warm</p>',
    url: 'https://www.northwind-supply.test/product/SPU-1',
    spu_no: 'SPU-1',
  };
  return CSV_COLUMNS.map((column) => values[column] ?? base[column]);
}

const validate = (values: Partial<Record<CsvColumn, string>> = {}, row = 2) =>
  validateProductRow(cells(values), row, header());

describe('mapHeader', () => {
  it('matches names case-insensitively, ignoring surrounding spaces, in any order', () => {
    const result = mapHeader([' SPU_NO ', 'Product_Name', 'MSRP_us', '\uFEFFdropshipping_price_us']);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([...result.mapping.positions]).toEqual([
      ['spu_no', 0],
      ['product_name', 1],
      ['msrp_us', 2],
      ['dropshipping_price_us', 3],
    ]);
    expect(result.mapping.columnCount).toBe(4);
    expect(result.warnings).toEqual([]);
  });

  it('ignores unknown columns with a warning and blank header cells silently', () => {
    const result = mapHeader(['product_name', 'Weight', 'msrp_us', 'dropshipping_price_us', 'spu_no', '', ' ']);
    expect(result).toEqual({
      ok: true,
      mapping: expect.objectContaining({ columnCount: 7 }),
      warnings: [{ row: 1, column: 'Weight', message: 'not a column the import uses; its values were ignored' }],
    });
  });

  it('names every missing required column', () => {
    expect(mapHeader(['product_name', 'brand', 'dropshipping_price_us'])).toEqual({
      ok: false,
      fatal: {
        kind: 'missing-columns',
        line: 1,
        message:
          'The file is missing the required columns msrp_us and spu_no. The first line must name the columns, including product_name, msrp_us, dropshipping_price_us and spu_no.',
      },
    });
    expect(mapHeader(['product_name', 'msrp_us', 'dropshipping_price_us'])).toMatchObject({
      ok: false,
      fatal: { message: expect.stringMatching(/^The file is missing the required column spu_no\./) },
    });
  });

  it('refuses a column given twice', () => {
    expect(mapHeader(['product_name', 'msrp_us', 'dropshipping_price_us', 'spu_no', 'MSRP_US'])).toEqual({
      ok: false,
      fatal: {
        kind: 'duplicate-columns',
        line: 1,
        message: 'The column msrp_us appears more than once in the header (columns 2 and 5); keep only one.',
      },
    });
  });

  it('recognizes a semicolon- or tab-separated header', () => {
    expect(mapHeader(['product_name;brand;msrp_us'])).toMatchObject({
      ok: false,
      fatal: { kind: 'not-comma-separated', message: expect.stringContaining("uses ';' between the column names") },
    });
    expect(mapHeader(['product_name\tbrand'])).toMatchObject({
      ok: false,
      fatal: { kind: 'not-comma-separated', message: expect.stringContaining('uses tabs between the column names') },
    });
  });

  it('reports at the line the header is on', () => {
    expect(mapHeader(['product_name'], 3)).toMatchObject({ ok: false, fatal: { line: 3 } });
  });
});

describe('validateProductRow', () => {
  it('turns a valid row into a product', () => {
    const result = validate();
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.product).toEqual({
      id: productIdFromSpuNo('SPU-1'),
      spu_no: 'SPU-1',
      product_name: 'Merino Wool Crew Socks',
      brand: 'Trailhead',
      msrp_us_cents: 2499,
      dropshipping_price_us_cents: 1295,
      product_images: [`${CDN}/1.jpg`],
      additional_product_images: [],
      html_description: '<p>Warm</p>',
      url: 'https://www.northwind-supply.test/product/SPU-1',
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(CsvProductSchema.parse(result.product)).toEqual(result.product);
  });

  it('normalizes text: white space runs, control characters, NFC', () => {
    const result = validate({ product_name: '  Cafe\u0301\tCup\u0000 \n Set ', brand: '', spu_no: ' SPU-1 ' });
    expect(result.product).toMatchObject({ product_name: 'Café Cup Set', brand: '', spu_no: 'SPU-1' });
  });

  it('reads a value without the apostrophe a formula-safe export put before = + - @', () => {
    expect(validate({ msrp_us: "'-5" }).errors.map(formatIssue)).toEqual([
      "Row 2, column msrp_us: '-5' is negative; a price must be greater than zero",
    ]);
    expect(validate({ brand: "'=Acme", product_name: " '+1 Socks", spu_no: "'@SPU-1" }).product).toMatchObject({
      brand: '=Acme',
      product_name: '+1 Socks',
      spu_no: '@SPU-1',
    });
    // Only before what a spreadsheet runs as a formula; any other apostrophe is the supplier's.
    expect(validate({ product_name: "'90s Socks" }).product).toMatchObject({ product_name: "'90s Socks" });
    expect(withoutFormulaGuard("''=x")).toBe("''=x");
    expect(withoutFormulaGuard("'\tx")).toBe('\tx');
  });

  it("ignores the rejected-rows download's own columns with a warning that says so", () => {
    const result = mapHeader([...CSV_COLUMNS, '[portal] outcome', '[portal] row', ' [Portal] Problem ']);
    expect(result.ok && result.warnings.map((warning) => [warning.column, warning.message])).toEqual([
      ['[portal] outcome', "added by the portal's rejected-rows download; its values were ignored"],
      ['[portal] row', "added by the portal's rejected-rows download; its values were ignored"],
      ['[Portal] Problem', "added by the portal's rejected-rows download; its values were ignored"],
    ]);
  });

  it('reports every problem of a row, each with its column', () => {
    const result = validate({ product_name: ' ', spu_no: '', msrp_us: '12.345', dropshipping_price_us: 'abc' }, 7);
    expect(result.product).toBeNull();
    expect(result.errors.map(formatIssue)).toEqual([
      'Row 7, column spu_no: a value is required',
      'Row 7, column product_name: a value is required',
      "Row 7, column msrp_us: '12.345' has more than two decimals",
      "Row 7, column dropshipping_price_us: 'abc' is not a price; write a number such as 12.50",
    ]);
  });

  it('refuses a row with too few or too many values as a whole', () => {
    const short = validateProductRow(['Socks', 'Trailhead'], 4, header());
    expect(short).toEqual({
      row: 4,
      product: null,
      errors: [
        {
          row: 4,
          column: null,
          message:
            'has 2 values but the header names 14 columns; every row needs a value, possibly empty, for every column',
        },
      ],
      warnings: [],
    });
    const long = validateProductRow([...cells(), 'extra'], 5, header());
    expect(long.errors[0]?.message).toBe(
      'has 15 values but the header names 14 columns; a value that contains a comma must be enclosed in double quotes',
    );
  });

  it('refuses markup in names and brands, which are plain text', () => {
    const result = validate({
      product_name: "<script>alert('x')</script>Watch",
      brand: '"><img src=x onerror=alert(1)>',
    });
    expect(result.errors).toEqual([
      { row: 2, column: 'product_name', message: "contains HTML markup ('<script>'); it must be plain text" },
      {
        row: 2,
        column: 'brand',
        message: "contains HTML markup ('<img src=x onerror=alert(1)>'); it must be plain text",
      },
    ]);
    expect(validate({ product_name: 'Cable <1m, 3 > 2' }).product?.product_name).toBe('Cable <1m, 3 > 2');
  });

  it('limits the length of names, brands and spu_no', () => {
    const result = validate({ product_name: 'x'.repeat(501), brand: 'b'.repeat(201), spu_no: 's'.repeat(101) });
    expect(result.errors).toEqual([
      { row: 2, column: 'spu_no', message: 'is 101 characters long; the maximum is 100' },
      { row: 2, column: 'product_name', message: 'is 501 characters long; the maximum is 500' },
      { row: 2, column: 'brand', message: 'is 201 characters long; the maximum is 200' },
    ]);
  });

  it('drops a bad image with a warning and keeps the row', () => {
    const result = validate({
      product_images_1: 'javascript:alert(1)',
      product_images_2: `${CDN}/2.jpg`,
      product_images_3: 'data:image/png;base64,AAAA',
      product_images_4: '/img/4.jpg',
    });
    expect(result.product?.product_images).toEqual([`${CDN}/2.jpg`]);
    expect(result.warnings.map(formatIssue)).toEqual([
      "Row 2, column product_images_1: 'javascript:alert(1)' uses javascript:, but only http and https addresses are allowed; the image was left out",
      "Row 2, column product_images_3: 'data:image/png;base64,AAAA' uses data:, but only http and https addresses are allowed; the image was left out",
      "Row 2, column product_images_4: '/img/4.jpg' is not a complete web address; it must start with https:// or http://; the image was left out",
    ]);
  });

  it("splits additional images on ';', trims them and skips empty entries", () => {
    const result = validate({
      additional_product_images: ` ${CDN}/a.jpg ;; ${CDN}/b.jpg;javascript:x; ;http://img.northwind-cdn.test/c.jpg;`,
    });
    expect(result.product?.additional_product_images).toEqual([
      `${CDN}/a.jpg`,
      `${CDN}/b.jpg`,
      'http://img.northwind-cdn.test/c.jpg',
    ]);
    expect(result.warnings).toEqual([
      {
        row: 2,
        column: 'additional_product_images',
        message:
          "image 3: 'javascript:x' uses javascript:, but only http and https addresses are allowed; the image was left out",
      },
    ]);
  });

  it('keeps at most 30 additional images', () => {
    const many = Array.from({ length: 32 }, (_, i) => `${CDN}/d${i}.jpg`).join('; ');
    const result = validate({ additional_product_images: many });
    expect(result.product?.additional_product_images).toHaveLength(30);
    expect(result.warnings.map((w) => w.message)).toEqual(['has 32 usable images; only the first 30 were kept']);
  });

  it('warns when the product has no usable image', () => {
    const result = validate({ product_images_1: 'not a url' });
    expect(result.product?.product_images).toEqual([]);
    expect(result.warnings.map((w) => [w.column, w.message])).toEqual([
      [
        'product_images_1',
        "'not a url' is not a complete web address; it must start with https:// or http://; the image was left out",
      ],
      ['product_images_1', 'the product has no usable image; its card will show no picture'],
    ]);
  });

  it('warns when the sell price is above the MSRP', () => {
    expect(validate({ msrp_us: '19.99', dropshipping_price_us: '$1,024.99' }).warnings).toEqual([
      { row: 2, column: 'dropshipping_price_us', message: '$1,024.99 is higher than the MSRP of $19.99' },
    ]);
  });

  it('refuses a supplier url that is not http(s), and accepts none', () => {
    expect(validate({ url: 'javascript:alert(1)' }).errors).toEqual([
      {
        row: 2,
        column: 'url',
        message: "'javascript:alert(1)' uses javascript:, but only http and https addresses are allowed",
      },
    ]);
    expect(validate({ url: '' }).product?.url).toBe('');
  });

  it('limits html_description to 100 KB of UTF-8', () => {
    expect(validate({ html_description: 'a'.repeat(102_400) }).errors).toEqual([]);
    expect(validate({ html_description: 'a'.repeat(102_401) }).errors).toEqual([
      { row: 2, column: 'html_description', message: 'is 102,401 bytes; the limit is 102,400 bytes (100 KB)' },
    ]);
    // 51,201 characters, but 102,402 bytes.
    expect(validate({ html_description: 'é'.repeat(51_201) }).errors[0]?.message).toBe(
      'is 102,402 bytes; the limit is 102,400 bytes (100 KB)',
    );
  });
});

describe('checkWebAddress', () => {
  it.each([
    ['https://img.northwind-cdn.test/a b.jpg', 'https://img.northwind-cdn.test/a%20b.jpg'],
    ['HTTP://IMG.northwind-cdn.test/A.jpg', 'http://img.northwind-cdn.test/A.jpg'],
    ['https://img.northwind-cdn.test', 'https://img.northwind-cdn.test/'],
  ])('accepts %j', (text, href) => {
    expect(checkWebAddress(text)).toEqual({ ok: true, href });
  });

  it.each([
    ['javascript:alert(1)', "'javascript:alert(1)' uses javascript:, but only http and https addresses are allowed"],
    ['JaVaScRiPt:alert(1)', "'JaVaScRiPt:alert(1)' uses javascript:, but only http and https addresses are allowed"],
    [
      'data:image/png;base64,AA',
      "'data:image/png;base64,AA' uses data:, but only http and https addresses are allowed",
    ],
    ['ftp://x.test/a.jpg', "'ftp://x.test/a.jpg' uses ftp:, but only http and https addresses are allowed"],
    ['/img/a.jpg', "'/img/a.jpg' is not a complete web address; it must start with https:// or http://"],
    ['//cdn.test/a.jpg', "'//cdn.test/a.jpg' is not a complete web address; it must start with https:// or http://"],
    ['img.jpg', "'img.jpg' is not a complete web address; it must start with https:// or http://"],
    ['https://', "'https://' is not a valid web address"],
    ['http://exa mple.test/', "'http://exa mple.test/' is not a valid web address"],
    ['https://user:pw@cdn.test/a.jpg', "'https://user:pw@cdn.test/a.jpg' contains a user name or password"],
    [`https://cdn.test/${'a'.repeat(2040)}`, `'https://cdn.test/${'a'.repeat(22)}…' is longer than 2,048 characters`],
  ])('refuses %j', (text, problem) => {
    expect(checkWebAddress(text)).toEqual({ ok: false, problem });
  });
});

describe('product id and content hash', () => {
  it('derives the id from the normalized spu_no: SHA-256, first 32 hex digits', () => {
    const expected = createHash('sha256').update('SPU-10001').digest('hex').slice(0, 32);
    expect(productIdFromSpuNo('SPU-10001')).toBe(expected);
    expect(productIdFromSpuNo('  SPU-10001 ')).toBe(expected);
    expect(productIdFromSpuNo('spu-10001')).not.toBe(expected);
    expect(normalizeSpuNo(' A \t B ')).toBe('A B');
  });

  it('gives the same hash for the same content, and a different one when anything changes', () => {
    const product = validate().product;
    if (!product) throw new Error('expected a product');
    const { id: _id, content_hash: hash, ...content } = product;
    expect(contentHashOf(content)).toBe(hash);
    expect(validate({ product_name: '  Merino   Wool Crew Socks ' }).product?.content_hash).toBe(hash);
    const changes: Partial<CsvProductContent>[] = [
      { product_name: 'Other' },
      { brand: 'Other' },
      { msrp_us_cents: 2500 },
      { dropshipping_price_us_cents: 1296 },
      { product_images: [] },
      { additional_product_images: [`${CDN}/x.jpg`] },
      { html_description: '<p>Cold</p>' },
      { url: '' },
    ];
    const hashes = new Set(changes.map((change) => contentHashOf({ ...content, ...change })));
    expect(hashes.size).toBe(changes.length);
    expect(hashes.has(hash)).toBe(false);
  });

  it('accepts another SHA-256 implementation with the same result', () => {
    const nodeHash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const viaNode = validateProductRow(cells({ product_name: 'Crème brûlée 🍮' }), 2, header(), nodeHash);
    expect(viaNode.product).toEqual(validate({ product_name: 'Crème brûlée 🍮' }).product);
  });

  it('checkProductRow gives the same outcome without the hash, and withContentHash completes it', () => {
    const rows = [cells(), cells({ msrp_us: 'abc' }), cells({ product_images_1: 'javascript:alert(1)' })];
    for (const [index, row] of rows.entries()) {
      const full = validateProductRow(row, index + 2, header());
      const checked = checkProductRow(row, index + 2, header());
      expect(checked.errors).toEqual(full.errors);
      expect(checked.warnings).toEqual(full.warnings);
      if (!full.product) expect(checked.product).toBeNull();
      else {
        expect(checked.product).not.toHaveProperty('content_hash');
        expect(withContentHash(checked.product!)).toEqual(full.product);
      }
    }
  });
});

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes like TextEncoder', () => {
    const samples = ['', 'abc', 'é', '€', '日本', '🎧', 'a\uD800b', 'mixed é€🎧 text'];
    for (const text of samples) {
      const expected = text === 'a\uD800b' ? 5 : new TextEncoder().encode(text).length;
      expect(utf8ByteLength(text)).toBe(expected);
    }
  });
});
