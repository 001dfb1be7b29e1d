import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { auth, importCsv, tokenFor } from './catalogue-helpers';
import { allItems, call } from './helpers';

/**
 * The rejected-rows download holds each row as it was uploaded, so that the admin can fix the
 * cells and upload the same file: through the real handlers, S3 and the S3 event path.
 */

let admin = '';
beforeAll(async () => {
  admin = await tokenFor(true);
});

let counter = 0;
const spu = (label: string) => `RR-${label}-${Date.now().toString(36)}-${counter++}`;

/** A supplier's own layout: its header spelling, its column order and a column the import does not use. */
const HEADER = [
  'SPU_NO',
  ' Product_Name ',
  'supplier_notes',
  'brand',
  'msrp_us',
  'dropshipping_price_us',
  'product_images_1',
  'html_description',
];

/** Serializes like a spreadsheet saving CSV: quotes only where needed. */
function toCsvText(rows: readonly (readonly string[])[]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

const job = async (id: string) => (await call(getImportJob, { body: { id }, headers: auth(admin) })).body;
const download = (id: string) => call(getRejected, { body: { id }, headers: auth(admin) });
const products = async () =>
  (await allItems())
    .filter((item) => item.entity === 'Product')
    .sort((a, b) => String(a.pk).localeCompare(String(b.pk)));

describe('rejected rows: download, fix, upload again', () => {
  it('gives back each rejected row whole; the fixed download imports those products and changes nothing else', async () => {
    const good = spu('good');
    const warned = spu('warned');
    const negative = spu('negative');
    const nameless = spu('nameless');
    const image = (id: string) => `https://img.example.test/${id}.jpg`;
    const rows = [
      [good, 'Desk Lamp', 'ok', 'Lumo', '40.00', '20.00', image(good), '<p>Bright.</p>'],
      // Valid, with a warning (sell price above MSRP): imported, and in the download as a warning.
      [warned, 'Wall Clock', 'check', 'Tick', '10.00', '12.00', image(warned), '<p>Round.</p>'],
      // Rejected: a negative price, which the download's formula guard turns into '-5.
      [negative, 'Travel Mug', '=HYPERLINK("http://evil.example")', 'Brandly', '-5', '12.95', image(negative), ''],
      // Rejected: no name; the brand looks like a formula, the description spans lines.
      [nameless, '', '+notes', '@Brand', '19.99', '9.99', image(nameless), '<p>Two\nlines, "quoted"</p>'],
    ];
    const original = toCsvText([HEADER, ...rows]);
    const first = await importCsv(admin, 'supplier feed.csv', original);
    expect(await job(first.jobId)).toMatchObject({ status: 'completed', rowsRead: 4, created: 2, rejected: 2 });

    const answer = await download(first.jobId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ fileName: 'supplier feed-rejected-rows.csv', truncated: false });
    const text = String(answer.body.csv);
    // Formula-safe: no cell starts with = + - @ (each got an apostrophe), every cell quoted.
    const cells = parse(text, { relax_column_count: false }) as string[][];
    for (const cell of cells.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(text).toContain(`"'-5"`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);

    const [header, ...downloaded] = cells;
    expect(header).toEqual([...HEADER, '[portal] outcome', '[portal] row', '[portal] problem']);
    // File order; each row whole, its line in the file, and what is wrong (errors and warnings labelled).
    expect(downloaded.map((row) => row.at(-2))).toEqual(['3', '4', '5']);
    expect(downloaded.map((row) => row.at(-3))).toEqual(['imported with a warning', 'rejected', 'rejected']);
    expect(downloaded[0]!.slice(0, HEADER.length)).toEqual(rows[1]);
    expect(downloaded[0]!.at(-1)).toMatch(/^Warning: \[dropshipping_price_us\] \$12\.00 is higher than the MSRP/);
    expect(downloaded[1]!.slice(0, HEADER.length)).toEqual(rows[2]!.map((c) => (/^[=+\-@]/.test(c) ? `'${c}` : c)));
    expect(downloaded[1]!.at(-1)).toBe("Rejected: [msrp_us] '-5' is negative; a price must be greater than zero");
    expect(downloaded[2]!.slice(0, HEADER.length)).toEqual(rows[3]!.map((c) => (/^[=+\-@]/.test(c) ? `'${c}` : c)));
    expect(downloaded[2]!.at(-1)).toBe('Rejected: [product_name] a value is required');

    // The admin fixes the two bad cells in a spreadsheet and saves; the formula guards stay.
    const fixed = cells.map((row) => [...row]);
    fixed[2]![HEADER.indexOf('msrp_us')] = '25.00';
    fixed[3]![HEADER.indexOf(' Product_Name ')] = 'Pen Holder';
    const before = await products();

    const second = await importCsv(admin, 'supplier feed-rejected-rows.csv', toCsvText(fixed));
    expect(await job(second.jobId)).toMatchObject({
      status: 'completed',
      rowsRead: 3,
      created: 2,
      updated: 0,
      unchanged: 1,
      rejected: 0,
      // supplier_notes and the three report columns (ignored), and the clock's price.
      warnings: 5,
    });
    const after = await products();
    const added = after.filter((item) => !before.some((old) => old.pk === item.pk));
    expect(added.map((item) => item.id).sort()).toEqual(
      [productIdFromSpuNo(negative), productIdFromSpuNo(nameless)].sort(),
    );
    // Every product that was there is exactly as it was.
    expect(after.filter((item) => before.some((old) => old.pk === item.pk))).toEqual(before);

    // The apostrophe the download put before = + - @ is not part of the value.
    expect(await dynamoProducts.get(productIdFromSpuNo(negative))).toMatchObject({
      status: 'review',
      current: { product_name: 'Travel Mug', brand: 'Brandly', msrp_us_cents: 2500, dropshipping_price_us_cents: 1295 },
    });
    expect(await dynamoProducts.get(productIdFromSpuNo(nameless))).toMatchObject({
      current: { product_name: 'Pen Holder', brand: '@Brand', html_description: '<p>Two\nlines, "quoted"</p>' },
    });

    // A second download of the fixed file lists the warning row once, under fresh report columns.
    const again = parse(String((await download(second.jobId)).body.csv)) as string[][];
    expect(again[0]).toEqual([...HEADER, '[portal] outcome', '[portal] row', '[portal] problem']);
    expect(again.slice(1).map((row) => row[0])).toEqual([warned]);
  });

  it('offers the rows of an import with warnings only, labelled as warnings', async () => {
    const plain = spu('plain');
    const noImage = spu('noimage');
    const file = toCsvText([
      ['product_name', 'msrp_us', 'dropshipping_price_us', 'spu_no', 'product_images_1'],
      ['Plain', '10.00', '5.00', plain, 'https://img.example.test/p.jpg'],
      ['No Picture', '10.00', '5.00', noImage, ''],
    ]);
    const { jobId } = await importCsv(admin, 'warn.csv', file);
    expect(await job(jobId)).toMatchObject({ status: 'completed', created: 2, rejected: 0, warnings: 1 });
    const answer = await download(jobId);
    expect(answer.body).toMatchObject({ fileName: 'warn-rows-with-warnings.csv', truncated: false });
    expect(parse(String(answer.body.csv))).toEqual([
      [
        'product_name',
        'msrp_us',
        'dropshipping_price_us',
        'spu_no',
        'product_images_1',
        '[portal] outcome',
        '[portal] row',
        '[portal] problem',
      ],
      [
        'No Picture',
        '10.00',
        '5.00',
        noImage,
        '',
        'imported with a warning',
        '3',
        'Warning: [product_images_1] the product has no usable image; its card will show no picture',
      ],
    ]);
  });

  it('keeps a rejected row of any size whole (stored in parts under the 400 KB item limit)', async () => {
    const big = spu('big');
    // 150,000 three-byte characters: 450 KB of UTF-8, over the description limit and one item's size.
    const description = `<p>${'€'.repeat(150_000)}</p>`;
    const file = toCsvText([
      ['product_name', 'msrp_us', 'dropshipping_price_us', 'spu_no', 'html_description', 'product_images_1'],
      ['Heavy', '10.00', '5.00', big, description, 'https://img.example.test/h.jpg'],
    ]);
    const { jobId } = await importCsv(admin, 'big.csv', file);
    expect(await job(jobId)).toMatchObject({ rejected: 1 });
    const [, row] = parse(String((await download(jobId)).body.csv)) as string[][];
    expect(row!.slice(0, 6)).toEqual(['Heavy', '10.00', '5.00', big, description, 'https://img.example.test/h.jpg']);
    expect(row![6]).toBe('rejected');
    expect(row![8]).toMatch(/^Rejected: \[html_description\] is 450,/);
  });

  it('answers 404 in words for an unknown import', async () => {
    const answer = await download('0'.repeat(32));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('There is no import with that id.');
  });
});
