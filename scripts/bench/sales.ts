import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { ensureTable, startDynamo } from '../../infra/local/dynamo';
import { formatTable, median, type BenchSection } from './section';
import { benchProductContent } from './bench-product';

/**
 * The sales loop at scale (issue 15, "Performance"):
 * 1. every admin list's first page, a member's own commissions and the counters, through the real
 *    handlers (token check included), with 1 000 and then 100 000 orders and commissions over
 *    1 000 members: the two latencies within 1.5 times of each other;
 * 2. the member home (getApprovedProducts) and a member's commissions (getCommisionsByUser) under
 *    50 concurrent clients over HTTP against the local server, with the tokens of logged-in members.
 * The items are seeded with BatchWrite exactly as the adapters write them (the item builders of
 * dynamo-sale-recorder.ts, then the marks' and transfers' changes applied as dynamo-sales.ts and
 * dynamo-commission-money.ts make them), the counters and EARNINGS items summed from the same items.
 */

const SCALE = Number(process.env.BENCH_SALES ?? 100_000);
// The recording figures (sales/s with 50 and 200 buyers) come last: ./sales-recording.ts.
const FEW = Math.min(1_000, SCALE);
const MEMBERS = 1_000;
const PRODUCTS = 1_000;
const SAMPLES = 20;
const CLIENTS = 50;
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const PASSWORD = 'bench member password';
/** BatchWrites in flight while seeding (25 items each). */
const WRITERS = 8;

const memberId = (m: number) => `bench-member-${String(m).padStart(4, '0')}`;
const memberEmail = (m: number) => `bench-member-${m}@example.com`;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const BASE = Date.parse('2026-01-01T00:00:00Z');
const ms = (value: number) => `${value.toFixed(1)} ms`;

type Item = Record<string, unknown>;

/** Percentile of sorted values (nearest rank). */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Calls `write` for each 25 of `items`, WRITERS calls at a time. */
async function writeAll(items: readonly Item[], write: (batch: Item[]) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < items.length) {
        const start = next;
        next += 25;
        await write(items.slice(start, start + 25) as Item[]);
      }
    }),
  );
}

