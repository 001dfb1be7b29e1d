import { describe, expect, it } from 'vitest';
import { CROCKFORD_ALPHABET, isShareCode, newShareCode, randomCrockford } from './crockford';

describe('Crockford base32 codes', () => {
  it('use 32 symbols without I, L, O and U', () => {
    expect(new Set(CROCKFORD_ALPHABET).size).toBe(32);
    expect(CROCKFORD_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('make 8-character share codes from that alphabet only, every symbol reachable', () => {
    const codes = Array.from({ length: 400 }, newShareCode);
    expect(codes.every(isShareCode)).toBe(true);
    expect(new Set(codes.join('')).size).toBe(32);
    expect(new Set(codes).size).toBe(codes.length);
    expect(randomCrockford(3)).toHaveLength(3);
    expect(isShareCode('ABCDEFGI')).toBe(false);
    expect(isShareCode('abcdefgh')).toBe(false);
  });
});
