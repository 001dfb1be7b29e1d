import { describe, expect, it } from 'vitest';
import { decideUpsert } from './upsert';

describe('decideUpsert', () => {
  it('creates a product that is not stored', () => {
    expect(decideUpsert(undefined, 'h1')).toBe('create');
  });
  it('leaves a banned product banned, whatever the row says', () => {
    expect(decideUpsert({ id: 'p', status: 'banned', contentHash: 'h0' }, 'h1')).toBe('banned');
    expect(decideUpsert({ id: 'p', status: 'banned', contentHash: 'h1' }, 'h1')).toBe('banned');
  });
  it('writes nothing for an unchanged row, approved or in review', () => {
    expect(decideUpsert({ id: 'p', status: 'approved', contentHash: 'h1' }, 'h1')).toBe('unchanged');
    expect(decideUpsert({ id: 'p', status: 'review', contentHash: 'h1' }, 'h1')).toBe('unchanged');
  });
  it('revises a changed product, approved or in review', () => {
    expect(decideUpsert({ id: 'p', status: 'approved', contentHash: 'h0' }, 'h1')).toBe('revise');
    expect(decideUpsert({ id: 'p', status: 'review', contentHash: 'h0' }, 'h1')).toBe('revise');
  });
});
