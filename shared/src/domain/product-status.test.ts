import { describe, expect, it } from 'vitest';
import {
  catalogueListOf,
  membersSee,
  PRODUCT_STATUSES,
  productActionFrom,
  productTransition,
  searchableName,
} from './product-status';

describe('product transitions', () => {
  it('allows each admin move only from its own status', () => {
    expect(productTransition('approve', 'review')?.to).toBe('approved');
    expect(productTransition('ban', 'review')?.to).toBe('banned');
    expect(productTransition('withdraw', 'approved')?.to).toBe('withdrawn');
    expect(productTransition('reopen', 'banned')?.to).toBe('review');
    expect(productTransition('reopen', 'withdrawn')?.to).toBe('review');
    expect(productTransition('withdraw', 'review')).toBeUndefined();
    expect(productTransition('withdraw', 'banned')).toBeUndefined();
    expect(productTransition('reopen', 'approved')).toBeUndefined();
    expect(productTransition('ban', 'approved')).toBeUndefined();
    expect(productActionFrom('reopen')).toEqual(['banned', 'withdrawn']);
  });

  it('shows members the approved values only while approved or re-imported into review', () => {
    const seen = PRODUCT_STATUSES.filter((status) => membersSee(status, true));
    expect(seen).toEqual(['review', 'approved']);
    expect(membersSee('approved', false)).toBe(false);
    expect(catalogueListOf('review', true)).toBe('approved');
    expect(catalogueListOf('review', false)).toBeNull();
    expect(catalogueListOf('withdrawn', true)).toBe('withdrawn');
    expect(catalogueListOf('banned', false)).toBe('banned');
  });

  it('compares names without case, accents or repeated spaces', () => {
    expect(searchableName('  Café   MUG ')).toBe('cafe mug');
    expect(searchableName('x'.repeat(300))).toHaveLength(200);
  });
});
