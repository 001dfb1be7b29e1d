import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, Utf8LineTracker, type Utf8Check } from './utf8-lines';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

/** Pushes the chunks and returns the first failure, or the result of end(). */
function check(chunks: Uint8Array[]): Utf8Check {
  const tracker = new Utf8LineTracker();
  for (const chunk of chunks) {
    const result = tracker.push(chunk);
    if (!result.ok) return result;
  }
  return tracker.end();
}

function chunksOf(data: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) chunks.push(data.subarray(at, at + size));
  return chunks;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', bytes(0x61, 0x62), -1],
    ['2-, 3- and 4-byte characters', text('é€🎧'), -1],
    ['a Latin-1 é', bytes(0x61, 0xe9, 0x62), 1],
    ['a lone continuation byte', bytes(0x80), 0],
    ['an overlong 2-byte form', bytes(0xc0, 0xaf), 0],
    ['an overlong 3-byte form', bytes(0xe0, 0x80, 0xaf), 0],
    ['a UTF-16 surrogate', bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ['a code point above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['0xFF', bytes(0x61, 0x62, 0xff), 2],
    ['a sequence broken by ASCII', bytes(0xe2, 0x82, 0x41), 0],
    ['a sequence cut off by the end (not invalid yet)', bytes(0x61, 0xe2, 0x82), -1],
  ])('%s', (_name, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
  });
});

describe('Utf8LineTracker', () => {
  const latin1 = concat(text('header\nline two\nCaf'), bytes(0xe9), text('\nline four\n'));

  it('accepts valid UTF-8 in chunks of any size, even with characters split between chunks', () => {
    const data = text('a,b\n"é€🎧",c\r\nend');
    for (const size of [1, 2, 3, 5, 64]) expect(check(chunksOf(data, size))).toEqual({ ok: true });
  });

  it('names the line of the first bad byte and hands back the complete lines before it', () => {
    const result = check([latin1]);
    expect(result).toMatchObject({ ok: false, line: 3, encoding: null });
    if (result.ok) return;
    expect(new TextDecoder().decode(result.completeLines)).toBe('header\nline two\n');
  });

  it('finds the same line however the file is chunked', () => {
    for (const size of [1, 2, 4, 7, 16]) {
      expect(check(chunksOf(latin1, size))).toMatchObject({ ok: false, line: 3 });
    }
  });

  it('blames a character split between chunks on its own line', () => {
    // The second chunk holds the start of a '€' (E2 82 AC); the third breaks it with an 'A'.
    expect(check([text('one\ntwo\nab'), bytes(0xe2, 0x82), bytes(0x41, 0x0a)])).toMatchObject({ ok: false, line: 3 });
    expect(check([text('one\ntwo\nab'), bytes(0xe2), bytes(0x82), bytes(0x41)])).toMatchObject({ ok: false, line: 3 });
    expect(check([text('one\ntwo\nab'), bytes(0xe2), bytes(0x82), bytes(0xac, 0x0a)])).toEqual({ ok: true });
  });

  it('counts CRLF once and CR-only line endings as lines', () => {
    expect(check([concat(text('a\r\nb\r\n'), bytes(0xff))])).toMatchObject({ ok: false, line: 3 });
    expect(check([concat(text('a\rb\rc'), bytes(0xff))])).toMatchObject({ ok: false, line: 3 });
  });

  it('reports a file that ends inside a character', () => {
    expect(check([concat(text('a\nb\nTea '), bytes(0xe2, 0x82))])).toMatchObject({ ok: false, line: 3 });
  });

  it('recognizes UTF-16 by its byte-order mark', () => {
    const utf16 = bytes(0xff, 0xfe, 0x61, 0x00);
    expect(check([utf16])).toMatchObject({ ok: false, line: 1, encoding: 'utf-16' });
    expect(check(chunksOf(utf16, 1))).toMatchObject({ ok: false, line: 1, encoding: 'utf-16' });
    expect(check([bytes(0xfe, 0xff, 0x00, 0x61)])).toMatchObject({ ok: false, encoding: 'utf-16' });
  });
});
