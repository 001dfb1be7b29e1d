import type { Readable } from 'node:stream';
import {
  checkProductRow,
  contentHashOf,
  mapHeader,
  storedProduct,
  type CheckedProduct,
  type CheckedRow,
  type CsvFatal,
  type CsvIssue,
  type CsvProduct,
  type HeaderMapping,
} from '@portal/shared/domain/csv-product';
import { CsvReportBuilder, replacedRowWarning, type CsvImportReport } from '@portal/shared/domain/csv-report';
import { CsvRecordReader, damaged, type CsvRecord } from './csv-records';
import { sanitizeDescription } from './sanitize';
import { Utf8LineTracker, type Utf8Failure } from './utf8-lines';

/**
 * Streaming reader of the supplier catalogue CSV.
 *
 * Pipeline, one chunk at a time: bytes -> UTF-8 check with line counting (utf8-lines.ts) ->
 * csv-parse (csv-records.ts) -> header mapping and row validation (shared csv-product.ts) ->
 * report bookkeeping (shared csv-report.ts). Nothing holds more than one chunk's rows, except
 * the map of spu_no -> winning row used for "the last row wins".
 *
 * The fatal rule. A file that is damaged anywhere (not UTF-8, broken quoting, a row over 1 MiB)
 * or whose header is unusable (empty, no rows, missing or duplicate columns, not
 * comma-separated) is rejected as a whole: NO rows are imported, not even those before the
 * break, and the report's fatal message says so with the line ("No rows were imported because
 * the file is damaged at line N" is the gist). Row errors found before the break are still in
 * the report, to help fix the file. A row-level problem (bad price, missing name, too few or
 * too many values, oversized description) only rejects that row.
 *
 * Why two passes. Rows cannot be written while reading if a break further down must cancel
 * them, and keeping 100 000 rows in memory until the end is not bounded. So the importer reads
 * the file twice, streaming both times (for S3: two GetObject calls on the same VersionId, or
 * with IfMatch on the ETag of the first read):
 *   1. validateCatalogueCsv: the report, plus spu_no -> the row that wins. Nothing is written.
 *   2. if the report has no fatal problem, importCatalogueCsv yields the winning products in
 *      file order, in batches (25 = one DynamoDB BatchWriteItem), sanitized, ready to write.
 *      It re-validates as it goes and throws CatalogueCsvChangedError if the file is not the
 *      one validated, so a mismatch cannot go unnoticed.
 * Deduplication needs only the map from pass 1: pass 2 skips every row that is not the winner
 * of its spu_no, so a repeated spu_no is written once, with the last row's values.
 *
 * parseCatalogueCsv does both in one pass and keeps the products in memory: for small files,
 * previews and tests.
 */

/** The file as bytes: a Node Readable without an encoding, or any (async) iterable of chunks. */
export type CsvSource = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * A row's outcome carries its product without the content hash; what is stored is hashed when
 * kept. Both events also carry the cells as the parser split them (untrimmed, as in the file).
 */
export type CsvEvent =
  | { kind: 'header'; warnings: CsvIssue[]; cells: readonly string[] }
  | { kind: 'row'; outcome: CheckedRow; cells: readonly string[]; next: ResumePoint };

/** A place in the file where a record may start: its byte and its line. */
export interface ResumePoint {
  byte: number;
  line: number;
}

/** A data row that has errors or warnings, with its cells exactly as the file holds them. */
export interface RowWithIssues {
  row: number;
  cells: readonly string[];
  errors: readonly CsvIssue[];
  /** Including the "last row wins" warning of a row that replaces an earlier one. */
  warnings: readonly CsvIssue[];
}

/** A product ready to store: its html_description is sanitized. */
export interface ImportRow {
  row: number;
  product: CsvProduct;
  /** Where the file goes on after this row: a run that stops after it resumes there. */
  next: ResumePoint;
}

export interface CsvValidation {
  report: CsvImportReport;
  /** Normalized spu_no -> the row whose product is imported (the last valid row with it). */
  winners: ReadonlyMap<string, number>;
  /** The valid rows a later row with the same spu_no replaced (not imported), in file order. */
  replaced: readonly number[];
  /** The header's cells as in the file (a resumed read maps the columns from them). */
  header: readonly string[];
}

/**
 * What a read resumed from a checkpoint needs of the validation (run-import.ts stores it): where
 * to start, the header, the rows after that point to skip, and how many products are left.
 */
export interface ResumedValidation {
  from: ResumePoint;
  header: readonly string[];
  /** Rows after `from` that a later row replaced. */
  replaced: ReadonlySet<number>;
  /** Products still to read from `from` to the end. */
  remaining: number;
}

