import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../../infra/local/start';

/**
 * `STRIPE_SECRET_KEY=sk_test_… npm start` without STRIPE_API_URL: the functions talk to Stripe's
 * own API with the developer's key, not to the emulator (nothing is called here).
 */
let dataDir = '';
let portal: Portal;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-own-stripe-'));
  delete process.env.STRIPE_API_URL;
  process.env.STRIPE_SECRET_KEY = 'sk_test_developers_own_key';
  process.env.STRIPE_WEBHOOK_SECRET = 'whsec_from_stripe_listen';
  portal = await startPortal({ port: 0, dataDir, quiet: true, buildWeb: false });
});
afterAll(async () => {
  await portal?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start with your own Stripe test key', () => {
  it('keeps your key and webhook secret and sets no emulator URL', () => {
    expect(portal.ownStripeKey).toBe(true);
    expect(process.env.STRIPE_API_URL).toBeUndefined();
    expect(process.env.STRIPE_SECRET_KEY).toBe('sk_test_developers_own_key');
    expect(process.env.STRIPE_WEBHOOK_SECRET).toBe('whsec_from_stripe_listen');
  });
});
