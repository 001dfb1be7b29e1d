import { describe, expect, it } from 'vitest';
import { outOfDate } from './deps-check.mjs';

const lock = {
  packages: {
    '': { version: '1.0.0' },
    shared: { version: '0.0.0' },
    'node_modules/@portal/shared': { link: true },
    'node_modules/zod': { version: '4.1.0' },
    'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true },
  },
};

describe('outOfDate', () => {
  it('is empty when every locked package is installed at its version', () => {
    expect(outOfDate(lock, { packages: { 'node_modules/zod': { version: '4.1.0' } } })).toEqual([]);
  });

  it('names a package installed at another version than the lockfile says', () => {
    expect(outOfDate(lock, { packages: { 'node_modules/zod': { version: '3.0.0' } } })).toEqual(['node_modules/zod']);
  });

  it('names a missing required package, but not a missing optional one', () => {
    expect(outOfDate(lock, { packages: {} })).toEqual(['node_modules/zod']);
  });

  it('treats no install record at all as everything missing', () => {
    expect(outOfDate(lock, undefined)).toEqual(['node_modules/zod']);
  });
});