export interface ReadOptions {
  /** How many errors and how many warnings the report lists; the counts are always complete. */
  maxIssues?: number;
  /** Replaces the server sanitizer (tests, or a client-side preview with DOMPurify). */
  sanitize?: (html: string) => string;
}

export interface ValidateOptions extends Pick<ReadOptions, 'maxIssues'> {
  /**
   * Called, in file order, with each row that would be imported as the file stands so far (a
   * later row with the same spu_no may still replace it). The importer uses it to look up the
   * stored products while the rest of the file is being read.
   */
  onKept?: (product: CheckedProduct, row: number) => void;
  /** Called once with the header's cells as in the file. */
  onHeader?: (cells: readonly string[]) => void;
  /** Called, in file order, with every data row that has errors or warnings. */
  onRowWithIssues?: (row: RowWithIssues) => void;
}

export interface ImportOptions extends Pick<ReadOptions, 'sanitize'> {
  /** Products per yielded batch; 25 matches DynamoDB BatchWriteItem. */
  batchSize?: number;
}

export const DEFAULT_BATCH_SIZE = 25;

/** The file is rejected as a whole. */
export class CatalogueCsvFatalError extends Error {
  constructor(readonly fatal: CsvFatal) {
    super(fatal.message);
    this.name = 'CatalogueCsvFatalError';
  }
}

/** The import pass read a different file from the one validated. Nothing should be trusted. */
export class CatalogueCsvChangedError extends Error {
  constructor(detail: string) {
    super(`The file changed between validation and import: ${detail}.`);
    this.name = 'CatalogueCsvChangedError';
  }
}

/**
 * The low-level stream: a 'header' event (with the ignored-column warnings), then one 'row'
 * event per data row, in file order. Throws CatalogueCsvFatalError at the first fatal problem,
 * after the events of the rows before it.
 */
export async function* readCatalogueCsv(source: CsvSource): AsyncGenerator<CsvEvent, void, undefined> {
  for await (const events of readCatalogueCsvChunks(source)) yield* events;
}

/**
 * readCatalogueCsv a chunk of the file at a time: the events of each chunk's rows in one array.
 * Both passes read this one: an await per chunk rather than one per row through each generator.
 */
export async function* readCatalogueCsvChunks(
  source: CsvSource,
  resume?: { from: ResumePoint; header: readonly string[] },
): AsyncGenerator<CsvEvent[], void, undefined> {
  const utf8 = new Utf8LineTracker();
  const csv = new CsvRecordReader(resume?.from);
  const rows = new RowInterpreter(resume?.header);
  /** Whether the bytes given to the parser so far end with a complete line. */
  let atLineStart = true;
  for await (const chunk of source) {
    const bytes = asBytes(chunk);
    const check = utf8.push(bytes);
    if (!check.ok) {
      const complete = check.completeLines;
      yield* linesBeforeBreak(csv, rows, complete, complete.length > 0 || atLineStart);
      throw new CatalogueCsvFatalError(notUtf8(check));
    }
    for (let start = 0; start < bytes.length; start += PARSE_SLICE_BYTES) {
      const parsed = await csv.write(bytes.subarray(start, start + PARSE_SLICE_BYTES));
      yield rows.events(parsed.records);
      if (parsed.fatal) throw new CatalogueCsvFatalError(parsed.fatal);
    }
    if (bytes.length > 0) atLineStart = bytes[bytes.length - 1] === LINE_FEED;
  }
  const tail = utf8.end();
  if (!tail.ok) throw new CatalogueCsvFatalError(notUtf8(tail));
  const last = await csv.end();
  yield rows.events(last.records);
  if (last.fatal) throw new CatalogueCsvFatalError(last.fatal);
  rows.finish();
}

const LINE_FEED = 0x0a;

/**
 * The parser gets a chunk 64 KiB at a time, and the rows of each slice are checked before the
 * next is parsed. A source can give 1 MiB chunks (a file read with a large highWaterMark); parsed
 * whole, such a chunk's 1 500 records (about 2 MB of strings and arrays) were all made before the
 * first was checked: out of the core's cache by then, and alive through the young-generation
 * collections meanwhile. Pass 2 took about a tenth less CPU with 64 KiB slices (docs/decisions/0022-import-per-row-work.md). A UTF-8 character cut at a slice's end is fine: csv-parse
 * keeps a value's bytes until it ends.
 */
const PARSE_SLICE_BYTES = 64 * 1024;

/**
 * Before reporting a line that is not UTF-8, reads the complete lines before it, so that the
 * report also lists the problems of those rows. A CSV break among them is the earlier problem
 * and is thrown instead. The parser is flushed only when what it holds ends with a complete
 * line (never with the start of the broken one), and a quote that the cut leaves open is not
 * a problem of the file.
 */
