import { describe, expect, it } from 'vitest';
import { cancelIntentKey, cancelOpenIntents, type CancelDeps, type OpenIntentStore } from './open-intents';

/**
 * The ban's bounded cancelling (docs/decisions/0201) with a store in memory and a gateway that
 * answers as Stripe does: pages are read in turn, a few calls side by side, each intent's item
 * forgotten once Stripe answered canceled or succeeded, a failure counted and its item kept, and
 * nothing started past the budget. (The handler tests run it against DynamoDB Local and the emulator.)
 */
function fixture(ids: string[], answer: (id: string) => Promise<{ status: string }>) {
  const open = new Set(ids);
  const keys: string[] = [];
  let inFlight = 0;
  let widest = 0;
  let clock = 0;
  const intents: OpenIntentStore = {
    track: () => Promise.resolve(true),
    page: (_product, limit, cursor) => {
      const all = [...open].sort();
      const start = cursor ? all.findIndex((id) => id > String(cursor.after)) : 0;
      const ids = start < 0 ? [] : all.slice(start, start + limit);
      const more = start >= 0 && start + limit < all.length;
      return Promise.resolve({ ids, next: more ? { after: ids.at(-1) } : undefined });
    },
    forget: (_product, id) => {
      open.delete(id);
      return Promise.resolve();
    },
  };
  const deps: CancelDeps = {
    intents,
    gateway: {
      cancelPaymentIntent: async (id, key) => {
        keys.push(key);
        inFlight++;
        widest = Math.max(widest, inFlight);
        try {
          return await answer(id);
        } finally {
          inFlight--;
          clock += 100;
        }
      },
    },
    now: () => clock,
  };
  return { deps, open, keys, widest: () => widest };
}

const ids = (count: number) => Array.from({ length: count }, (_, index) => `pi_${String(index).padStart(3, '0')}`);

describe('cancelOpenIntents', () => {
  it('cancels every open intent page by page, a few at a time, each with its own key, and forgets them', async () => {
    const { deps, open, keys, widest } = fixture(ids(12), () => Promise.resolve({ status: 'canceled' }));
    const report = await cancelOpenIntents(deps, 'p1', { concurrency: 3, pageSize: 5, maxIntents: 100, maxMs: 60_000 });
    expect(report).toEqual({ cancelled: 12, paid: 0, notCancelled: 0, more: false });
    expect(open.size).toBe(0);
    expect(widest()).toBe(3);
    expect(keys).toContain(cancelIntentKey('pi_007'));
    expect(new Set(keys).size).toBe(12);
  });

  it('counts a paid intent apart and forgets it; keeps and counts one Stripe failed', async () => {
    const { deps, open } = fixture(ids(3), (id) =>
      id === 'pi_000'
        ? Promise.resolve({ status: 'succeeded' })
        : id === 'pi_001'
          ? Promise.reject(new Error('Stripe did not answer'))
          : Promise.resolve({ status: 'canceled' }),
    );
    const report = await cancelOpenIntents(deps, 'p1');
    expect(report).toEqual({ cancelled: 1, paid: 1, notCancelled: 1, more: false });
    expect([...open]).toEqual(['pi_001']);
  });

  it('stops at its budget of intents and says more are left, leaving their items', async () => {
    const { deps, open } = fixture(ids(30), () => Promise.resolve({ status: 'canceled' }));
    const report = await cancelOpenIntents(deps, 'p1', { concurrency: 5, pageSize: 10, maxIntents: 10, maxMs: 60_000 });
    expect(report).toEqual({ cancelled: 10, paid: 0, notCancelled: 10, more: true });
    expect(open.size).toBe(20);
  });

  it('starts no batch after its time budget', async () => {
    const { deps, open } = fixture(ids(8), () => Promise.resolve({ status: 'canceled' }));
    // Each call moves the clock 100 ms; the budget is 250 ms: three batches of one start.
    const report = await cancelOpenIntents(deps, 'p1', { concurrency: 1, pageSize: 8, maxIntents: 100, maxMs: 250 });
    expect(report).toEqual({ cancelled: 3, paid: 0, notCancelled: 5, more: false });
    expect(open.size).toBe(5);
  });
});
