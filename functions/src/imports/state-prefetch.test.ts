import { describe, expect, it } from 'vitest';
import type { ProductState } from '../products/product-store';
import { PREFETCH_BATCH, StatePrefetch } from './state-prefetch';

/** A store of states whose reads are counted and held until released, to watch the prefetch work. */
function fakeStore(stored: Record<string, ProductState['status']>) {
  const reads: string[][] = [];
  const held: (() => void)[] = [];
  let failNext = 0;
  let hold = false;
  const store = {
    reads,
    inFlight: () => held.length,
    hold: (on: boolean) => void (hold = on),
    failNext: (count: number) => void (failNext = count),
    release() {
      for (const go of held.splice(0)) go();
    },
    async states(ids: readonly string[]): Promise<Map<string, ProductState>> {
      reads.push([...ids]);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('throttled');
      }
      const found = new Map<string, ProductState>();
      for (const id of ids) {
        const status = stored[id];
        if (status) found.set(id, { id, status, contentHash: `hash-${id}` });
      }
      return found;
    },
  };
  return store;
}

const ids = (count: number, prefix = 'p') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('StatePrefetch', () => {
  it('reads in batches of 100 while ids arrive, and serves them without reading again', async () => {
    const store = fakeStore({ p3: 'approved', p150: 'banned' });
    const prefetch = new StatePrefetch(store);
    for (const id of ids(250)) prefetch.add(id);
    await settle();
    expect(store.reads.map((batch) => batch.length)).toEqual([PREFETCH_BATCH, PREFETCH_BATCH]);
    prefetch.flush();
    await settle();
    expect(store.reads.map((batch) => batch.length)).toEqual([100, 100, 50]);

    const first = await prefetch.statesOf(ids(100));
    expect([...first.keys()]).toEqual(['p3']);
    expect(first.get('p3')).toEqual({ id: 'p3', status: 'approved', contentHash: 'hash-p3' });
    const rest = await prefetch.statesOf(ids(250).slice(100));
    expect([...rest.keys()]).toEqual(['p150']);
    expect(store.reads).toHaveLength(3);
  });

  it('keeps at most `window` reads in flight and never makes the caller of add() wait', async () => {
    const store = fakeStore({});
    store.hold(true);
    const prefetch = new StatePrefetch(store, { window: 2 });
    for (const id of ids(500)) prefetch.add(id);
    await settle();
    expect(store.inFlight()).toBe(2);
    store.release();
    await settle();
    expect(store.inFlight()).toBe(2);
    expect(store.reads).toHaveLength(4);
    store.hold(false);
    store.release();
    await settle();
    await settle();
    expect(store.reads).toHaveLength(5);
  });

  it('starts a batch at once when its states are needed, ahead of its turn', async () => {
    const store = fakeStore({ late450: 'review' });
    store.hold(true);
    const prefetch = new StatePrefetch(store, { window: 1 });
    for (const id of [...ids(400), 'late450']) prefetch.add(id);
    prefetch.flush();
    await settle();
    expect(store.reads).toHaveLength(1);
    store.hold(false);
    const states = await prefetch.statesOf(['late450']);
    expect(states.get('late450')?.status).toBe('review');
    expect(store.reads.at(-1)).toContain('late450');
  });

  it('reads again, at the time of use, the ids whose prefetch failed', async () => {
    const store = fakeStore({ p7: 'approved' });
    store.failNext(1);
    const prefetch = new StatePrefetch(store);
    for (const id of ids(100)) prefetch.add(id);
    await settle();
    const states = await prefetch.statesOf(ids(100));
    expect(states.get('p7')?.status).toBe('approved');
    expect(store.reads).toHaveLength(2);
  });

  it('reads at the time of use what is beyond its capacity, or was never asked for', async () => {
    const store = fakeStore({ p1: 'review', p5: 'approved', other: 'banned' });
    const prefetch = new StatePrefetch(store, { capacity: 3 });
    for (const id of ids(6)) prefetch.add(id);
    prefetch.flush();
    await settle();
    expect(store.reads).toEqual([['p0', 'p1', 'p2']]);
    const states = await prefetch.statesOf([...ids(6), 'other']);
    expect(new Map([...states].map(([id, state]) => [id, state.status]))).toEqual(
      new Map([
        ['p1', 'review'],
        ['p5', 'approved'],
        ['other', 'banned'],
      ]),
    );
    expect(store.reads[1]).toEqual(['p3', 'p4', 'p5', 'other']);
  });

  it('sends nothing more once stopped (a file that will not be imported)', async () => {
    const store = fakeStore({});
    store.hold(true);
    const prefetch = new StatePrefetch(store, { window: 1 });
    for (const id of ids(350)) prefetch.add(id);
    await settle();
    expect(store.reads).toHaveLength(1);
    prefetch.stop();
    prefetch.flush();
    store.hold(false);
    store.release();
    await settle();
    await settle();
    expect(store.reads).toHaveLength(1);
  });

  it('serves an id from the prefetch once: a second request reads the table', async () => {
    const store = fakeStore({ p0: 'review' });
    const prefetch = new StatePrefetch(store);
    prefetch.add('p0');
    prefetch.add('p0');
    await prefetch.statesOf(['p0']);
    expect(store.reads).toEqual([['p0']]);
    const again = await prefetch.statesOf(['p0']);
    expect(again.get('p0')?.status).toBe('review');
    expect(store.reads).toEqual([['p0'], ['p0']]);
  });
});