async function* linesBeforeBreak(
  csv: CsvRecordReader,
  rows: RowInterpreter,
  completeLines: Uint8Array,
  flush: boolean,
): AsyncGenerator<CsvEvent[], void, undefined> {
  const parsed = await csv.write(completeLines);
  yield rows.events(parsed.records);
  if (parsed.fatal) throw new CatalogueCsvFatalError(parsed.fatal);
  if (!flush) return;
  const flushed = await csv.end();
  yield rows.events(flushed.records);
}

/** Pass 1: the report and the winning row per spu_no. Writes nothing, keeps no rows. */
export async function validateCatalogueCsv(source: CsvSource, options: ValidateOptions = {}): Promise<CsvValidation> {
  const builder = new CsvReportBuilder(options.maxIssues);
  const { onKept } = options;
  const replaced: number[] = [];
  let header: readonly string[] = [];
  await readInto(
    source,
    builder,
    (outcome, replacesRow) => {
      if (replacesRow !== null) replaced.push(replacesRow);
      if (onKept && outcome.product) onKept(outcome.product, outcome.row);
    },
    {
      ...options,
      onHeader: (cells) => {
        header = cells;
        options.onHeader?.(cells);
      },
    },
  );
  return { report: builder.build(), winners: builder.winners, replaced: replaced.sort((a, b) => a - b), header };
}

/**
 * Pass 2: the products to store, in file order, in batches, each spu_no once (its last valid
 * row), descriptions sanitized. Requires a validation without a fatal problem.
 */
