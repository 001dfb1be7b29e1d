import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-lock';
import { startPortal } from './start';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-lock-'));
  dirs.push(dir);
  return dir;
}

/** The id of a process that has ended (a child that ran and exited). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('one portal per data folder (lockDataDir)', () => {
  it('a second lock on the same folder is refused, in words that say what to do; released, it can be taken again', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(
      `Another portal is running with this data folder (${dir}, process ${process.pid}). Stop it with Ctrl-C first`,
    );
    release();
    expect(existsSync(join(dir, 'portal.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over a lock whose process is gone (a portal that was killed)', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'portal.lock'), String(endedPid()));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('does not remove a lock another process took after this one released its own', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    writeFileSync(join(dir, 'portal.lock'), '1');
    release();
    expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe('1');
  });

  it('npm start on a folder in use stops before starting any engine, and leaves the folder as it was', async () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    try {
      await expect(startPortal({ port: 0, dataDir: dir, quiet: true, buildWeb: false })).rejects.toThrow(
        /Another portal is running with this data folder/,
      );
      expect(existsSync(join(dir, 'dynamodb'))).toBe(false);
      expect(readFileSync(join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    } finally {
      release();
    }
  });
});
