import { randomBytes } from 'node:crypto';
import { formatTable } from './section';

/**
 * Sales recorded per second (issue "One call, one contract module", the data part): N paid
 * checkouts of one product through one member's share link (a viral link: every sale writes that
 * member's earnings and the counters), `buyers` at a time, recorded by the recorder
 * (dynamo-sale-recorder.ts `recordSale`: the transaction on a drawn shard, retried on a conflict)
 * against a plain TransactWrite of the same items (one shard, no retry). Neither writes the
 * member's top-earners place: the places function does, from the table's stream (decision 0481),
 * running here behind the local stream mapping throughout both kinds of cell (each cell's sales
 * write earnings shards, so it refreshes both alike); after each cell the bench waits, untimed, until
 * it has read everything, and says how long that took (the place's lag behind the last sale). DynamoDB Local runs transactions one at a time, so the figure says
 * what the recorder adds to the engine's own work; the failures are what either lost. The
 * recorder's sales look their commission rule up as record-sale.ts does (issue 39: the programme's
 * version read at each sale, the programme when the buyer's container holds another version's, and,
 * when a group rule could decide, the member's groups; decision 0480), under a programme of 50
 * rules whose brand rule pays them.
 */
const SALES_PER_RUN = Number(process.env.BENCH_RECORD_SALES ?? 2_000);
const BUYERS = [50, 200] as const;

