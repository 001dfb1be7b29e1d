import { CsvError, parse, type InfoRecord, type Options, type Parser } from 'csv-parse';
import type { CsvFatal } from '@portal/shared/domain/csv-product';
import { formatCount } from '@portal/shared/domain/format';

/**
 * Drives csv-parse chunk by chunk and hands back the records each chunk completes, each with
 * the file line it starts on. Records are taken in the parser's `on_record` hook, so nothing
 * queues inside the stream: memory holds at most the records of one chunk.
 *
 * Parser settings and why:
 * - bom: a UTF-8 byte-order mark is dropped (Excel writes one for "CSV UTF-8").
 * - skip_empty_lines: blank lines are not rows. Rows whose values are all empty are dropped by
 *   the caller, so that line numbers stay exact.
 * - relax_column_count: a row with too few or too many values reaches the validator, which
 *   rejects that row alone; one bad row does not reject the file.
 * - strict quotes (no relax_quotes): a quote inside an unquoted value, or text after a closing
 *   quote, breaks the file at that line instead of importing a silently mangled value.
 * - max_record_size 1 MiB: a legitimate row (description at most 100 KB) is far smaller, so
 *   a larger one means an unclosed quote is swallowing the rest of the file; memory stays bounded.
 */

export const MAX_RECORD_BYTES = 1024 * 1024;

/** The parser's options (besides its on_record hook); the bench parses with the same ones. */
export const CSV_PARSE_OPTIONS = {
  bom: true,
  skip_empty_lines: true,
  relax_column_count: true,
  max_record_size: MAX_RECORD_BYTES,
} as const satisfies Options;

export interface CsvRecord {
  /** The values as the parser split them, not yet trimmed. */
  cells: string[];
  /** The file line this record starts on (header = 1). */
  line: number;
  /** Where the next record may start: the byte after this one's line break, and that byte's line (a resumed read starts there). */
  next: { byte: number; line: number };
}

export interface CsvChunkResult {
  records: CsvRecord[];
  /** Set when the file's CSV structure breaks; the records before the break are still listed. */
  fatal: CsvFatal | null;
}

export class CsvRecordReader {
  private readonly parser: Parser;
  private records: CsvRecord[] = [];
  /**
   * Line numbers are counted here, not taken from csv-parse: its `lines` counts a CRLF inside a
   * quoted value twice. A record starts on the line after the previous record's last line,
   * plus the blank lines skipped since; it spans as many more lines as its values hold breaks.
   */
  private nextLine: number;
  private emptyLinesBefore = 0;
  /** The byte of the file this reader's first byte is (a read resumed from a checkpoint). */
  private readonly firstByte: number;

  constructor(from: { byte: number; line: number } = { byte: 0, line: 1 }) {
    this.firstByte = from.byte;
    this.nextLine = from.line;
    this.parser = parse({
      ...CSV_PARSE_OPTIONS,
      on_record: (record: string[], context: InfoRecord) => this.take(record, context),
    });
    // Errors also arrive through the write and end callbacks; this keeps them from being unhandled.
    this.parser.on('error', () => undefined);
  }

  /** Parses the next bytes of the file. */
  write(bytes: Uint8Array): Promise<CsvChunkResult> {
    if (bytes.length === 0) return Promise.resolve({ records: [], fatal: null });
    return new Promise((resolve) => {
      this.parser.write(bytes, (error) => resolve(this.drain(error)));
    });
  }

  /** Ends the file: a quote still open now is reported. */
  end(): Promise<CsvChunkResult> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (error: unknown) => {
        if (settled) return;
        settled = true;
        resolve(this.drain(error));
      };
      this.parser.once('error', settle);
      this.parser.end((error?: unknown) => settle(error ?? null));
    });
  }

  private take(record: string[], context: InfoRecord): null {
    const line = this.startLine(context.empty_lines);
    this.nextLine = line + lineBreaksWithin(record) + 1;
    // csv-parse's `bytes` counts up to and with the record's line break (and a byte-order mark).
    this.records.push({ cells: record, line, next: { byte: this.firstByte + context.bytes, line: this.nextLine } });
    this.emptyLinesBefore = context.empty_lines;
    return null;
  }

  private startLine(emptyLines: number): number {
    return this.nextLine + (emptyLines - this.emptyLinesBefore);
  }

  private drain(error: unknown): CsvChunkResult {
    const records = this.records;
    this.records = [];
    return { records, fatal: error ? this.describe(error) : null };
  }

  /**
   * Every structural error is reported at the line where the row being parsed starts: for a
   * one-line row that is where it broke, and for a row that runs on over several lines (the
   * usual sign of an unbalanced quote) it is where the stray quote most likely is.
   */
  private describe(error: unknown): CsvFatal {
    const code = error instanceof CsvError ? error.code : undefined;
    const line = this.startLine(this.parser.info.empty_lines);
    switch (code) {
      case 'CSV_QUOTE_NOT_CLOSED':
        return damaged('broken-quoting', line, 'a quoted value starts in the row on this line and is never closed');
      case 'CSV_MAX_RECORD_SIZE':
        return damaged(
          'row-too-long',
          line,
          `the row starting on this line is longer than ${formatCount(MAX_RECORD_BYTES)} bytes, which usually means a quote is not closed`,
        );
      case 'CSV_INVALID_CLOSING_QUOTE':
        return damaged(
          'broken-quoting',
          line,
          'in the row starting on this line, a closing quote is followed by more text instead of a comma or the end of the line; a quote inside a quoted value must be doubled ("") and every quoted value must be closed',
        );
      case 'INVALID_OPENING_QUOTE':
        return damaged(
          'broken-quoting',
          line,
          'a value that is not in quotes contains a quote; put the whole value in double quotes and double the quote inside ("")',
        );
      default:
        return damaged('broken-quoting', line, 'the CSV structure of the row starting on this line is broken');
    }
  }
}

/** The fatal problem of a file that breaks at a line. */
export function damaged(kind: CsvFatal['kind'], line: number, problem: string): CsvFatal {
  return { kind, line, message: `The file is damaged at line ${line}: ${problem}. No rows were imported.` };
}

/**
 * How many line breaks the record's quoted values contain. A value keeps its line breaks as
 * they are in the file: LF and CRLF count once per LF, and CR alone counts when there is no LF.
 */
function lineBreaksWithin(record: readonly string[]): number {
  let breaks = 0;
  for (const cell of record) {
    if (cell.length === 0) continue;
    const lineFeeds = countChar(cell, '\n');
    breaks += lineFeeds > 0 ? lineFeeds : countChar(cell, '\r');
  }
  return breaks;
}

function countChar(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}
