import { isUtf8 } from 'node:buffer';

/**
 * Checks a byte stream as UTF-8, chunk by chunk, and counts lines so that a broken file can be
 * reported with the line where it breaks. The fast path is node:buffer's isUtf8 (a validator that
 * builds no text, unlike a fatal TextDecoder, whose text was thrown away: the CSV parser reads the
 * same bytes); only when it refuses a chunk does a byte-level scan find the exact offset of the
 * first bad sequence.
 *
 * Lines are counted as a text editor does: LF ends a line (so CRLF counts once); a file that
 * has no LF at all is counted by its CR characters (old Mac line endings).
 */

export interface Utf8Failure {
  ok: false;
  /** The 1-based line holding the first byte that is not UTF-8. */
  line: number;
  /** The part of the chunk before that line: complete lines only, safe to parse. */
  completeLines: Uint8Array;
  /** 'utf-16' when the file starts with a UTF-16 byte-order mark: a known, nameable mistake. */
  encoding: 'utf-16' | null;
}

export type Utf8Check = { ok: true } | Utf8Failure;

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = new Uint8Array(0);

export class Utf8LineTracker {
  private lineFeeds = 0;
  private carriageReturns = 0;
  /** The bytes of a character split across chunks: the end of what was checked so far (at most 3). */
  private carry: Uint8Array = EMPTY;
  /** The first two bytes of the stream, to recognize a UTF-16 byte-order mark. */
  private head: number[] = [];

  /** Checks the next chunk. After a failure the tracker must not be used again. */
  push(chunk: Uint8Array): Utf8Check {
    for (let i = 0; this.head.length < 2 && i < chunk.length; i += 1) this.head.push(chunk[i] ?? 0);
    // Every complete character so far (the one the previous chunk cut, then this chunk's) must be
    // UTF-8; the bytes of a character this chunk cuts wait for the next chunk, but must already
    // begin one validly, as a fatal streaming decoder would refuse them at once too.
    const joined = concat(this.carry, chunk);
    const tail = incompleteTail(joined);
    if (!isUtf8(joined.subarray(0, joined.length - tail.length)) || firstInvalidUtf8(tail) !== -1) {
      return this.failure(chunk);
    }
    this.count(chunk, chunk.length);
    this.carry = tail;
    return { ok: true };
  }

  /** Checks that the stream did not end inside a character. */
  end(): Utf8Check {
    if (this.carry.length === 0) return { ok: true };
    return { ok: false, line: this.line, completeLines: EMPTY, encoding: this.guessEncoding() };
  }

  /** The line the next byte belongs to. */
  get line(): number {
    return 1 + (this.lineFeeds > 0 ? this.lineFeeds : this.carriageReturns);
  }

  private failure(chunk: Uint8Array): Utf8Check {
    const joined = concat(this.carry, chunk);
    const offset = Math.max(0, firstInvalidUtf8(joined) - this.carry.length);
    const lastLineFeed = offset === 0 ? -1 : chunk.lastIndexOf(LF, offset - 1);
    this.count(chunk, offset);
    return {
      ok: false,
      line: this.line,
      completeLines: chunk.subarray(0, lastLineFeed + 1),
      encoding: this.guessEncoding(),
    };
  }

  private guessEncoding(): Utf8Failure['encoding'] {
    // 0xFF and 0xFE never occur in UTF-8; the second byte may not have arrived yet.
    const [first, second] = this.head;
    const little = first === 0xff && (second === undefined || second === 0xfe);
    const big = first === 0xfe && (second === undefined || second === 0xff);
    return little || big ? 'utf-16' : null;
  }

  private count(chunk: Uint8Array, end: number): void {
    this.lineFeeds += occurrences(chunk, LF, end);
    if (this.lineFeeds === 0) this.carriageReturns += occurrences(chunk, CR, end);
  }
}

function occurrences(bytes: Uint8Array, value: number, end: number): number {
  let count = 0;
  for (let at = bytes.indexOf(value); at !== -1 && at < end; at = bytes.indexOf(value, at + 1)) count += 1;
  return count;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** How many bytes a sequence starting with this lead byte has; 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The allowed range of the byte after a lead byte (Unicode table 3-7: no overlongs, no surrogates). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * The offset of the first byte that starts an invalid UTF-8 sequence, or -1 when there is none.
 * A sequence cut off by the end of `bytes` is not invalid: the next chunk may complete it.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    const length = sequenceLength(lead);
    if (length === 0) return i;
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k];
      if (next === undefined) return -1;
      const [low, high] = k === 1 ? secondByteRange(lead) : [0x80, 0xbf];
      if (next < low || next > high) return i;
    }
    i += length;
  }
  return -1;
}

/** The trailing bytes of `bytes` that begin a character not yet complete ([] when none). */
function incompleteTail(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    return sequenceLength(byte) > back ? bytes.slice(bytes.length - back) : EMPTY;
  }
  return EMPTY;
}
