import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildsCheckAnswers, isBuildCurrent } from './build-web';

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
