#!/usr/bin/env node
// `npm run reset`: deletes the local data (.local/): the DynamoDB Local database, the S3
// objects and the local signing key. The next `npm start` seeds the demo accounts again.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.local');
const marker = join(dataDir, 'portal.json');
if (existsSync(marker)) {
  const { pid } = JSON.parse(readFileSync(marker, 'utf8'));
  let running = false;
  try {
    process.kill(pid, 0);
    running = pid !== process.pid;
  } catch {
    running = false;
  }
  if (running) {
    console.error(`The portal is running (process ${pid}). Stop it with Ctrl-C first, then run npm run reset again.`);
    process.exit(1);
  }
}
rmSync(dataDir, { recursive: true, force: true });
console.log('Local data cleared (.local/). The next npm start creates fresh demo data.');