export async function recordingThroughput(): Promise<{ ok: boolean; lines: string[] }> {
  const { TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db } = await import('../../functions/src/adapters/dynamo-client');
  const { recordSale, saleTransaction } = await import('../../functions/src/adapters/orders/dynamo-sale-recorder');
  const { dynamoSales } = await import('../../functions/src/adapters/orders/dynamo-sales');
  const { dynamoCommissionStore } = await import('../../functions/src/adapters/commissions/dynamo-commission-store');
  const { paymentOrderIds, commissionCents, ruleUsed } = await import('../../functions/src/orders/record-sale');
  const { dynamoRules } = await import('../../functions/src/adapters/rules/dynamo-rules');
  const { saleRulesOf } = await import('../../functions/src/rules/programme');
  const { ruleCommissionCents } = await import('../../shared/src/domain/commission-rules');
  await benchProgramme(dynamoRules);
  const places = await startPlaces();
  type OrderRecord = import('../../functions/src/orders/sales-store').OrderRecord;
  type CommissionRecord = import('../../functions/src/orders/sales-store').CommissionRecord;

  const run = randomBytes(4).toString('hex');
  const sale = (mode: string, buyers: number, i: number): [OrderRecord, CommissionRecord] => {
    const paymentIntentId = `pi_rec_${run}_${mode}_${buyers}_${i}`;
    const ids = paymentOrderIds(paymentIntentId);
    const memberId = `rec-member-${run}-${mode}-${buyers}`;
    const createdAt = new Date().toISOString();
    const order: OrderRecord = {
      id: ids.id,
      orderID: ids.orderID,
      qty: 1,
      product_id: 'rec-product',
      product_name: 'The viral lamp',
      brand: 'Lumo',
      product_image: 'https://img.bench.test/viral.jpg',
      spu_no: 'VIRAL-1',
      product_url: 'https://supplier.bench.test/viral',
      unitCents: 2999,
      totalCents: 2999,
      customer: {
        name: `Buyer ${i}`,
        email: `buyer-${i}@example.com`,
        address: { line1: `${i} Main Street`, city: 'Springfield', state: 'IL', postal_code: '62701' },
      },
      memberId,
      memberEmail: `${memberId}@example.com`,
      source: 'checkout',
      paymentIntentId,
      commissionId: ids.commissionId,
      status: 'not_ordered',
      createdAt,
    };
    const commission: CommissionRecord = {
      id: ids.commissionId,
      memberId,
      memberEmail: order.memberEmail!,
      orderId: order.id,
      orderID: order.orderID,
      product_id: order.product_id,
      product_name: order.product_name,
      amountCents: commissionCents(order.unitCents, 1),
      status: 'order_open',
      transferId: null,
      payoutId: null,
      payoutFailure: null,
      createdAt,
      updatedAt: createdAt,
    };
    return [order, commission];
  };

  /** SALES_PER_RUN sales, `buyers` in flight; recorded per second and failures. */
  async function measure(mode: 'recorder' | 'plain', buyers: number, count = SALES_PER_RUN) {
    let next = 0;
    let failures = 0;
    const errors = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: buyers }, async () => {
        // Each buyer stands for a Lambda container: the rules it keeps by version are its own.
        const saleRules = saleRulesOf(dynamoRules);
        while (next < count) {
          const [order, commission] = sale(count === SALES_PER_RUN ? mode : `warm-${mode}`, buyers, next++);
          try {
            if (mode === 'recorder') {
              // The rule lookup a sale makes (orders/record-sale.ts: the programme's version read,
              // the programme only when this container holds another version's, then the pick, the
              // member's groups read when a group rule could decide): in the recorder's path, not
              // the plain one's.
              const ruleOf = await saleRules.inForce();
              const rule = await ruleOf(commission.memberId, order.product_id, order.brand);
              await recordSale(order, {
                ...commission,
                amountCents: ruleCommissionCents(rule, order.unitCents, order.qty),
                rule: ruleUsed(rule),
              });
            } else await db().send(new TransactWriteCommand({ TransactItems: saleTransaction(order, commission, 0) }));
          } catch (error) {
            failures++;
            const name = error instanceof Error ? error.name : String(error);
            errors.set(name, (errors.get(name) ?? 0) + 1);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: (count - failures) / seconds, failures, errors, seconds };
  }

  const lines: string[] = [];
  const rows: string[][] = [];
  let ok = true;
  const before = await dynamoSales.orderCounts();
  let recorded = 0;
  // Untimed: both ways once, so neither timed cell pays for the JVM's and the SDK's first calls.
  const warm = await Promise.all([measure('plain', 10, 200), measure('recorder', 10, 200)]);
  recorded += 400 - warm[0].failures - warm[1].failures;
  await places.idle();
  for (const buyers of BUYERS) {
    // Plain first, then the recorder, each on its own member (a warm engine for both); each cell
    // starts once the places function has caught up with the one before.
    const plain = await measure('plain', buyers);
    await places.idle();
    const ours = await measure('recorder', buyers);
    const lagStarted = performance.now();
    await places.idle();
    const lagMs = performance.now() - lagStarted;
    recorded += SALES_PER_RUN * 2 - plain.failures - ours.failures;
    const ratio = ours.perSecond / plain.perSecond;
    if (ours.failures > 0 || ratio < 0.8) ok = false;
    const earned = await dynamoCommissionStore.earnings(`rec-member-${run}-recorder-${buyers}`);
    const ranked = (await dynamoCommissionStore.topEarners(undefined, 500)).items.find(
      (earner) => earner.memberId === `rec-member-${run}-recorder-${buyers}`,
    );
    const exact = earned?.count === SALES_PER_RUN - ours.failures && ranked?.count === earned?.count;
    if (!exact) ok = false;
    rows.push([
      String(buyers),
      plain.perSecond.toFixed(0),
      String(plain.failures),
      ours.perSecond.toFixed(0),
      String(ours.failures),
      ratio.toFixed(2),
      (lagMs / 1000).toFixed(1),
      exact ? 'yes' : 'NO',
    ]);
    for (const [name, count] of [...plain.errors].map(([n, c]) => [`plain ${n}`, c] as const)) {
      lines.push(`  ${name}: ${count}`);
    }
    for (const [name, count] of ours.errors) lines.push(`  recorder ${name}: ${count}`);
  }
  await places.stop();
  const after = await dynamoSales.orderCounts();
  const countsAgree = after.all - before.all === recorded;
  if (!countsAgree) ok = false;
  return {
    ok,
    lines: [
      ...formatTable(
        [
          'buyers at once',
          'plain TransactWrite, sales/s',
          'failures',
          'recorder, sales/s',
          'failures',
          'ratio (goal >= 0.80)',
          'place written, s after the last sale',
          'earnings and place exact',
        ],
        rows,
        ['right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
      ),
      ...lines,
      `${SALES_PER_RUN.toLocaleString('en-US')} paid checkouts of one product through one member's link per cell; the order counters moved by ${after.all - before.all} for ${recorded} sales recorded (${countsAgree ? 'agree' : 'DO NOT AGREE'}).`,
      '',
    ],
  };
}

/**
 * The places function behind the local stream mapping (infra/local/stream-events.ts) on the bench's
 * table, with the mapping's settings as the synthesized stack sets them (its filter, batch size,
 * partial failures), from the stream's latest record on: the seeding's places are written by the
 * seeding.
 */
async function startPlaces() {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBStreamsClient } = await import('@aws-sdk/client-dynamodb-streams');
  const { localAws, tableStreamArn } = await import('../../infra/local/dynamo');
  const { mappingSettings, pollStream } = await import('../../infra/local/stream-events');
  const { TEST_TEMPLATE_CACHE, localContexts, synthesizeTemplates, templateFunctions, withTrigger } =
    await import('../../infra/local/template');
  const { handler } = await import('../../functions/src/handlers/streams/refresh-places');
  const { templates } = await synthesizeTemplates({ cacheDir: TEST_TEMPLATE_CACHE, contexts: localContexts() });
  const mapping = withTrigger(templateFunctions(templates), 'dynamodb').find(({ fn }) => fn.name === 'refreshPlaces');
  if (!mapping) throw new Error('The synthesized stack maps no table stream to refreshPlaces');
  const endpoint = process.env.DYNAMODB_ENDPOINT!;
  const client = new DynamoDBClient({ ...localAws, endpoint });
  const streamArn = await tableStreamArn(client, process.env.TABLE_NAME!);
  client.destroy();
  return pollStream({
    streams: new DynamoDBStreamsClient({ ...localAws, endpoint }),
    streamArn,
    handler,
    ...mappingSettings(mapping.trigger),
    startingPosition: 'LATEST',
    log: (line) => console.error(`places: ${line}`),
  });
}

/**
 * A programme of 50 rules (product rules for other products, a group's rule, and a brand rule for
 * the bench's brand, which outranks the group's: the sale reads no groups), once per table.
 */
async function benchProgramme(store: import('../../functions/src/rules/rule-store').RuleStore): Promise<void> {
  let programme = await store.programme();
  if (programme.rules.some((rule) => rule.scope === 'brand' && rule.value === 'Lumo')) return;
  const createdAt = new Date().toISOString();
  const audit = {
    id: 'bench',
    at: createdAt,
    whoId: 'bench',
    whoEmail: 'bench@example.com',
    action: 'Rule created',
    before: null,
    after: 'bench rules',
  };
  const group = { id: 'bench-group', name: 'Bench sellers', memberCount: 0, createdAt };
  if (!(await store.createGroup(programme.version, group, { ...audit, id: 'bench-group' })))
    throw new Error('the bench group could not be made');
  programme = await store.programme();
  const rules = [
    ...programme.rules,
    {
      id: 'bench-group-rule',
      scope: 'group' as const,
      value: group.id,
      rate: { kind: 'percent' as const, basisPoints: 1100 },
      createdAt,
    },
    ...Array.from({ length: 48 }, (_, index) => ({
      id: `bench-product-${index}`,
      scope: 'product' as const,
      value: `bench-other-product-${index}`,
      rate: { kind: 'percent' as const, basisPoints: 1500 },
      createdAt,
    })),
    {
      id: 'bench-brand',
      scope: 'brand' as const,
      value: 'Lumo',
      rate: { kind: 'percent' as const, basisPoints: 1250 },
      createdAt,
    },
  ];
  if (!(await store.saveRules(programme.version, rules, audit)))
    throw new Error('the bench programme could not be saved');
}
