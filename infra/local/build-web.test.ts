import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRECOMPRESS_LATER_ENV, precompressed } from '@portal/shared/build/precompress';
import { buildsCheckAnswers, isBuildCurrent, precompressApps } from './build-web';

describe('which app builds npm start and the browser tests take as they are', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-build-web-'));
    mkdirSync(join(root, 'web-member', 'src'), { recursive: true });
    mkdirSync(join(root, 'web-member', 'dist'));
    mkdirSync(join(root, 'shared', 'src'), { recursive: true });
    writeFileSync(join(root, 'web-member', 'src', 'main.tsx'), 'export {};');
    // The sources an hour old, the build now.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const path of ['web-member/src/main.tsx', 'web-member/src', 'web-member', 'shared/src', 'shared']) {
      utimesSync(join(root, path), hourAgo, hourAgo);
    }
    writeFileSync(join(root, 'web-member', 'dist', 'index.html'), '<!doctype html>');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const builtAs = (info: string) => writeFileSync(join(root, 'web-member', 'dist', 'build.json'), info);

  it('a build of the kind this process makes, newer than its sources, is current', () => {
    builtAs('{"checksAnswers":false}');
    expect(isBuildCurrent(root, 'web-member', false)).toBe(true);
    builtAs('{"checksAnswers":true}');
    expect(isBuildCurrent(root, 'web-member', true)).toBe(true);
  });

  it('a build of the other kind is not: npm start after npm test builds again, and the tests after npm start', () => {
    builtAs('{"checksAnswers":true}');
    expect(isBuildCurrent(root, 'web-member', false)).toBe(false);
    builtAs('{"checksAnswers":false}');
    expect(isBuildCurrent(root, 'web-member', true)).toBe(false);
  });

  it('a build that does not say, or is older than a source, is not', () => {
    expect(isBuildCurrent(root, 'web-member', false)).toBe(false);
    builtAs('{"checksAnswers":false}');
    writeFileSync(join(root, 'shared', 'src', 'new.ts'), 'export {};');
    utimesSync(
      join(root, 'web-member', 'dist', 'index.html'),
      new Date(Date.now() - 60_000),
      new Date(Date.now() - 60_000),
    );
    expect(isBuildCurrent(root, 'web-member', false)).toBe(false);
  });

  it('builds check answers where NODE_ENV is test or development, as Vite decides', () => {
    expect(buildsCheckAnswers({ NODE_ENV: 'test' })).toBe(true);
    expect(buildsCheckAnswers({ NODE_ENV: 'development' })).toBe(true);
    expect(buildsCheckAnswers({ NODE_ENV: 'production' })).toBe(false);
    expect(buildsCheckAnswers({})).toBe(false);
  });
});

describe('the brotli files npm start writes once its first page is served', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-precompress-'));
    for (const app of ['web-member', 'web-admin']) mkdirSync(join(root, app, 'dist', 'assets'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const asset = (app: string, name: string) => join(root, app, 'dist', 'assets', name);

  it('are written for every script and style sheet without a fresh one, and decode to the file', async () => {
    const script = 'export const greeting = "hello";\n'.repeat(200);
    writeFileSync(asset('web-member', 'index-abc.js'), script);
    writeFileSync(asset('web-admin', 'index-def.css'), 'body { color: black; }\n');
    writeFileSync(asset('web-admin', 'logo.svg'), '<svg/>');
    expect(await precompressApps(root)).toBe(2);
    expect(brotliDecompressSync(readFileSync(`${asset('web-member', 'index-abc.js')}.br`)).toString()).toBe(script);
    expect(existsSync(`${asset('web-admin', 'logo.svg')}.br`)).toBe(false);
    // A second start finds them fresh and writes none; a file rebuilt since gets its own again.
    expect(await precompressApps(root)).toBe(0);
    const later = new Date(Date.now() + 60_000);
    utimesSync(asset('web-admin', 'index-def.css'), later, later);
    expect(await precompressApps(root)).toBe(1);
  });

  it('are left out of a build made with precompressLater, and only of it', async () => {
    const plugin = precompressed() as {
      configResolved: (config: unknown) => void;
      writeBundle: (...args: unknown[]) => Promise<void>;
    };
    const dir = join(root, 'web-member', 'dist');
    plugin.configResolved({ root, build: { outDir: dir } });
    const bundle = { 'assets/a.js': { type: 'chunk', fileName: 'assets/a.js', code: 'export {};' } };
    process.env[PRECOMPRESS_LATER_ENV] = '1';
    try {
      await plugin.writeBundle({ dir }, bundle);
    } finally {
      delete process.env[PRECOMPRESS_LATER_ENV];
    }
    expect(existsSync(join(dir, 'assets', 'a.js.br'))).toBe(false);
    await plugin.writeBundle({ dir }, bundle);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'a.js.br'))).toString()).toBe('export {};');
  });
});
