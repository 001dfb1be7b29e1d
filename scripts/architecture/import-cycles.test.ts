import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from './import-graph';

/**
 * No import loop anywhere in the code that ships: the file graph of functions/src, shared/src and
 * both apps, every kind of import counted (a type-only import or an `import()` still ties two
 * modules together), and, as the layout always drew it, no loop between the folders of functions/src.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const graph = importGraph(ROOT, ['functions/src', 'shared/src', 'shared/test', 'web-member/src', 'web-admin/src']);

/** No loop is allowed: the test names any that appears. */
const KNOWN_CYCLES: string[] = [];

describe('import cycles', () => {
  it('reads the real graph (every package, with its imports resolved)', () => {
    const files = [...graph.keys()];
    for (const root of ['functions/src/', 'shared/src/', 'web-member/src/', 'web-admin/src/']) {
      expect(
        files.some((file) => file.startsWith(root)),
        root,
      ).toBe(true);
    }
    expect(graph.get('functions/src/handlers/login.ts')?.map((edge) => edge.to)).toContain(
      'functions/src/composition.ts',
    );
    expect(graph.get('web-member/src/main.tsx')?.some((edge) => edge.to.startsWith('shared/src/'))).toBe(true);
  });

  it('finds a loop when there is one, and names it', () => {
    const loop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(cycles(loop)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts', 'e.ts -> e.ts']);
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no file import loop but the known one', () => {
    const edges = new Map([...graph].map(([file, imports]) => [file, imports.map((edge) => edge.to)]));
    expect(cycles(edges)).toEqual(KNOWN_CYCLES);
  });

  it('has no two folders of functions/src that import each other, directly or around a loop', () => {
    const area = (file: string) => file.split('/')[2]!.replace(/\.ts$/, '');
    const folders = new Map<string, string[]>();
    for (const [file, imports] of graph) {
      if (!file.startsWith('functions/src/') || /\.test\.ts$/.test(file)) continue;
      const targets = folders.get(area(file)) ?? [];
      folders.set(area(file), targets);
      for (const { to } of imports) {
        if (to.startsWith('functions/src/') && area(to) !== area(file)) targets.push(area(to));
      }
    }
    expect(cycles(folders)).toEqual([]);
  });
});
