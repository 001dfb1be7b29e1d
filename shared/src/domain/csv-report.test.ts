import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, mapHeader, validateProductRow, type HeaderMapping, type ValidatedRow } from './csv-product';
import { CsvImportReportSchema, CsvReportBuilder } from './csv-report';

const mapping = (): HeaderMapping => {
  const result = mapHeader([...CSV_COLUMNS]);
  if (!result.ok) throw new Error(result.fatal.message);
  return result.mapping;
};

function row(line: number, spuNo: string, msrp = '24.99'): ValidatedRow {
  const values: Record<string, string> = {
    product_name: `Product ${spuNo}`,
    msrp_us: msrp,
    dropshipping_price_us: '12.00',
    product_images_1: 'https://img.northwind-cdn.test/a.jpg',
    spu_no: spuNo,
  };
  return validateProductRow(
    CSV_COLUMNS.map((column) => values[column] ?? ''),
    line,
    mapping(),
  );
}

describe('CsvReportBuilder', () => {
  it('counts rows and lets the last valid row of an spu_no win, with a warning', () => {
    const builder = new CsvReportBuilder();
    expect(builder.addRow(row(2, 'A'))).toEqual({ kept: true, replacesRow: null });
    expect(builder.addRow(row(3, 'B'))).toEqual({ kept: true, replacesRow: null });
    expect(builder.addRow(row(4, 'A'))).toEqual({ kept: true, replacesRow: 2 });
    expect(builder.addRow(row(5, 'B', 'abc'))).toEqual({ kept: false });
    expect(builder.addRow(row(6, 'A'))).toEqual({ kept: true, replacesRow: 4 });
    expect([...builder.winners]).toEqual([
      ['A', 6],
      ['B', 3],
    ]);
    const report = builder.build();
    expect(CsvImportReportSchema.parse(report)).toEqual(report);
    expect(report).toEqual({
      fatal: null,
      rowsRead: 5,
      accepted: 2,
      rejected: 1,
      replaced: 2,
      errorCount: 1,
      warningCount: 2,
      errors: [{ row: 5, column: 'msrp_us', message: "'abc' is not a price; write a number such as 12.50" }],
      warnings: [
        { row: 4, column: 'spu_no', message: "'A' also appears on row 2; this row replaces it (the last row wins)" },
        { row: 6, column: 'spu_no', message: "'A' also appears on row 4; this row replaces it (the last row wins)" },
      ],
      issuesTruncated: false,
    });
  });

  it('caps the issue lists but keeps exact counts', () => {
    const builder = new CsvReportBuilder(2);
    for (let line = 2; line < 7; line += 1) builder.addRow(row(line, `S${line}`, '0'));
    const report = builder.build();
    expect(report.errorCount).toBe(5);
    expect(report.errors.map((issue) => issue.row)).toEqual([2, 3]);
    expect(report.issuesTruncated).toBe(true);
  });

  it('accepts nothing once the file is fatally damaged, keeping the first fatal problem', () => {
    const builder = new CsvReportBuilder();
    builder.addRow(row(2, 'A'));
    builder.fail({ kind: 'not-utf8', line: 3, message: 'first' });
    builder.fail({ kind: 'broken-quoting', line: 9, message: 'second' });
    expect(builder.isFatal).toBe(true);
    expect(builder.build()).toMatchObject({ fatal: { message: 'first' }, rowsRead: 1, accepted: 0 });
  });

  it('lists header warnings first', () => {
    const builder = new CsvReportBuilder();
    builder.addHeaderWarnings([{ row: 1, column: 'weight', message: 'ignored' }]);
    expect(builder.build().warnings).toEqual([{ row: 1, column: 'weight', message: 'ignored' }]);
  });
});
