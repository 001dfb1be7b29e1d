import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256';

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto around every block boundary and for non-ASCII text', () => {
    const inputs = [
      ...Array.from({ length: 140 }, (_, length) => 'x'.repeat(length)),
      'Café crème — 日本語 🎧',
      'SPU-10001',
      'a'.repeat(100_000),
    ];
    const mismatches = inputs.filter((input) => sha256Hex(input) !== nodeSha256(input));
    expect(mismatches).toEqual([]);
  });
});
