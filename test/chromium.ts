/**
 * The Chromium every browser run uses (the e2e tests, `npm run bench -- web`): Debian's package,
 * or CHROMIUM_PATH; nothing is downloaded. The flags keep a headless run to itself: no sandbox
 * (containers), no GPU, no QUIC, and none of the background calls home.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
