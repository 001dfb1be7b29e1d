import { describe, expect, it } from 'vitest';
import { openCheckoutsWords } from './open-checkouts';

describe('openCheckoutsWords', () => {
  it('says how many unpaid checkouts a ban cancelled, and what happens to those left', () => {
    expect(openCheckoutsWords(undefined)).toBe('');
    expect(openCheckoutsWords({ cancelled: 0, notCancelled: 0, more: false })).toBe('');
    expect(openCheckoutsWords({ cancelled: 1, notCancelled: 0, more: false })).toBe(
      'Its one unpaid checkout was cancelled at Stripe.',
    );
    expect(openCheckoutsWords({ cancelled: 3, notCancelled: 1, more: false })).toBe(
      'Its 3 unpaid checkouts were cancelled at Stripe. Some unpaid checkouts could not be cancelled now: if one is paid, its order is flagged and its commission held for review.',
    );
    expect(openCheckoutsWords({ cancelled: 0, notCancelled: 0, more: true })).toContain('could not be cancelled now');
  });
});
