import { pure } from '../api/pure';
import * as z from '../api/zod';
import { CsvFatalSchema, CsvIssueSchema, type CsvFatal, type CheckedRow, type CsvIssue } from './csv-product';
import { quoteValue } from './money';

/**
 * The outcome of reading a catalogue CSV, and the bookkeeping that produces it row by row in
 * bounded memory: counters, the issue lists (capped), and for "the last row wins" one map
 * entry per distinct spu_no (never the rows themselves).
 */

export const DEFAULT_MAX_ISSUES = 1000;

export const CsvImportReportSchema = /* @__PURE__ */ pure(() =>
  z.object({
    /** Set when the file is rejected as a whole; then nothing is imported and `accepted` is 0. */
    fatal: z.nullable(CsvFatalSchema),
    /** Data rows read (blank lines and rows of only empty values are not rows). */
    rowsRead: z.int().check(z.nonnegative()),
    /** Distinct products to import: valid rows, each spu_no counted once. */
    accepted: z.int().check(z.nonnegative()),
    /** Rows with at least one error. */
    rejected: z.int().check(z.nonnegative()),
    /**
     * Valid rows superseded by a later row with the same spu_no. Without a fatal problem,
     * rowsRead = accepted + rejected + replaced.
     */
    replaced: z.int().check(z.nonnegative()),
    errorCount: z.int().check(z.nonnegative()),
    warningCount: z.int().check(z.nonnegative()),
    /** The first issues, in file order, up to the cap; the counts above are always complete. */
    errors: z.array(CsvIssueSchema),
    warnings: z.array(CsvIssueSchema),
    /** True when errors or warnings were left out of the lists because of the cap. */
    issuesTruncated: z.boolean(),
  }),
);
export type CsvImportReport = z.infer<typeof CsvImportReportSchema>;

/** What became of a row: kept for import (possibly replacing an earlier row) or rejected. */
export type RowDecision = { kept: true; replacesRow: number | null } | { kept: false };

/** The warning on a valid row whose spu_no an earlier valid row also had. */
export function replacedRowWarning(row: number, spuNo: string, earlierRow: number): CsvIssue {
  return {
    row,
    column: 'spu_no',
    message: `${quoteValue(spuNo)} also appears on row ${earlierRow}; this row replaces it (the last row wins)`,
  };
}

export class CsvReportBuilder {
  private fatal: CsvFatal | null = null;
  private rowsRead = 0;
  private rejected = 0;
  private replaced = 0;
  private errorCount = 0;
  private warningCount = 0;
  private readonly errors: CsvIssue[] = [];
  private readonly warnings: CsvIssue[] = [];
  private issuesTruncated = false;
  /** Normalized spu_no -> the row that currently wins. */
  private readonly latestRow = new Map<string, number>();

  constructor(private readonly maxIssues: number = DEFAULT_MAX_ISSUES) {}

  /** Warnings about the header (ignored columns). */
  addHeaderWarnings(warnings: readonly CsvIssue[]): void {
    for (const warning of warnings) this.warn(warning);
  }

  /**
   * Records one validated row. A valid row whose spu_no was already seen replaces the earlier
   * row, with a warning on this row. A rejected row never replaces anything: its errors are
   * reported and an earlier valid row with the same spu_no stays.
   */
  addRow(outcome: CheckedRow): RowDecision {
    this.rowsRead += 1;
    for (const error of outcome.errors) this.error(error);
    for (const warning of outcome.warnings) this.warn(warning);
    if (!outcome.product) {
      this.rejected += 1;
      return { kept: false };
    }
    const spuNo = outcome.product.spu_no;
    const earlier = this.latestRow.get(spuNo) ?? null;
    if (earlier !== null) {
      this.replaced += 1;
      this.warn(replacedRowWarning(outcome.row, spuNo, earlier));
    }
    this.latestRow.set(spuNo, outcome.row);
    return { kept: true, replacesRow: earlier };
  }

  fail(fatal: CsvFatal): void {
    this.fatal ??= fatal;
  }

  get isFatal(): boolean {
    return this.fatal !== null;
  }

  /** Normalized spu_no -> the row whose product is imported. */
  get winners(): ReadonlyMap<string, number> {
    return this.latestRow;
  }

  build(): CsvImportReport {
    return {
      fatal: this.fatal,
      rowsRead: this.rowsRead,
      accepted: this.fatal ? 0 : this.latestRow.size,
      rejected: this.rejected,
      replaced: this.replaced,
      errorCount: this.errorCount,
      warningCount: this.warningCount,
      errors: [...this.errors],
      warnings: [...this.warnings],
      issuesTruncated: this.issuesTruncated,
    };
  }

  private error(issue: CsvIssue): void {
    this.errorCount += 1;
    this.keep(this.errors, issue);
  }

  private warn(issue: CsvIssue): void {
    this.warningCount += 1;
    this.keep(this.warnings, issue);
  }

  private keep(list: CsvIssue[], issue: CsvIssue): void {
    if (list.length < this.maxIssues) list.push(issue);
    else this.issuesTruncated = true;
  }
}
