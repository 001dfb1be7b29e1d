import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where the local SQS (sqs.ts) keeps its queues between runs of `npm start` (decision 0380): one
 * file per queue, `<dir>/<queue name>.json`, owner-only (0600, the folder 0700), written atomically
 * (a temporary file of its own, synced, then renamed over the old one), so a restart, or a kill in
 * the middle of a write, finds each queue as it was at its last complete write. Writes follow the
 * requests that change queues, at most every `delayMs`, and `flush` writes what is left (stop).
 */
export interface StoredQueue<Q> {
  name: string;
  data: Q;
}

export interface QueueStore<Q> {
  /** The queues of the last run (a file that cannot be read is set aside as `<name>.json.unreadable`). */
  load(): StoredQueue<Q>[];
  /** Something changed: the queues are written within `delayMs`. */
  changed(): void;
  /** Writes every changed queue now (and removes the files of deleted ones). */
  flush(): Promise<void>;
}

const FILE = /^[A-Za-z0-9_-]{1,80}\.json$/;

export function queueStore<Q>(options: {
  dir: string;
  /** The queues as they are now, by name, each as the JSON it is stored as. */
  snapshot: () => Map<string, string>;
  delayMs?: number;
}): QueueStore<Q> {
  const { dir } = options;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  /** What each file holds now (by queue name): only a queue whose JSON changed is written again. */
  const written = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function writeAtomically(name: string, json: string): Promise<void> {
    const file = join(dir, `${name}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(json, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  }

  async function writeChanged(): Promise<void> {
    const now = options.snapshot();
    for (const [name, json] of now) {
      if (written.get(name) === json) continue;
      await writeAtomically(name, json);
      written.set(name, json);
    }
    for (const name of [...written.keys()]) {
      if (now.has(name)) continue;
      await rm(join(dir, `${name}.json`), { force: true });
      written.delete(name);
    }
  }

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(writeChanged, writeChanged);
    return writing;
  };

  return {
    load() {
      const loaded: StoredQueue<Q>[] = [];
      for (const entry of readdirSync(dir)) {
        if (!FILE.test(entry)) continue;
        const name = entry.slice(0, -'.json'.length);
        const file = join(dir, entry);
        try {
          const json = readFileSync(file, 'utf8');
          loaded.push({ name, data: JSON.parse(json) as Q });
          written.set(name, json);
        } catch {
          // Not JSON (written by hand, or by something else): kept aside, never lost, and not loaded.
          if (existsSync(file)) renameSync(file, `${file}.unreadable`);
        }
      }
      return loaded;
    },
    changed() {
      timer ??= setTimeout(() => void flush().catch(() => undefined), options.delayMs ?? 100);
    },
    flush,
  };
}
