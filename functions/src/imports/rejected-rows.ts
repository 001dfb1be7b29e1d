import {
  normalizeHeaderName,
  REPORT_COLUMNS,
  REPORT_OUTCOME_COLUMN,
  REPORT_PROBLEM_COLUMN,
  REPORT_ROW_COLUMN,
  utf8ByteLength,
  type CsvIssue,
} from '@portal/shared/domain/csv-product';
import { DEFAULT_MAX_ISSUES } from '@portal/shared/domain/csv-report';
import type { RowWithIssues } from '../catalogue/parse-csv';
import { escapeCell, toCsv } from './csv-export';

/**
 * The rows of an import that need a person: each rejected row, and each row with a warning, as
 * the file holds them (every supplier column, in the file's order, under the file's header
 * names), so that the admin can fix the cells in a spreadsheet and upload the same file again.
 * The download adds three columns the import ignores: whether the row was rejected or imported
 * with a warning, the row's line in the uploaded file and what is wrong (REPORT_COLUMNS in
 * shared/src/domain/csv-product.ts). Pictures are not among them: they are hosted after the import
 * (issue 38), and their failures are on its picture progress.
 *
 * Bounded: at most DEFAULT_MAX_ISSUES rows with errors and as many with warnings only, and at
 * most ERROR_ROWS_BYTES / WARNING_ROWS_BYTES of the download's text for each (the download is
 * one JSON answer, which Lambda limits to 6 MB). Rows beyond are left out and the download
 * says it is truncated.
 */

export interface StoredReportRow {
  /** The file line the row starts on. */
  row: number;
  /** 'error' when the row was rejected; 'warning' when it was imported with warnings. */
  severity: 'error' | 'warning';
  /** The row's cells exactly as the parser split them from the file. */
  cells: string[];
  /** Every problem of the row, in words, errors first. */
  problem: string;
}

export interface RejectedRows {
  /** The header's cells as in the file. */
  header: string[];
  rows: StoredReportRow[];
  /** True when rows were left out because of the caps. */
  truncated: boolean;
}

export const ERROR_ROWS_BYTES = 3 * 1024 * 1024;
export const WARNING_ROWS_BYTES = 1.5 * 1024 * 1024;

/** "Rejected: [msrp_us] '-5' is negative; … | Warning: [product_images_1] …" */
export function describeProblems(errors: readonly CsvIssue[], warnings: readonly CsvIssue[]): string {
  const part = (label: string, issues: readonly CsvIssue[]) =>
    issues.length === 0
      ? []
      : [
          `${label}: ${issues.map((issue) => (issue.column === null ? issue.message : `[${issue.column}] ${issue.message}`)).join(' | ')}`,
        ];
  return [...part('Rejected', errors), ...part('Warning', warnings)].join(' | ');
}

/** Collects the rows of pass 1 (validateCatalogueCsv's onHeader and onRowWithIssues) within the caps. */
export class RejectedRowsCollector {
  private header: string[] = [];
  private readonly rows: StoredReportRow[] = [];
  private truncated = false;
  private readonly used = { error: { rows: 0, bytes: 0 }, warning: { rows: 0, bytes: 0 } };

  constructor(
    private readonly limits = {
      rows: DEFAULT_MAX_ISSUES,
      errorBytes: ERROR_ROWS_BYTES,
      warningBytes: WARNING_ROWS_BYTES,
    },
  ) {}

  onHeader = (cells: readonly string[]): void => {
    this.header = [...cells];
  };

  onRowWithIssues = (entry: RowWithIssues): void => {
    const severity = entry.errors.length > 0 ? 'error' : 'warning';
    const used = this.used[severity];
    const maxBytes = severity === 'error' ? this.limits.errorBytes : this.limits.warningBytes;
    if (used.rows >= this.limits.rows) {
      this.truncated = true;
      return;
    }
    const stored: StoredReportRow = {
      row: entry.row,
      severity,
      cells: [...entry.cells],
      problem: describeProblems(entry.errors, entry.warnings),
    };
    // What the row costs in the download: its CSV line, as the JSON answer carries it.
    const bytes = utf8ByteLength(JSON.stringify(downloadLine(this.header, stored)));
    if (used.bytes + bytes > maxBytes) {
      this.truncated = true;
      return;
    }
    used.rows += 1;
    used.bytes += bytes;
    this.rows.push(stored);
  };

  build(): RejectedRows {
    return { header: this.header, rows: [...this.rows], truncated: this.truncated };
  }
}

const OUTCOME_WORDS: Record<StoredReportRow['severity'], string> = {
  error: 'rejected',
  warning: 'imported with a warning',
};

/** Positions of the header cells that are the supplier's (not the columns an earlier download added). */
function supplierPositions(header: readonly string[]): number[] {
  const positions: number[] = [];
  header.forEach((name, index) => {
    if (!REPORT_COLUMNS.includes(normalizeHeaderName(name))) positions.push(index);
  });
  return positions;
}

/**
 * A row's cells under the download's header: the supplier's columns in the file's order, then
 * the row number and the problem. A row with too few values gets empty cells; a row with too
 * many (usually an unquoted comma) keeps its extra values, joined with commas, in its last
 * supplier column, so no text is lost. The report columns of an earlier download are replaced.
 */
function downloadCells(header: readonly string[], row: StoredReportRow): (string | number)[] {
  const positions = supplierPositions(header);
  const cells = positions.map((position) => row.cells[position] ?? '');
  if (row.cells.length > header.length && cells.length > 0) {
    cells[cells.length - 1] = [cells[cells.length - 1], ...row.cells.slice(header.length)].join(',');
  }
  return [...cells, OUTCOME_WORDS[row.severity], row.row, row.problem];
}

function downloadHeader(header: readonly string[]): string[] {
  return [
    ...supplierPositions(header).map((position) => header[position] ?? ''),
    REPORT_OUTCOME_COLUMN,
    REPORT_ROW_COLUMN,
    REPORT_PROBLEM_COLUMN,
  ];
}

function downloadLine(header: readonly string[], row: StoredReportRow): string {
  return downloadCells(header, row).map(escapeCell).join(',');
}

/** The download: formula-safe, every cell quoted, CRLF line ends. */
export function rejectedRowsCsv(report: RejectedRows): string {
  return toCsv(
    downloadHeader(report.header),
    report.rows.map((row) => downloadCells(report.header, row)),
  );
}
