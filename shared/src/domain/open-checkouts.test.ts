import { describe, expect, it } from 'vitest';
import { openCheckoutsWords } from './open-checkouts';

describe('openCheckoutsWords', () => {
  const counts = { total: 0, cancelled: 0, paid: 0, notCancelled: 0, done: true };
  it('says nothing when there were none', () => {
    expect(openCheckoutsWords(undefined)).toBe('');
    expect(openCheckoutsWords(counts)).toBe('');
  });
  it('says how far the cancelling has come while it runs', () => {
    expect(openCheckoutsWords({ ...counts, total: 1000, cancelled: 400, done: false })).toBe(
      'Cancelling 1,000 open checkouts at Stripe… 400 cancelled so far.',
    );
  });
  it('says what became of each once done', () => {
    expect(openCheckoutsWords({ ...counts, total: 1000, cancelled: 1000 })).toBe(
      '1,000 open checkouts: 1,000 cancelled at Stripe.',
    );
    expect(openCheckoutsWords({ ...counts, total: 1, cancelled: 0, paid: 1 })).toBe(
      '1 open checkout: 0 cancelled at Stripe. 1 was paid before it could be cancelled: its order is flagged and its commission held for review.',
    );
    const mixed = openCheckoutsWords({ ...counts, total: 10, cancelled: 6, paid: 2, notCancelled: 1 });
    expect(mixed).toContain('2 were paid before they could be cancelled: their orders are flagged');
    expect(mixed).toContain('1 could not be cancelled at Stripe: if one is paid, its order is flagged');
    expect(mixed).toContain("1 ended by itself meanwhile: a paid one's order is flagged.");
  });
});
