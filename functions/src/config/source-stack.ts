import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';

/**
 * Stack traces in our source files, read through the bundle's source map only when an error is
 * logged. The functions used to run with `--enable-source-maps`, with which Node reads and parses
 * every bundle's map (and scans the bundle) at cold start, about a tenth of a function's import
 * time (docs/decisions/0008-source-maps-on-error.md); now a container that logs no error never reads it.
 * Node's own `module.SourceMap` (what `--enable-source-maps` uses) does the lookup: no library.
 *
 * Only files with a `<file>.map` beside them are mapped (our bundles; the runtime's SDK and Node's
 * own files have none); the source maps' paths are resolved against the map's folder, as Node does.
 */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null; // no map (or not one Node reads): the frame stays as it is
    }
    maps.set(file, map);
  }
  return map;
}

/** `    at name (/path/file.js:1:234)` or `    at /path/file.js:1:234`, the path absolute or a file URL. */
const FRAME = /^(\s*at (?:.*? \()?)((?:file:\/\/)?\/[^()]+?\.c?js):(\d+):(\d+)(\)?)$/;

/** The stack with every frame in a source-mapped file named by its source file, line and column. */
export function sourceMappedStack(stack: string): string {
  return stack
    .split('\n')
    .map((line) => {
      const frame = FRAME.exec(line);
      if (!frame) return line;
      const [, head, location, generatedLine, generatedColumn, tail] = frame;
      const file = location!.startsWith('file://') ? new URL(location!).pathname : location!;
      const entry = mapOf(file)?.findEntry(Number(generatedLine) - 1, Number(generatedColumn) - 1);
      if (!entry || !('originalSource' in entry)) return line;
      const source = resolve(dirname(file), entry.originalSource.replace(/^file:\/\//, ''));
      return `${head}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${tail}`;
    })
    .join('\n');
}

const mapped = new WeakSet<Error>();

/**
 * Maps the stack of an error (and of its causes) in place, once: the logger calls this for every
 * error it writes out.
 */
export function mapErrorStack(error: Error): Error {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    if (typeof current.stack === 'string' && !mapped.has(current)) {
      mapped.add(current);
      current.stack = sourceMappedStack(current.stack);
    }
    current = current.cause;
  }
  return error;
}
