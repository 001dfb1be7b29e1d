#!/usr/bin/env node
// Runs before `npm start` and `npm test` (npm pre-scripts), with Node's own modules only:
// installs the dependencies with `npm ci` when they are missing or do not match the lockfile,
// and with --chromium makes sure a Chromium for the browser tests is there.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outOfDate } from './deps-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fail = (message) => {
  console.error(`\n${message}\n`);
  process.exit(1);
};

const [major] = process.versions.node.split('.').map(Number);
if (major < 20) fail(`This project needs Node.js 20 or newer; this is ${process.version}.`);

function dependenciesCurrent() {
  const hidden = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(hidden)) return false;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return outOfDate(lock, JSON.parse(readFileSync(hidden, 'utf8'))).length === 0;
}

if (!dependenciesCurrent()) {
  console.log('Installing dependencies with npm ci (they are missing or older than package-lock.json)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) fail('npm ci failed; see the messages above.');
}

if (process.argv.includes('--chromium')) {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  if (!candidates.some((path) => existsSync(path))) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
    if (isRoot && hasApt) {
      console.log("No Chromium found for the browser tests: installing Debian's chromium package…");
      const apt = spawnSync(
        'sh',
        ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'],
        {
          stdio: 'inherit',
        },
      );
      if (apt.status !== 0 || !existsSync('/usr/bin/chromium'))
        fail('Installing chromium with apt-get failed; see above.');
    } else {
      fail(
        [
          'The browser tests need Chromium, and none was found (looked at CHROMIUM_PATH and /usr/bin/chromium).',
          'Install it, or point CHROMIUM_PATH at an installed Chromium or Chrome, then run npm test again:',
          '  Debian/Ubuntu: sudo apt-get install -y chromium',
          '  macOS: brew install --cask chromium, then export CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium',
        ].join('\n'),
      );
    }
  }
}