export async function* importCatalogueCsv(
  source: CsvSource,
  validation: CsvValidation,
  options: ImportOptions = {},
): AsyncGenerator<ImportRow[], void, undefined> {
  if (validation.report.fatal) throw new Error('A file with a fatal problem cannot be imported.');
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const sanitize = options.sanitize ?? sanitizeDescription;
  let batch: ImportRow[] = [];
  let imported = 0;
  for await (const events of changedOnFatal(readCatalogueCsvChunks(source))) {
    for (const event of events) {
      if (event.kind !== 'row' || !event.outcome.product) continue;
      const { row, product } = event.outcome;
      const winner = validation.winners.get(product.spu_no);
      if (winner === undefined) throw new CatalogueCsvChangedError(`row ${row} has an spu_no that was not validated`);
      if (winner !== row) continue;
      batch.push({ row, product: stored(product, sanitize), next: event.next });
      imported += 1;
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
  if (imported !== validation.report.accepted) {
    throw new CatalogueCsvChangedError(`${imported} products were read, ${validation.report.accepted} were validated`);
  }
}

/**
 * Pass 2 resumed from a checkpoint (a later invocation of a long import): the products from
 * `resumed.from` to the end, as importCatalogueCsv yields them, with the columns mapped from the
 * stored header and the replaced rows skipped. The source is the file from that byte on (an S3
 * GET with a Range).
 */
export async function* importCatalogueCsvFrom(
  source: CsvSource,
  resumed: ResumedValidation,
  options: ImportOptions = {},
): AsyncGenerator<ImportRow[], void, undefined> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const sanitize = options.sanitize ?? sanitizeDescription;
  let batch: ImportRow[] = [];
  let imported = 0;
  const events = readCatalogueCsvChunks(source, { from: resumed.from, header: resumed.header });
  for await (const chunk of changedOnFatal(events)) {
    for (const event of chunk) {
      if (event.kind !== 'row' || !event.outcome.product) continue;
      const { row, product } = event.outcome;
      if (resumed.replaced.has(row)) continue;
      batch.push({ row, product: stored(product, sanitize), next: event.next });
      imported += 1;
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
  if (imported !== resumed.remaining) {
    throw new CatalogueCsvChangedError(
      `${imported} products were read after line ${resumed.from.line}, ${resumed.remaining} were validated`,
    );
  }
}

/**
 * One pass, everything in memory: the report and the products to import (each spu_no once, at
 * the position of its winning row; none when the file is fatally damaged).
 */
export async function parseCatalogueCsv(
  source: CsvSource,
  options: ReadOptions = {},
): Promise<{ report: CsvImportReport; products: ImportRow[] }> {
  const builder = new CsvReportBuilder(options.maxIssues);
  const sanitize = options.sanitize ?? sanitizeDescription;
  const kept = new Map<string, ImportRow>();
  await readInto(source, builder, (outcome, _replaces, next) => {
    if (!outcome.product) return;
    // Deleting first moves a replaced product to the position of the row that replaced it.
    kept.delete(outcome.product.spu_no);
    kept.set(outcome.product.spu_no, { row: outcome.row, product: stored(outcome.product, sanitize), next });
  });
  const report = builder.build();
  return { report, products: report.fatal ? [] : [...kept.values()] };
}

async function readInto(
  source: CsvSource,
  builder: CsvReportBuilder,
  onKept: (outcome: CheckedRow, replacesRow: number | null, next: ResumePoint) => void,
  hooks: Pick<ValidateOptions, 'onHeader' | 'onRowWithIssues'> = {},
): Promise<void> {
  try {
    for await (const events of readCatalogueCsvChunks(source)) {
      for (const event of events) {
        if (event.kind === 'header') {
          builder.addHeaderWarnings(event.warnings);
          hooks.onHeader?.(event.cells);
          continue;
        }
        const { outcome } = event;
        const decision = builder.addRow(outcome);
        if (decision.kept) onKept(outcome, decision.replacesRow, event.next);
        if (!hooks.onRowWithIssues) continue;
        const replaced =
          decision.kept && decision.replacesRow !== null && outcome.product
            ? [replacedRowWarning(outcome.row, outcome.product.spu_no, decision.replacesRow)]
            : [];
        if (outcome.errors.length + outcome.warnings.length + replaced.length === 0) continue;
        hooks.onRowWithIssues({
          row: outcome.row,
          cells: event.cells,
          errors: outcome.errors,
          warnings: [...outcome.warnings, ...replaced],
        });
      }
    }
  } catch (error) {
    if (!(error instanceof CatalogueCsvFatalError)) throw error;
    builder.fail(error.fatal);
  }
}

async function* changedOnFatal<T>(events: AsyncGenerator<T, void, undefined>): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } catch (error) {
    if (error instanceof CatalogueCsvFatalError) throw new CatalogueCsvChangedError(error.fatal.message);
    throw error;
  }
}

/** What is stored of a kept row: its content hash (over the description as in the file), then the sanitized description. */
function stored(checked: CheckedProduct, sanitize: (html: string) => string): CsvProduct {
  const html = checked.html_description;
  return storedProduct(checked, html === '' ? html : sanitize(html), contentHashOf(checked));
}

/** Turns records into events: the first non-blank record is the header, the rest are rows. */
class RowInterpreter {
  private header: HeaderMapping | null = null;
  private dataRows = 0;

  /** With the header of a file read from a checkpoint on (already validated: its columns are mapped again). */
  constructor(header?: readonly string[]) {
    if (!header) return;
    const result = mapHeader([...header], 1);
    if (!result.ok) throw new CatalogueCsvFatalError(result.fatal);
    this.header = result.mapping;
    // Its rows were counted by the run that read the start of the file.
    this.dataRows = 1;
  }

  /** The events of these records, in order. Throws at an unusable header (before which there are no events). */
  events(records: readonly CsvRecord[]): CsvEvent[] {
    const events: CsvEvent[] = [];
    for (const record of records) {
      if (isBlank(record.cells)) continue;
      if (!this.header) {
        const result = mapHeader(record.cells, record.line);
        if (!result.ok) throw new CatalogueCsvFatalError(result.fatal);
        this.header = result.mapping;
        events.push({ kind: 'header', warnings: result.warnings, cells: record.cells });
        continue;
      }
      this.dataRows += 1;
      events.push({
        kind: 'row',
        outcome: checkProductRow(record.cells, record.line, this.header),
        cells: record.cells,
        next: record.next,
      });
    }
    return events;
  }

  /** At the end of the file: a file without a header, or without rows, has nothing to import. */
  finish(): void {
    if (!this.header) {
      throw new CatalogueCsvFatalError({ kind: 'empty', line: null, message: 'The file is empty.' });
    }
    if (this.dataRows === 0) {
      throw new CatalogueCsvFatalError({
        kind: 'no-rows',
        line: null,
        message: 'The file has a header line but no product rows.',
      });
    }
  }
}

/** True when every value is empty or white space: a record that is not a row. */
function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.length > 0 && cell.trim() !== '') return false;
  return true;
}

function notUtf8(failure: Utf8Failure): CsvFatal {
  const advice =
    failure.encoding === 'utf-16'
      ? 'the text is UTF-16, not UTF-8 (a spreadsheet\'s "Unicode Text" format); save it as "CSV UTF-8"'
      : 'the text is not UTF-8 (the file may have been saved as Latin-1 or Windows-1252; save it as "CSV UTF-8")';
  return damaged('not-utf8', failure.line, advice);
}

function asBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new TypeError('The CSV source must yield bytes; read the file without setting an encoding.');
}