/** The load generator: its own thread, so the server's event loop is not the one timing it. */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, tokens, bodies, seconds } = workerData;
const latencies = [];
let errors = 0;
const until = performance.now() + seconds * 1000;
(async () => {
  await Promise.all(tokens.map(async (token, i) => {
    const body = JSON.stringify(bodies[i]);
    while (performance.now() < until) {
      const started = performance.now();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
          body,
        });
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
        else errors++;
      } catch {
        errors++;
      }
    }
  }));
  parentPort.postMessage({ latencies, errors });
})();
`;

async function load(
  url: string,
  tokens: string[],
  bodies: unknown[],
): Promise<{ p50: number; p99: number; rps: number; errors: number }> {
  const started = performance.now();
  const result = await new Promise<{ latencies: number[]; errors: number }>((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { url, tokens, bodies, seconds: LOAD_SECONDS } });
    worker.once('message', (message: { latencies: number[]; errors: number }) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  const elapsed = (performance.now() - started) / 1000;
  const sorted = result.latencies.sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rps: sorted.length / elapsed,
    errors: result.errors,
  };
}

export const salesLists: BenchSection = {
  name: 'sales',
  description: `orders and commissions lists, ${FEW.toLocaleString('en-US')} vs ${SCALE.toLocaleString('en-US')} each over ${MEMBERS.toLocaleString('en-US')} members; ${CLIENTS} clients on the member home and commissions`,
  async run() {
    // The local server as startPortal builds it, over an in-memory DynamoDB Local (startPortal's
    // keeps its file under .local/: on disk, seeding 300 000 items takes tens of minutes).
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-sales-'));
    const { configureEnvironment, loadHandler, root, TABLE_NAME, demoAccounts } =
      await import('../../infra/local/start');
    const { createPortalServer } = await import('../../infra/local/server');
    const dynamo = await startDynamo();
    const server = createPortalServer({
      routes: (await import('../../functions/src/routes')).routes,
      loadHandler,
      memberDist: join(root, 'web-member', 'dist'),
      adminDist: join(root, 'web-admin', 'dist'),
    });
    try {
      configureEnvironment({ dataDir, dynamoEndpoint: dynamo.endpoint });
      process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
      await ensureTable(dynamo.client, TABLE_NAME);
      const { ensureAccount } = await import('../../infra/local/accounts');
      await ensureAccount(demoAccounts.admin.email, demoAccounts.admin.password, true);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      const { port } = server.address() as AddressInfo;
      return await measureAll(`http://127.0.0.1:${port}`);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dynamo.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }

    async function measureAll(url: string) {
      const { availableSortKey, keys, lists, topEarnerSortKey } = await import('../../shared/src/db/table');
      const { ORDER_STATUSES } = await import('../../shared/src/domain/sales-status');
      const { batchWriteAll } = await import('../../functions/src/adapters/dynamo-client');
      const { orderItem, commissionItem } = await import('../../functions/src/adapters/orders/dynamo-sale-recorder');
      const { dynamoSales } = await import('../../functions/src/adapters/orders/dynamo-sales');
      const { dynamoCommissionStore } =
        await import('../../functions/src/adapters/commissions/dynamo-commission-store');
      const { productItem } = await import('../../functions/src/adapters/products/dynamo-products');
      const { productIdFromSpuNo } = await import('../../shared/src/domain/csv-product');
      const { hashPassword } = await import('../../functions/src/auth/passwords');
      const { newUserRecord } = await import('../../functions/src/auth/user-store');
      const { randomCrockford } = await import('../../shared/src/domain/crockford');
      const { Password } = await import('../../shared/src/api/schemas');
      const { routes } = await import('../../functions/src/routes');
      const { toApiEvent, lambdaContext } = await import('../../infra/local/api-event');
      type OrderRecord = Parameters<typeof orderItem>[0];
      type CommissionRecord = Parameters<typeof commissionItem>[0];
      const write = (batch: Item[]) => batchWriteAll(batch.map((Item) => ({ PutRequest: { Item } })));

      // Members: real accounts (user, e-mail claim, share-code claim as dynamoUsers.create writes
      // them), all with one password hashed once; approved products for the member home.
      const passwordHash = await hashPassword(Password.parse(PASSWORD));
      const people: Item[] = [];
      for (let m = 0; m < MEMBERS; m++) {
        const user = {
          ...newUserRecord(memberId(m), memberEmail(m), passwordHash, new Date(BASE)),
          isEmailVerified: true,
        };
        people.push(
          { ...keys.user(user.id), entity: 'User', ...user },
          { ...keys.email(user.email), entity: 'UserEmail', userId: user.id },
          { ...keys.shareCode(user.shareCode!), entity: 'ShareCode', userId: user.id },
        );
      }
      for (let i = 0; i < PRODUCTS; i++) {
        const at = new Date(BASE + i * 1000).toISOString();
        const content = benchProductContent(i);
        people.push(
          productItem({
            id: productIdFromSpuNo(content.spu_no),
            status: 'approved',
            current: content,
            approved: content,
            createdAt: at,
            updatedAt: at,
            approvedAt: at,
            lastJobId: 'bench',
          }),
        );
      }
      await writeAll(people, write);

      // The running totals the counters and EARNINGS items hold, summed from the items seeded.
      const orderCounts = { all: 0, notOrdered: 0, notShipped: 0, notFulfilled: 0 };
      const commissionCounts = {
        count: 0,
        totalCents: 0,
        paidCents: 0,
        processingCents: 0,
        toStripeCount: 0,
        toStripeCents: 0,
        toBePaidCount: 0,
        toBePaidCents: 0,
      };
      const earned = Array.from({ length: MEMBERS }, () => ({
        count: 0,
        totalCents: 0,
        paidCents: 0,
        processingCents: 0,
      }));

      /**
       * Sale i: a checkout order with its payment claim and commission. Every tenth sale is member
       * 0's (the busy member whose own list is timed: a full first page of 100 rows at 1,000 sales as
       * at 100,000, so the ratio measures the table's growth, not a page of 1 row against 100); the
       * rest go round the other members. Its
       * stage cycles (awaiting ordering, shipping, fulfilment; fulfilled); a fulfilled order's
       * commission cycles through in processing, transferred (to be paid) and paid.
       */
      function sale(i: number): Item[] {
        const m = i % 10 === 0 ? 0 : 1 + (i % (MEMBERS - 1));
        const at = new Date(BASE + i * 1000).toISOString();
        const id = `bench-order-${pad(i, 7)}`;
        const commissionId = `bench-commission-${pad(i, 7)}`;
        const stage = i % 4;
        const unitCents = 1999 + (i % 50) * 100;
        const amountCents = Math.round(unitCents * 0.2);
        const order: OrderRecord = {
          id,
          orderID: `RP-${randomCrockford(8)}`,
          qty: 1,
          product_id: productIdFromSpuNo(`BENCH-${i % PRODUCTS}`),
          product_name: `Bench product ${i % PRODUCTS} with a realistic, fairly long name`,
          brand: 'Benchmark Co.',
          product_image: `https://img.bench.test/${i % PRODUCTS}/1.jpg`,
          spu_no: `BENCH-${i % PRODUCTS}`,
          product_url: `https://supplier.bench.test/${i % PRODUCTS}`,
          unitCents,
          totalCents: unitCents,
          customer: {
            name: `Customer ${i}`,
            email: `customer-${i}@example.com`,
            address: { line1: `${i} Main Street`, city: 'Springfield', state: 'IL', postal_code: '62701' },
          },
          memberId: memberId(m),
          memberEmail: memberEmail(m),
          source: 'checkout',
          paymentIntentId: `pi_bench_${pad(i, 7)}`,
          commissionId,
          status: ORDER_STATUSES[stage]!,
          createdAt: at,
        };
        const money = stage === 3 ? Math.floor(i / 4) % 3 : 0; // 0 processing, 1 transferred, 2 paid
        const commission: CommissionRecord = {
          id: commissionId,
          memberId: memberId(m),
          memberEmail: memberEmail(m),
          orderId: id,
          orderID: order.orderID,
          product_id: order.product_id,
          product_name: order.product_name,
          amountCents,
          status: stage === 3 ? (['processing', 'in_stripe', 'paid'] as const)[money]! : 'order_open',
          transferId: money >= 1 ? `tr_bench_${pad(i, 7)}` : null,
          payoutId: money === 2 ? `po_bench_${pad(i, 7)}` : null,
          payoutFailure: null,
          createdAt: at,
          updatedAt: at,
        };
        // As recordSale writes them, in the stage list (gsi2) of their status, as the marks
        // (dynamo-sales.ts markOrder) and the money moves (dynamo-commission-money.ts) leave them.
        const orderStored = orderItem(order);
        const commissionStored = commissionItem(commission);
        // A fulfilled commission sorts in To Stripe by the end of its hold (dynamo-sales.ts markOrder):
        // here long over, so it is available.
        if (commission.status === 'processing') {
          const availableAt = Date.parse(at);
          Object.assign(commissionStored, { availableAt, gsi2sk: availableSortKey(availableAt, commissionId) });
        }

        orderCounts.all++;
        if (stage === 0) orderCounts.notOrdered++;
        if (stage === 1) orderCounts.notShipped++;
        if (stage === 2) orderCounts.notFulfilled++;
        commissionCounts.count++;
        commissionCounts.totalCents += amountCents;
        if (money === 2) commissionCounts.paidCents += amountCents;
        else commissionCounts.processingCents += amountCents;
        if (money === 0) {
          commissionCounts.toStripeCount++;
          commissionCounts.toStripeCents += amountCents;
        }
        if (money === 1) {
          commissionCounts.toBePaidCount++;
          commissionCounts.toBePaidCents += amountCents;
        }
        const mine = earned[m]!;
        mine.count++;
        mine.totalCents += amountCents;
        if (money === 2) mine.paidCents += amountCents;
        else mine.processingCents += amountCents;

        return [
          orderStored,
          {
            ...keys.paymentClaim(order.paymentIntentId!),
            entity: 'paymentClaim',
            orderId: id,
            createdAt: at,
          },
          commissionStored,
        ];
      }

      /**
       * The counters and every member's earnings, from the totals so far: the sums in shard 0 (a
       * read sums the shards), the EARNINGS item with the member's TOP_EARNERS place.
       */
      const totalsItems = (): Item[] => [
        { ...keys.ordersCounterShard(0), entity: 'counter', ...orderCounts },
        { ...keys.commissionsCounterShard(0), entity: 'counter', ...commissionCounts },
        ...earned.flatMap((mine, m) => [
          { ...keys.earningsShard(memberId(m), 0), entity: 'earningsShard', ...mine },
          {
            ...keys.earnings(memberId(m)),
            entity: 'earnings',
            memberId: memberId(m),
            memberEmail: memberEmail(m),
            rankCount: mine.count,
            rankCents: mine.totalCents,
            gsi1pk: lists.topEarners.partition,
            gsi1sk: topEarnerSortKey(mine.totalCents, memberId(m)),
          },
        ]),
      ];

      let seeded = 0;
      async function seedTo(count: number): Promise<{ items: number; seconds: number }> {
        const started = performance.now();
        let items = 0;
        // In slices, so the items of 100 000 sales are never all in memory at once.
        while (seeded < count) {
          const end = Math.min(count, seeded + 10_000);
          const slice: Item[] = [];
          for (let i = seeded; i < end; i++) slice.push(...sale(i));
          await writeAll(slice, write);
          items += slice.length;
          seeded = end;
        }
        const totals = totalsItems();
        await writeAll(totals, write);
        return { items: items + totals.length, seconds: (performance.now() - started) / 1000 };
      }

      // Logged-in members: the real login handler, each from its own address (the per-address limit).
      const handlerOf = async (name: string) => {
        const route = routes.find((candidate) => candidate.path === `/api/${name}`);
        if (!route) throw new Error(`no route /api/${name}`);
        return loadHandler(route);
      };
      const event = (path: string, body: unknown, token?: string, sourceIp = '127.0.0.1') =>
        toApiEvent({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: Buffer.from(JSON.stringify(body)),
          sourceIp,
        });
      const login = await handlerOf('login');
      const logIn = async (email: string, password: string, k: number) => {
        const result = (await login(
          event('/api/login', { email, password }, undefined, `10.77.${k >> 8}.${k & 255}`),
          lambdaContext('login', 10_000),
        )) as { statusCode: number; body: string };
        if (result.statusCode !== 200) throw new Error(`login of ${email}: ${result.statusCode} ${result.body}`);
        return (JSON.parse(result.body) as { access_token: string }).access_token;
      };
      // Access tokens live 15 minutes (auth/tokens.ts) and seeding 100 000 sales on a loaded machine
      // can take longer: every measurement logs in afresh just before it, each round from addresses
      // of its own (the per-address limit counts logins).
      let round = 0;
      const tokens = { admin: '', members: [] as string[] };
      async function logInAll(): Promise<void> {
        const base = 10_000 * round++;
        tokens.admin = await logIn(demoAccounts.admin.email, demoAccounts.admin.password, base + 9999);
        tokens.members = [];
        for (let m = 0; m < CLIENTS; m++) tokens.members.push(await logIn(memberEmail(m), PASSWORD, base + m));
      }

      const calls: { label: string; name: string; body: unknown; token: () => string }[] = [
        { label: 'getOrders (all)', name: 'getOrders', body: { type: 'all' }, token: () => tokens.admin },
        { label: 'getOrdersNotOrdered', name: 'getOrdersNotOrdered', body: {}, token: () => tokens.admin },
        { label: 'getOrdersNotShipped', name: 'getOrdersNotShipped', body: {}, token: () => tokens.admin },
        { label: 'getOrdersNotFufilled', name: 'getOrdersNotFufilled', body: {}, token: () => tokens.admin },
        { label: 'getCommisions', name: 'getCommisions', body: {}, token: () => tokens.admin },
        { label: 'getCommisionsToStripe', name: 'getCommisionsToStripe', body: {}, token: () => tokens.admin },
        { label: 'getCommisionsToBePayed', name: 'getCommisionsToBePayed', body: {}, token: () => tokens.admin },
        { label: 'getTopEarners', name: 'getTopEarners', body: {}, token: () => tokens.admin },
        {
          label: 'getCommisionsByUser (own, member)',
          name: 'getCommisionsByUser',
          body: { id: memberId(0) },
          token: () => tokens.members[0]!,
        },
      ];
      const handlers = new Map<string, Awaited<ReturnType<typeof handlerOf>>>();
      for (const call of calls) handlers.set(call.name, await handlerOf(call.name));

      /** Median and p95 of SAMPLES timed calls, after 5 untimed ones. */
      async function time(body: () => Promise<unknown>) {
        const samples: number[] = [];
        for (let i = 0; i < SAMPLES + 5; i++) {
          const started = performance.now();
          await body();
          if (i >= 5) samples.push(performance.now() - started);
        }
        samples.sort((a, b) => a - b);
        return { median: median(samples), p95: percentile(samples, 95) };
      }
      async function measureLists() {
        await logInAll();
        const figures = new Map<string, { median: number; p95: number }>();
        for (const call of calls) {
          const handler = handlers.get(call.name)!;
          figures.set(
            call.label,
            await time(async () => {
              const result = (await handler(
                event(`/api/${call.name}`, call.body, call.token()),
                lambdaContext(call.name, 10_000),
              )) as { statusCode: number; body: string };
              if (result.statusCode !== 200) throw new Error(`${call.name}: ${result.statusCode} ${result.body}`);
              const page = JSON.parse(result.body) as { items: unknown[] };
              if (page.items.length === 0) throw new Error(`${call.name}: an empty first page`);
            }),
          );
        }
        figures.set('orders counters (Query of the shards)', await time(() => dynamoSales.orderCounts()));
        figures.set(
          'commissions counters (Query of the shards)',
          await time(() => dynamoCommissionStore.commissionCounts()),
        );
        figures.set(
          'member earnings (Query of the shards)',
          await time(() => dynamoCommissionStore.earnings(memberId(0))),
        );
        return figures;
      }

      const seedFew = await seedTo(FEW);
      const few = await measureLists();
      const seedMany = await seedTo(SCALE);
      const many = await measureLists();
      const counters = await dynamoSales.orderCounts();
      const commissionTotals = await dynamoCommissionStore.commissionCounts();
      const countersHold =
        counters.all === SCALE &&
        counters.notOrdered + counters.notShipped + counters.notFulfilled === SCALE - Math.floor(SCALE / 4) &&
        commissionTotals.count === SCALE;

      let ok = countersHold;
      const rows = [...few.keys()].map((label) => {
        const a = few.get(label)!;
        const b = many.get(label)!;
        const ratio = b.median / a.median;
        if (ratio > 1.5) ok = false;
        return [label, ms(a.median), ms(a.p95), ms(b.median), ms(b.p95), ratio.toFixed(2), ratio <= 1.5 ? 'yes' : 'NO'];
      });
      const lines = formatTable(
        [
          'call (first page, 100 rows)',
          `median, ${FEW.toLocaleString('en-US')}`,
          `p95, ${FEW.toLocaleString('en-US')}`,
          `median, ${SCALE.toLocaleString('en-US')}`,
          `p95, ${SCALE.toLocaleString('en-US')}`,
          'ratio',
          '<= 1.5',
        ],
        rows,
        ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
      );
      lines.push(
        '',
        `Seeding (BatchWrite, ${WRITERS} requests of 25 in flight; orders, payment claims, commissions, counters, EARNINGS):`,
        `  to ${FEW.toLocaleString('en-US')} sales: ${seedFew.items.toLocaleString('en-US')} items in ${seedFew.seconds.toFixed(1)} s`,
        `  to ${SCALE.toLocaleString('en-US')} sales: ${seedMany.items.toLocaleString('en-US')} more items in ${seedMany.seconds.toFixed(1)} s (${Math.round(seedMany.items / seedMany.seconds).toLocaleString('en-US')} items/s)`,
        `Counters after seeding: ${JSON.stringify(counters)}; ${countersHold ? 'consistent' : 'NOT CONSISTENT'} with the items.`,
        `Each list call is the real handler (token check, counters, members' BatchGet included), ${SAMPLES} timed calls after 5 untimed; goal: ratio <= 1.50.`,
        '',
      );

      // Under load: the member home and a member's own commissions, HTTP against the local server.
      await logInAll();
      const memberTokens = tokens.members;
      const bodies = (kind: 'home' | 'commissions') =>
        memberTokens.map((_, m) => (kind === 'home' ? {} : { id: memberId(m) }));
      const home = await load(`${url}/api/getApprovedProducts`, memberTokens, bodies('home'));
      const own = await load(`${url}/api/getCommisionsByUser`, memberTokens, bodies('commissions'));
      lines.push(
        ...formatTable(
          [`${CLIENTS} clients, ${LOAD_SECONDS} s each, HTTP`, 'p50', 'p99', 'requests/s', 'errors'],
          [
            ['getApprovedProducts (member home)', ms(home.p50), ms(home.p99), home.rps.toFixed(0), String(home.errors)],
            ['getCommisionsByUser (own)', ms(own.p50), ms(own.p99), own.rps.toFixed(0), String(own.errors)],
          ],
          ['left', 'right', 'right', 'right', 'right'],
        ),
        '',
        `Each client is a logged-in member with its own access token, one request at a time; the server is infra/local/server.ts (createPortalServer, as startPortal makes it) in this process, the clients in a worker thread; ${SCALE.toLocaleString('en-US')} sales stored.`,
      );
      if (home.errors + own.errors > 0) ok = false;
      // Sales recorded per second last: its sales ADD to the counter shards the seeding put.
      const { recordingThroughput } = await import('./sales-recording');
      const recording = await recordingThroughput();
      return { ok: ok && recording.ok, lines: [...lines, '', ...recording.lines] };
    }
  },
};
