import { describe, expect, it } from 'vitest';
import type { CheckoutCancelCounts } from '@portal/shared/domain/open-checkouts';
import {
  CANCEL_CONCURRENCY,
  CANCEL_PAGE,
  CANCEL_PASSES,
  cancelIntentKey,
  cancelStep,
  parseCancelWork,
  startCancelling,
  type CancelDeps,
  type CancelWork,
} from './open-intents';

/**
 * The cancelling of a banned product's open intents through the queue (issue 38), with the stores
 * and the queue in memory and a gateway that answers as Stripe does: each step cancels a page a few
 * at a time and sends the next, a failure is tried in a later pass, a paid one is counted apart, a
 * step done twice counts nothing twice. (test/handlers/checkout-cancels.test.ts runs it on the
 * real engines and the queue.)
 */
function fixture(ids: string[], answer: (id: string) => Promise<{ status: string }>) {
  const open = new Set(ids);
  const keys: string[] = [];
  const sent: { work: CancelWork; delay: number | undefined }[] = [];
  let counts: CheckoutCancelCounts | undefined;
  let inFlight = 0;
  let widest = 0;
  let offSale = true;
  const deps: CancelDeps = {
    intents: {
      track: () => Promise.resolve(true),
      page: (_product, limit, cursor) => {
        const all = [...open].sort();
        const start = cursor ? all.findIndex((id) => id > String(cursor.after)) : 0;
        const page = start < 0 ? [] : all.slice(start, start + limit);
        const more = start >= 0 && start + limit < all.length;
        return Promise.resolve({ ids: page, next: more ? { after: page.at(-1) } : undefined });
      },
      forget: (_product, id) => Promise.resolve(void open.delete(id)),
      count: () => Promise.resolve(open.size),
      settle: (_product, id, outcome) => {
        if (!open.delete(id)) return Promise.resolve(false);
        counts![outcome] += 1;
        return Promise.resolve(true);
      },
    },
    progress: {
      start: (_product, total) => {
        counts = { total, cancelled: 0, paid: 0, notCancelled: 0, done: total === 0 };
        return Promise.resolve();
      },
      finish: (_product, notCancelled) => {
        counts = { ...counts!, notCancelled, done: true };
        return Promise.resolve();
      },
      get: () => Promise.resolve(counts),
    },
    queue: {
      send: (work, delay) => {
        sent.push({ work: JSON.parse(JSON.stringify(work)) as CancelWork, delay });
        return Promise.resolve();
      },
    },
    gateway: {
      cancelPaymentIntent: async (id, key) => {
        keys.push(key);
        inFlight++;
        widest = Math.max(widest, inFlight);
        try {
          return await answer(id);
        } finally {
          inFlight--;
        }
      },
    },
    offSale: () => Promise.resolve(offSale),
    now: () => 0,
  };
  /** Runs the queue's messages one after another until none is left (the event source mapping). */
  const drain = async () => {
    while (sent.length > 0) await cancelStep(deps, sent.shift()!.work);
  };
  return {
    deps,
    open,
    keys,
    sent,
    drain,
    counts: () => counts,
    widest: () => widest,
    putBackOnSale: () => (offSale = false),
  };
}

const ids = (count: number) => Array.from({ length: count }, (_, index) => `pi_${String(index).padStart(4, '0')}`);

describe('startCancelling', () => {
  it('records how many are open and sends the first step; none open: done, nothing sent', async () => {
    const some = fixture(ids(3), () => Promise.resolve({ status: 'canceled' }));
    expect(await startCancelling(some.deps, 'p1')).toEqual({
      total: 3,
      cancelled: 0,
      paid: 0,
      notCancelled: 0,
      done: false,
    });
    expect(some.sent).toEqual([{ work: { productId: 'p1', pass: 1, left: 0 }, delay: undefined }]);
    const none = fixture([], () => Promise.resolve({ status: 'canceled' }));
    expect((await startCancelling(none.deps, 'p1')).done).toBe(true);
    expect(none.sent).toEqual([]);
  });

  it('ends at once with all not cancelled when the queue does not take the step', async () => {
    const { deps, counts } = fixture(ids(4), () => Promise.resolve({ status: 'canceled' }));
    deps.queue.send = () => Promise.reject(new Error('SQS is down'));
    expect(await startCancelling(deps, 'p1')).toMatchObject({ total: 4, notCancelled: 4, done: true });
    expect(counts()).toMatchObject({ notCancelled: 4, done: true });
  });
});

