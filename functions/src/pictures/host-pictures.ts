import { createHash } from 'node:crypto';
import { pictureKeys, variantWidths, type HostedPicture } from '@portal/shared/domain/pictures';
import { sha256Hex } from '@portal/shared/domain/sha256';
import { PictureFetchError, type FetchedPicture } from './fetch-picture';
import type { PictureStore } from './picture-store';
import { inspectPicture, PictureProcessError, processPicture, type ProcessedPicture } from './process-picture';

/**
 * Hosts the pictures of an import: each supplier address once per run (and once for good: an
 * address hosted before is looked up, not fetched), at most `concurrency` fetched and processed at
 * a time, whatever the number of batches in flight. The bytes are stored under their SHA-256, so
 * two addresses with the same picture share its variants. The variants are stored before the
 * original and the original before the address's record: a record, or an original, means the
 * variants are there.
 */

/** retry: another attempt later may pass (a timeout, a network fault, 429 or 5xx). */
export type HostOutcome = { ok: true; picture: HostedPicture } | { ok: false; problem: string; retry?: boolean };

export interface PictureHost {
  host(address: string): Promise<HostOutcome>;
}

export interface PictureHostDeps {
  store: PictureStore;
  fetch: (address: string) => Promise<FetchedPicture>;
  /** Pictures fetched and processed at the same time (default 4). */
  concurrency?: number;
  /**
   * Pictures fetched from one host at the same time (default: no limit of its own). A host waits
   * for its own slot before it takes a shared one, so a slow host holds at most this many of them.
   */
  perHost?: number;
  /** Replaces the sharp processing (tests). */
  process?: (body: Buffer) => Promise<ProcessedPicture>;
  inspect?: (body: Buffer) => Promise<{ width: number; height: number }>;
}

export const DEFAULT_PICTURE_CONCURRENCY = 4;
const LOOKUP_CONCURRENCY = 16;

export function createPictureHost(deps: PictureHostDeps): PictureHost {
  const limit = semaphore(deps.concurrency ?? DEFAULT_PICTURE_CONCURRENCY);
  // Looking an address up is one small read: more at a time, but not a batch's hundreds at once.
  const lookups = semaphore(LOOKUP_CONCURRENCY);
  const process = deps.process ?? processPicture;
  const inspect = deps.inspect ?? inspectPicture;
  const seen = new Map<string, Promise<HostOutcome>>();
  const hosts = new Map<string, { limit: ReturnType<typeof semaphore>; users: number }>();
  /** Runs the task within the address's host's own limit (when there is one), then the shared one. */
  async function withinLimits<T>(address: string, task: () => Promise<T>): Promise<T> {
    if (!deps.perHost) return limit(task);
    let name: string;
    try {
      name = new URL(address).host.toLowerCase();
    } catch {
      name = '';
    }
    let host = hosts.get(name);
    if (!host) hosts.set(name, (host = { limit: semaphore(deps.perHost), users: 0 }));
    host.users += 1;
    try {
      return await host.limit(() => limit(task));
    } finally {
      host.users -= 1;
      if (host.users === 0) hosts.delete(name);
    }
  }

  async function hostOnce(address: string): Promise<HostOutcome> {
    const addressHash = sha256Hex(address);
    const known = await lookups(() => deps.store.sourceOf(addressHash));
    if (known) return { ok: true, picture: known };
    return withinLimits(address, async () => {
      let fetched: FetchedPicture;
      try {
        fetched = await deps.fetch(address);
      } catch (error) {
        if (error instanceof PictureFetchError) return { ok: false, problem: error.message, retry: error.retry };
        throw error;
      }
      const hash = createHash('sha256').update(fetched.body).digest('hex');
      let picture: HostedPicture;
      try {
        if (await deps.store.hasOriginal(hash)) {
          const { width, height } = await inspect(fetched.body);
          picture = { hash, width, height, widths: variantWidths(width) };
        } else {
          const processed = await process(fetched.body);
          await Promise.all(
            processed.variants.map((variant) =>
              deps.store.put(pictureKeys.variant(hash, variant.width), variant.body, 'image/webp'),
            ),
          );
          await deps.store.put(pictureKeys.original(hash), fetched.body, fetched.contentType);
          picture = {
            hash,
            width: processed.width,
            height: processed.height,
            widths: processed.variants.map((variant) => variant.width),
          };
        }
      } catch (error) {
        if (error instanceof PictureProcessError) return { ok: false, problem: error.message };
        throw error;
      }
      await deps.store.rememberSource(addressHash, picture);
      return { ok: true, picture };
    });
  }

  return {
    host(address) {
      let outcome = seen.get(address);
      if (!outcome) {
        outcome = hostOnce(address);
        seen.set(address, outcome);
        // A store that failed (S3 unreachable) is not remembered: the next ask tries again.
        outcome.catch(() => seen.delete(address));
      }
      return outcome;
    },
  };
}

/** At most `size` tasks at a time; the others wait in order. */
function semaphore(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its slot straight to the next waiting one.
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
