import type { ProductRepository, ProductState } from '../products/product-store';

/**
 * Reads the stored state of the file's products while the validation pass is still reading the
 * file, so that the write pass finds them ready instead of waiting for a BatchGet per batch.
 *
 * Validation is CPU work in this process and leaves the table idle; the reads are the table's
 * work. Side by side they take the time of the longer one (in the 100 000-row bench, the reads
 * cost DynamoDB Local about as much CPU as the whole validation pass).
 *
 * - Ids go out in BatchGets of 100 (the BatchGetItem maximum), at most `window` at a time; the
 *   rest wait their turn, so the validation pass never waits on the table.
 * - Memory is bounded: at most `capacity` ids are prefetched (a state is about 150 bytes);
 *   beyond that, and for any batch whose read failed, statesOf() reads at the time of writing.
 * - A state read early can be out of date by the time it is used (an admin approves or bans,
 *   another import writes). That is the same race as reading just before writing, only longer,
 *   and it is covered the same way: a revision is a conditional update on the state read, and
 *   when the condition fails the product is read again and decided again.
 */

export const PREFETCH_BATCH = 100;
/** About 15 MB of states, enough for a 100 000-row file; longer files read the rest as they write. */
export const PREFETCH_CAPACITY = 100_000;

class Batch {
  private begin!: () => void;
  started = false;
  /** The states found (absent = no product stored), or null when the read failed. */
  readonly states: Promise<Map<string, ProductState> | null>;

  constructor(
    readonly ids: readonly string[],
    read: (ids: readonly string[]) => Promise<Map<string, ProductState>>,
  ) {
    const begun = new Promise<void>((resolve) => (this.begin = resolve));
    this.states = begun
      .then(() => read(ids))
      .then(
        (found) => found,
        () => null,
      );
  }

  start(): void {
    this.started = true;
    this.begin();
  }
}

export class StatePrefetch {
  /** Each id asked for and not yet served: its batch, or null while the batch is being filled. */
  private readonly batchOf = new Map<string, Batch | null>();
  private readonly waiting: Batch[] = [];
  private filling: string[] = [];
  private running = 0;

  constructor(
    private readonly products: Pick<ProductRepository, 'states'>,
    private readonly options: { capacity?: number; window?: number } = {},
  ) {}

  /** Asks for a product's state ahead of time. Never waits; ignores ids beyond the capacity. */
  add(id: string): void {
    if (this.batchOf.has(id) || this.batchOf.size >= (this.options.capacity ?? PREFETCH_CAPACITY)) return;
    this.batchOf.set(id, null);
    this.filling.push(id);
    if (this.filling.length >= PREFETCH_BATCH) this.flush();
  }

  /** Sends the ids asked for so far, even when they do not fill a batch (at the end of the file). */
  flush(): void {
    if (this.filling.length === 0) return;
    const batch = new Batch(this.filling, (ids) => this.products.states(ids));
    this.filling = [];
    for (const id of batch.ids) this.batchOf.set(id, batch);
    this.waiting.push(batch);
    this.next();
  }

  /** Sends nothing more: the file will not be imported (reads already under way finish on their own). */
  stop(): void {
    this.filling = [];
    this.waiting.length = 0;
    this.batchOf.clear();
  }

  /**
   * The states of these products, as `ProductRepository.states` gives them: from the prefetched
   * batches where possible, with one read for the rest. Each id is served from the prefetch once.
   */
  async statesOf(ids: readonly string[]): Promise<Map<string, ProductState>> {
    this.flush();
    const missing: string[] = [];
    const wanted = new Map<Batch, string[]>();
    for (const id of ids) {
      const batch = this.batchOf.get(id);
      this.batchOf.delete(id);
      if (!batch) missing.push(id);
      else if (wanted.has(batch)) wanted.get(batch)!.push(id);
      else wanted.set(batch, [id]);
    }
    // Needed now: these batches no longer wait for their turn.
    for (const batch of wanted.keys()) this.start(batch);
    const result = new Map<string, ProductState>();
    for (const [batch, batchIds] of wanted) {
      const states = await batch.states;
      if (!states) missing.push(...batchIds);
      else
        for (const id of batchIds) {
          const state = states.get(id);
          if (state) result.set(id, state);
        }
    }
    if (missing.length > 0) for (const [id, state] of await this.products.states(missing)) result.set(id, state);
    return result;
  }

  private start(batch: Batch): void {
    if (batch.started) return;
    this.running += 1;
    batch.start();
    void batch.states.then(() => {
      this.running -= 1;
      this.next();
    });
  }

  private next(): void {
    const window = this.options.window ?? 2;
    while (this.running < window && this.waiting.length > 0) this.start(this.waiting.shift()!);
  }
}
