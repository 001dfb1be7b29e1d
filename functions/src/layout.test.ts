import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layout of functions/src as docs/architecture.md draws it, checked on the imports
 * themselves: capabilities never import an adapter or the composition module, http/ knows no
 * capability, and no two folders import each other.
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const CAPABILITIES = [
  'addresses',
  'auth',
  'catalogue',
  'email',
  'imports',
  'products',
  'payments',
  'orders',
  'commissions',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The top-level entry of functions/src a path belongs to: a folder name, or a file like `composition.ts`. */
const areaOf = (path: string): string => relative(SRC, path).split(/[\\/]/)[0]!.replace(/\.ts$/, '');

/** Area -> the other areas it imports (relative imports that stay inside functions/src). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const from = areaOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!);
      if (!target.startsWith(SRC)) continue;
      const to = areaOf(target);
      if (to !== from) targets.add(to);
    }
  }
  return graph;
}

describe('functions/src layout', () => {
  const graph = importGraph();
  const importsOf = (area: string) => [...(graph.get(area) ?? [])].sort();

  it('has no lib/, utils/ or helpers/ folder', () => {
    expect([...graph.keys()].filter((area) => ['lib', 'utils', 'helpers', 'ports'].includes(area))).toEqual([]);
  });

  it('keeps adapters and the composition module out of every capability', () => {
    for (const capability of CAPABILITIES.filter((name) => graph.has(name))) {
      expect(importsOf(capability), capability).not.toContain('adapters');
      expect(importsOf(capability), capability).not.toContain('composition');
      expect(importsOf(capability), capability).not.toContain('handlers');
      expect(importsOf(capability), capability).not.toContain('http');
    }
  });

  it('lets http/ know nothing of capabilities or adapters', () => {
    expect(importsOf('http').filter((to) => [...CAPABILITIES, 'adapters', 'composition'].includes(to))).toEqual([]);
  });

  it('has no two folders that import each other, directly or around a loop', () => {
    const cycles: string[] = [];
    const visit = (area: string, path: string[]) => {
      for (const next of graph.get(area) ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(' -> '));
        else if (!path.includes(next)) visit(next, [...path, next]);
      }
    };
    for (const area of graph.keys()) visit(area, [area]);
    expect(cycles).toEqual([]);
  });

  it('wires adapters in one place: only the composition module imports them (handlers take their stores from it)', () => {
    const importers = [...graph.entries()].filter(([, to]) => to.has('adapters')).map(([from]) => from);
    expect(importers.sort()).toEqual(['composition']);
  });
});
