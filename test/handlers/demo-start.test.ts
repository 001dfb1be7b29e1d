import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal } from '../../infra/local/start';
import { api } from '../e2e/api';

/**
 * `npm start` on a fresh data folder, as a newcomer runs it: a portal of its own (its own engines,
 * the built apps) with every capability's demo data seeded in the order the start seeds it. Each
 * seed has its own test; this one holds them together (a withdrawn demo product once stopped the
 * demo sales' checkouts, and with them the whole start). It opens no browser, so it runs with the
 * handler files, beside them, not in the browser files' one-at-a-time line; with no money setting
 * in its environment, as `npm start` runs.
 */
describe('npm start on a fresh data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-demo-start-'));
  let portal: Awaited<ReturnType<typeof startPortal>>;

  beforeAll(async () => {
    portal = await startPortal({ port: 0, dataDir, seedDemo: true, quiet: true });
  }, 600_000);

  afterAll(async () => {
    await portal?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The API of this file's own portal (test/e2e/api.ts). */
  const call = <T>(name: string, body: unknown, token?: string) => api<T>(name, body, token, { origin: portal.url });
  const logIn = async (account: { email: string; password: string }) =>
    (await call<{ access_token: string }>('login', account)).access_token;

  it('starts with the demo sales, the catalogue lists and a member who can withdraw', async () => {
    const admin = await logIn(portal.accounts.admin);
    const orders = await call<{ counters: { all: number } }>('getOrders', { limit: 5 }, admin);
    // The 36 demo sales, the demo member's self-purchase (demo-abuse.ts) and the three orders paid
    // with the demo member's discount code DANA10 (demo-codes).
    expect(orders.counters.all).toBe(40);
    const held = await call<{ items: { status: string; statusReason: string | null; member: { email: string } }[] }>(
      'getHeldCommissions',
      {},
      admin,
    );
    expect(held.items).toEqual([
      expect.objectContaining({
        status: 'review',
        statusReason: 'Bought through own link (same e-mail)',
        member: expect.objectContaining({ email: portal.accounts.member.email }),
      }),
    ]);
    const withdrawn = await call<{ items: unknown[] }>('getCatalogueProducts', { list: 'withdrawn' }, admin);
    expect(withdrawn.items).toHaveLength(1);
    const banned = await call<{ items: unknown[] }>('getCatalogueProducts', { list: 'banned' }, admin);
    expect(banned.items).toHaveLength(2);
    // Reconciliation: the demo's ledger and the emulator's agree, held webhooks delivered and all.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const reconciled = await call<{ differences: { text: string }[]; checked: { orders: number } }>(
      'reconcile',
      { from: day(91), to: day(0) },
      admin,
    );
    expect(reconciled.differences.map((difference) => difference.text)).toEqual([]);
    // Every order of the period, the self-purchase included.
    expect(reconciled.checked.orders).toBe(40);

    // The top-earners places: written by the places function from the table's stream, as in AWS
    // (decision 0481), soon after the demo's sales; every demo commission counted once.
    const commissions = await call<{ totals: { count: number } }>('getCommisions', { limit: 1 }, admin);
    await expect
      .poll(
        async () => {
          const top = await call<{ items: { email: string; count: number }[] }>('getTopEarners', { limit: 100 }, admin);
          return top.items.reduce((sum, earner) => sum + earner.count, 0);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(commissions.totals.count);

    const member = await logIn(portal.accounts.member);
    const quote = await call<{ canWithdraw: boolean; reason: string | null }>('getWithdrawalQuote', {}, member);
    expect(quote).toMatchObject({ canWithdraw: true, reason: null });
  });
});
