import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs stay true to the code: every anchor into a docs page that a source file or a doc names is a
 * heading of that page, every `docs/…` path a file names exists, a code comment names a section of
 * architecture.md by its anchor (never by a quoted title, which goes stale unseen), and every path
 * of our source tree that a decision record names still exists.
 */
const root = resolve(import.meta.dirname, '../..');

function trackedFiles(pattern: RegExp): string[] {
  const out = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter((file) => pattern.test(file) && existsSync(join(root, file)));
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdownPath: string): Set<string> {
  const text = readFileSync(markdownPath, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1]!)));
}

const sources = trackedFiles(/^(functions|shared|infra|web-member|web-admin|scripts|test)\/.*\.(ts|tsx|mjs|cjs)$/);
const docs = trackedFiles(/(^README\.md$|^docs\/.*\.md$)/);

describe('links into the docs', () => {
  it('slugs a heading as GitHub does', () => {
    expect(slug("A call's life")).toBe('a-calls-life');
    expect(slug('Payments (Stripe Connect)')).toBe('payments-stripe-connect');
    expect(slug('Data: one DynamoDB table')).toBe('data-one-dynamodb-table');
  });

  it('names only headings that exist, from code and from the docs', () => {
    const broken: string[] = [];
    for (const file of [...sources, ...docs]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(/((?:\.\.?\/|docs\/)?[\w./-]*\.md)#([\w-]+)/g)) {
        const target = match[1]!.startsWith('docs/')
          ? join(root, match[1]!)
          : resolve(dirname(join(root, file)), match[1]!);
        const resolved = existsSync(target) ? target : join(root, 'docs', match[1]!.replace(/^\.?\//, ''));
        if (!existsSync(resolved)) broken.push(`${file}: ${match[0]} (no such page)`);
        else if (!anchorsOf(resolved).has(match[2]!)) broken.push(`${file}: ${match[0]} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names docs/ pages that exist, from code', () => {
    const missing: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(/\bdocs\/[\w./-]*[\w-]\.md\b/g)) {
        if (!existsSync(join(root, match[0]))) missing.push(`${file}: ${match[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names an architecture section by its anchor, not by a quoted title', () => {
    const quoted: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(/architecture\.md,?\s*(?:\*\s*)?["“]/g)) quoted.push(`${file}: ${match[0]}`);
    }
    expect(quoted).toEqual([]);
  });

  it('decision records name only source paths that still exist', () => {
    const gone: string[] = [];
    for (const file of docs.filter((doc) => doc.startsWith('docs/decisions/'))) {
      const text = readFileSync(join(root, file), 'utf8');
      const pattern =
        /`((?:functions|shared|infra|web-member|web-admin|test|scripts)\/[\w./-]+\.(?:ts|tsx|mjs|json|md))`/g;
      for (const match of text.matchAll(pattern)) {
        if (!existsSync(join(root, match[1]!))) gone.push(`${file}: ${match[1]}`);
      }
    }
    expect(gone).toEqual([]);
  });
});
