#!/usr/bin/env node
// `npm test`'s Vitest step: the browser tests (the `e2e` project, one file at a time against the
// portal its global setup starts) in one Vitest process, every other project in a second one
// beside it, instead of the browser files after all the others in one process (decision 0360).
// Vitest runs a project whose files may not overlap in a group of its own after the rest; side
// by side, the browser walks wait on Chromium and the portal while the handler files wait on
// DynamoDB Local, and the two cores stay busy. Each line is printed as it comes, marked with its
// process; arguments after `--` go to both (`npm test -- -t refund`; then a process whose files
// the filter leaves out passes with none). Exits non-zero if either failed, after both have ended.
import { spawn } from 'node:child_process';

const extra = process.argv.length > 2 ? [...process.argv.slice(2), '--passWithNoTests'] : [];
const runs = [
  ['e2e', ['run', '--project', 'e2e', ...extra]],
  ['rest', ['run', '--project', '!e2e', ...extra]],
];

const width = Math.max(...runs.map(([name]) => name.length));
const results = await Promise.all(
  runs.map(
    ([name, args]) =>
      new Promise((resolve) => {
        const mark = `[${name.padEnd(width)}] `;
        // npm puts node_modules/.bin first on the PATH of every script.
        const child = spawn('vitest', args, { stdio: ['ignore', 'pipe', 'pipe'] });
        for (const [stream, out] of [
          [child.stdout, process.stdout],
          [child.stderr, process.stderr],
        ]) {
          let partial = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk) => {
            const lines = (partial + chunk).split('\n');
            partial = lines.pop() ?? '';
            if (lines.length) out.write(lines.map((line) => `${mark}${line}\n`).join(''));
          });
          stream.on('end', () => partial && out.write(`${mark}${partial}\n`));
        }
        child.on('error', (error) => resolve({ name, code: 1, error }));
        child.on('close', (code) => resolve({ name, code: code ?? 1 }));
      }),
  ),
);
for (const { name, error } of results) if (error) console.error(`[${name}] could not start vitest: ${error.message}`);
const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
console.log(failed.length === 0 ? '\nBoth Vitest runs passed.' : `\nVitest failed in: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
