import { describe, expect, it } from 'vitest';
import { commonPasswordEntries, commonPasswordsModule, DATA_FILE } from '../../../scripts/common-passwords';
import { readFileSync } from 'node:fs';
import {
  COMMON_PASSWORD_COUNT,
  decodeFingerprints,
  encodeFingerprints,
  fingerprint,
  isCommonPassword,
} from './common-passwords';

describe('the leaked-password list', () => {
  it('is the installed @zxcvbn-ts/language-common list: run `npm run common-passwords` after upgrading it', () => {
    expect(readFileSync(DATA_FILE, 'utf8')).toBe(commonPasswordsModule());
    expect(COMMON_PASSWORD_COUNT).toBe(commonPasswordEntries().length);
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(15_000);
  });

  it('finds every entry of the list, whatever its case or surrounding spaces', () => {
    for (const entry of commonPasswordEntries()) expect(isCommonPassword(entry), entry).toBe(true);
    for (const variant of ['password', 'PASSWORD', ' Password ', '12345678', 'iloveyou', 'qwertyuiop', 'Password1']) {
      expect(isCommonPassword(variant), variant).toBe(true);
    }
  });

  it('lets passwords that are not on it through', () => {
    for (const chosen of ['correct horse battery', 'admin-demo-password', 'Tr0ub4dor&3x!', 'x'.repeat(128)]) {
      expect(isCommonPassword(chosen), chosen).toBe(false);
    }
  });

  it('stores fingerprints compactly and reads them back exactly', () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1, fingerprint('password')];
    const encoded = encodeFingerprints(values);
    expect([...decodeFingerprints(encoded)]).toEqual([...new Set(values)].sort((a, b) => a - b));
    // About 3 bytes a password, as base64.
    const data = readFileSync(DATA_FILE, 'utf8');
    expect(data.length / COMMON_PASSWORD_COUNT).toBeLessThan(4.5);
  });
});