describe('cancelStep', () => {
  it('cancels every open intent page by page, a few at a time, each once with its own key', async () => {
    const total = CANCEL_PAGE * 3 + 7;
    const run = fixture(ids(total), () => Promise.resolve({ status: 'canceled' }));
    await startCancelling(run.deps, 'p1');
    await run.drain();
    expect(run.counts()).toEqual({ total, cancelled: total, paid: 0, notCancelled: 0, done: true });
    expect(run.open.size).toBe(0);
    expect(run.widest()).toBe(CANCEL_CONCURRENCY);
    expect(new Set(run.keys).size).toBe(total);
    expect(run.keys).toHaveLength(total);
    expect(run.keys).toContain(cancelIntentKey('pi_0007'));
  });

  it('a redelivered step cancels and counts nothing twice', async () => {
    const run = fixture(ids(CANCEL_PAGE + 5), () => Promise.resolve({ status: 'canceled' }));
    await startCancelling(run.deps, 'p1');
    const first = run.sent[0]!.work;
    await run.drain();
    const calls = run.keys.length;
    await cancelStep(run.deps, first);
    await run.drain();
    expect(run.keys).toHaveLength(calls);
    expect(run.counts()).toMatchObject({ cancelled: CANCEL_PAGE + 5, done: true });
  });

  it('counts a paid intent apart; tries a failed one in later passes, then counts it not cancelled', async () => {
    const run = fixture(ids(3), (id) =>
      id === 'pi_0000'
        ? Promise.resolve({ status: 'succeeded' })
        : id === 'pi_0001'
          ? Promise.reject(new Error('Stripe did not answer'))
          : Promise.resolve({ status: 'canceled' }),
    );
    await startCancelling(run.deps, 'p1');
    const delays: (number | undefined)[] = [];
    while (run.sent.length > 0) {
      const next = run.sent.shift()!;
      delays.push(next.delay);
      await cancelStep(run.deps, next.work);
    }
    expect(delays).toEqual([undefined, 60, 120].slice(0, CANCEL_PASSES));
    expect(run.keys.filter((key) => key === cancelIntentKey('pi_0001'))).toHaveLength(CANCEL_PASSES);
    expect(run.counts()).toEqual({ total: 3, cancelled: 1, paid: 1, notCancelled: 1, done: true });
    expect([...run.open]).toEqual(['pi_0001']);
  });

  it('a failure that passes on a later pass is cancelled then', async () => {
    let tries = 0;
    const run = fixture(ids(2), (id) =>
      id === 'pi_0001' && ++tries === 1
        ? Promise.resolve({ status: 'processing' })
        : Promise.resolve({ status: 'canceled' }),
    );
    await startCancelling(run.deps, 'p1');
    await run.drain();
    expect(run.counts()).toEqual({ total: 2, cancelled: 2, paid: 0, notCancelled: 0, done: true });
  });

  it('stops when the product is sold again: its new checkouts are left open', async () => {
    const run = fixture(ids(CANCEL_PAGE * 2), () => Promise.resolve({ status: 'canceled' }));
    await startCancelling(run.deps, 'p1');
    await cancelStep(run.deps, run.sent.shift()!.work);
    run.putBackOnSale();
    await run.drain();
    expect(run.counts()).toMatchObject({ cancelled: CANCEL_PAGE, notCancelled: CANCEL_PAGE, done: true });
  });
});

describe('parseCancelWork', () => {
  it('takes a step and refuses anything else (a poison message)', () => {
    expect(parseCancelWork('{"productId":"p1","pass":1,"left":0}')).toEqual({ productId: 'p1', pass: 1, left: 0 });
    for (const body of [
      'nope',
      '{}',
      '{"productId":"p1","pass":0,"left":0}',
      '{"productId":"p1","pass":1,"left":0,"cursor":3}',
    ]) {
      expect(() => parseCancelWork(body)).toThrow();
    }
  });
});
