import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAVE_EVERY_MS, Store } from './store';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const written = (dir: string) => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { events: unknown[] };
const mtime = (dir: string) => statSync(join(dir, 'state.json')).mtimeMs;

describe("the emulator's state file", () => {
  it('writes a burst of changes once, shortly after the first, whole and private', async () => {
    const dir = fresh();
    const store = new Store(dir);
    for (let i = 0; i < 500; i++) {
      store.state.events.push({ id: `evt_${i}` } as never);
      store.save();
    }
    // Nothing is written while the burst is answered …
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
    await expect.poll(() => existsSync(join(dir, 'state.json')), { timeout: SAVE_EVERY_MS * 50 }).toBe(true);
    // … then the whole state once, 0600 in a 0700 folder.
    expect(written(dir).events).toHaveLength(500);
    expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const first = mtime(dir);
    await new Promise((resolve) => setTimeout(resolve, SAVE_EVERY_MS * 2));
    expect(mtime(dir)).toBe(first);
    store.close();
    expect(mtime(dir)).toBe(first);
  });

  it('close writes a change at once, and a new store reads it back', () => {
    const dir = fresh();
    const store = new Store(dir);
    store.state.events.push({ id: 'evt_last' } as never);
    store.save();
    store.close();
    expect(written(dir).events).toEqual([{ id: 'evt_last' }]);
    expect(new Store(dir).state.events).toEqual([{ id: 'evt_last' }]);
  });

  it('writes a change not yet written when the process exits without stopping the emulator', () => {
    const dir = fresh();
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${join(import.meta.dirname, 'store.ts')}').then(({ Store }) => {
          const store = new Store(${JSON.stringify(dir)});
          store.state.events.push({ id: 'evt_at_exit' });
          store.save();
          process.exit(0);
        });`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(written(dir).events).toEqual([{ id: 'evt_at_exit' }]);
  });
});
