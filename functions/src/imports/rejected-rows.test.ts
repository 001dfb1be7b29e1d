import { describe, expect, it } from 'vitest';
import { RejectedRowsCollector, rejectedRowsCsv } from './rejected-rows';

const error = (row: number, column: string | null, message: string) => ({ row, column, message });

describe('rejected rows', () => {
  it('keeps at most the cap of rows of each kind and says the download is truncated', () => {
    const collector = new RejectedRowsCollector({ rows: 2, errorBytes: 1_000_000, warningBytes: 1_000_000 });
    collector.onHeader(['spu_no', 'msrp_us']);
    for (let row = 2; row < 6; row++) {
      collector.onRowWithIssues({ row, cells: [`S${row}`, 'x'], errors: [error(row, 'msrp_us', 'bad')], warnings: [] });
    }
    collector.onRowWithIssues({ row: 6, cells: ['S6', '1'], errors: [], warnings: [error(6, null, 'hm')] });
    const report = collector.build();
    expect(report.rows.map((row) => [row.row, row.severity])).toEqual([
      [2, 'error'],
      [3, 'error'],
      [6, 'warning'],
    ]);
    expect(report.truncated).toBe(true);
  });

  it('bounds the bytes the rows take in the download', () => {
    const collector = new RejectedRowsCollector({ rows: 100, errorBytes: 250, warningBytes: 250 });
    collector.onHeader(['spu_no', 'html_description']);
    collector.onRowWithIssues({ row: 2, cells: ['A', 'x'.repeat(100)], errors: [error(2, null, 'bad')], warnings: [] });
    collector.onRowWithIssues({ row: 3, cells: ['B', 'x'.repeat(100)], errors: [error(3, null, 'bad')], warnings: [] });
    const report = collector.build();
    expect(report.rows.map((row) => row.row)).toEqual([2]);
    expect(report.truncated).toBe(true);
  });

  it("fits a ragged row under the file's header without losing text, and replaces an earlier download's report columns", () => {
    const csv = rejectedRowsCsv({
      header: ['spu_no', '[portal] row', 'name', '[Portal] Problem', 'brand'],
      rows: [
        {
          row: 4,
          severity: 'error',
          cells: ['A', '9', 'Mug', 'old problem', 'Big', ' Co'],
          problem: 'Rejected: columns',
        },
        { row: 5, severity: 'error', cells: ['B'], problem: 'Rejected: short' },
      ],
      truncated: false,
    });
    expect(csv.split('\r\n')).toEqual([
      '"spu_no","name","brand","[portal] outcome","[portal] row","[portal] problem"',
      '"A","Mug","Big, Co","rejected","4","Rejected: columns"',
      '"B","","","rejected","5","Rejected: short"',
      '',
    ]);
  });

  it('says of each row whether it was rejected or imported with a warning, in file order', () => {
    const collector = new RejectedRowsCollector();
    collector.onHeader(['spu_no', 'name', 'product_images_1']);
    collector.onRowWithIssues({ row: 3, cells: ['B', 'Bad', ''], errors: [error(3, 'name', 'bad')], warnings: [] });
    collector.onRowWithIssues({
      row: 5,
      cells: ['C', 'Pricey', 'http://x/c.jpg'],
      errors: [],
      warnings: [{ row: 5, column: 'dropshipping_price_us', message: 'higher than the MSRP' }],
    });
    expect(rejectedRowsCsv(collector.build()).split('\r\n')).toEqual([
      '"spu_no","name","product_images_1","[portal] outcome","[portal] row","[portal] problem"',
      '"B","Bad","","rejected","3","Rejected: [name] bad"',
      '"C","Pricey","http://x/c.jpg","imported with a warning","5","Warning: [dropshipping_price_us] higher than the MSRP"',
      '',
    ]);
  });
});
