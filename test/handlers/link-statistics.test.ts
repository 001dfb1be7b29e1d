import { afterEach, describe, expect, it } from 'vitest';
import { clock } from '../../functions/src/config/clock';
import { handler as countVisit } from '../../functions/src/handlers/count-visit';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as getMyLinkStatistics } from '../../functions/src/handlers/get-my-link-statistics';
import { handler as getLinkStatistics } from '../../functions/src/handlers/get-link-statistics';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { allItems, auth, call, tokenFor } from './helpers';
import { customer, deliver, itemsOf, member, product, stripeAtEmulator, succeededEvent } from './sales-helpers';

/**
 * Link statistics (issue 39, docs/link-statistics.md): a share page's visit counted once per visitor,
 * link and hour without storing who visited, bots left out, and the visit carried through the
 * checkout into the payment's metadata and the sale.
 */

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Today (UTC) at 10:15 and 11:15: two hours of one day, whatever the time the test runs. */
const today = new Date().toISOString().slice(0, 10);
const TEN = Date.parse(`${today}T10:15:00Z`);
const ELEVEN = TEN + 3600_000;

const real = clock.now;
afterEach(() => {
  clock.now = real;
});

/**
 * A visit through countVisit. Its deadline is long: here a thousand invocations share one process's
 * 50 DynamoDB sockets and two cores (in Lambda each has its own), so under a loaded CI run the last
 * of a thousand waits past the usual 60 s (middy's early timeout answered them 500).
 */
const visit = (productId: string, ref: string | undefined, sourceIp: string, userAgent = BROWSER) =>
  call(countVisit, {
    body: { id: productId, ...(ref ? { ref } : {}) },
    sourceIp,
    headers: { 'user-agent': userAgent },
    deadlineMs: 600_000,
  });

/** Address number n of 10.x.y.z (a private range: no real person's). */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

type Stats = {
  days: string[];
  total: Record<string, number[]>;
  products: { productId: string; counts: Record<string, number[]> }[];
};
const lastDay = (counts: Record<string, number[]>, name: string) => counts[name]![counts[name]!.length - 1];

describe('/api/countVisit', () => {
  it('counts 1,000 concurrent visitors once each in an hour (each again at once within it), and again in the next hour', async () => {
    const id = await product(2500);
    const seller = await member();
    clock.now = () => TEN;
    // 1,000 visitors at the same moment: 1,000 requests at once, each counted.
    const first = await Promise.all(Array.from({ length: 1000 }, (_, n) => visit(id, seller.shareCode, address(n))));
    expect(first.filter((result) => result.status !== 200).map((result) => [result.status, result.body])).toEqual([]);
    expect(first.filter((result) => result.body.counted === true)).toHaveLength(1000);
    expect(new Set(first.map((result) => result.body.visitId)).size).toBe(1000);
    // Each comes back within the hour (a reload), all at once again: the same visit ids, none counted.
    const reloads = await Promise.all(Array.from({ length: 1000 }, (_, n) => visit(id, seller.shareCode, address(n))));
    expect(reloads.filter((result) => result.status !== 200).map((result) => [result.status, result.body])).toEqual([]);
    expect(reloads.filter((result) => result.body.counted === true)).toHaveLength(0);
    expect(reloads.map((result) => result.body.visitId)).toEqual(first.map((result) => result.body.visitId));

    // The next hour, the first 100 come back, each asking twice at the same moment: counted again, once each.
    clock.now = () => ELEVEN;
    const again = await Promise.all(
      Array.from({ length: 200 }, (_, n) => visit(id, seller.shareCode, address(n % 100))),
    );
    expect(again.filter((result) => result.body.counted === true)).toHaveLength(100);

    const mine = await call(getMyLinkStatistics, { body: {}, headers: auth(seller.token) });
    expect(mine.status).toBe(200);
    const stats = mine.body as unknown as Stats;
    expect(stats.days).toHaveLength(90);
    expect(stats.days.at(-1)).toBe(today);
    expect(lastDay(stats.total, 'visits')).toBe(1100);
    expect(stats.products.map((item) => [item.productId, lastDay(item.counts, 'visits')])).toEqual([[id, 1100]]);
    const admin = await tokenFor(true);
    const ofProduct = await call(getLinkStatistics, { body: { productId: id }, headers: auth(admin) });
    expect(lastDay((ofProduct.body as unknown as Stats).total, 'visits')).toBe(1100);

    // No item is written by every visit: the product's counts of the day are spread over its shards.
    const shards = (await allItems()).filter((item) => String(item.pk).startsWith(`STATS#PRODUCT#${id}#`));
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.reduce((sum, item) => sum + Number(item.visits ?? 0), 0)).toBe(1100);
  }, 300_000);

  it('stores no address or user agent: only the salted hash, the link and the hour', async () => {
    const id = await product(1500);
    const agent = `${BROWSER} Unique/${Date.now()}`;
    const ip = '203.0.113.77';
    const result = await visit(id, undefined, ip, agent);
    expect(result.body.counted).toBe(true);
    const stored = JSON.stringify(await allItems());
    expect(stored).not.toContain(ip);
    expect(stored).not.toContain(`Unique/`);
    expect(stored).not.toContain('iPhone');
    const [item] = await itemsOf('visit', (candidate) => candidate.productId === id);
    expect(Object.keys(item!).sort()).toEqual([
      'entity',
      'expiresAt',
      'hour',
      'memberId',
      'pk',
      'productId',
      'sk',
      'visitId',
    ]);
    // The day's salt is in the table, and expires: once it is gone no hash can be made again.
    const salts = await itemsOf('visitSalt', () => true);
    expect(salts.length).toBeGreaterThan(0);
    expect(salts.every((salt) => typeof salt.expiresAt === 'number')).toBe(true);
  });

  it('does not count bots and link previews (the isbot list), nor a request without a user agent', async () => {
    const id = await product(1800);
    const seller = await member();
    const agents = [
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'WhatsApp/2.23.20.0 A',
      'Twitterbot/1.0',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
      'curl/8.5.0',
      '',
    ];
    const before = await allItems();
    for (const [n, agent] of agents.entries()) {
      const result = await visit(id, seller.shareCode, address(5000 + n), agent);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ visitId: null, counted: false });
    }
    expect(await allItems()).toEqual(before);
    // A browser from the same address is counted.
    expect((await visit(id, seller.shareCode, address(5000))).body.counted).toBe(true);
  });

  it('tells visitors apart by CloudFront-Viewer-Address behind CloudFront, by the source address without it', async () => {
    const id = await product(2100);
    clock.now = () => TEN;
    const EDGE = '10.250.0.1';
    const from = (sourceIp: string, viewer?: string) =>
      call(countVisit, {
        body: { id },
        sourceIp,
        headers: { 'user-agent': BROWSER, ...(viewer ? { 'cloudfront-viewer-address': viewer } : {}) },
      });
    // Two viewers behind one edge address: two visitors.
    const one = await from(EDGE, '198.51.100.10:46532');
    const two = await from(EDGE, '198.51.100.11:46532');
    expect([one.body.counted, two.body.counted]).toEqual([true, true]);
    expect(one.body.visitId).not.toBe(two.body.visitId);
    // The first again, from another port through another edge: the same visitor, not counted again.
    const again = await from('10.250.0.2', '198.51.100.10:51000');
    expect(again.body).toEqual({ visitId: one.body.visitId, counted: false });
    // IPv6: the port is what follows the last colon.
    const six = await from(EDGE, '2001:db8::8a2e:370:7334:443');
    const sixAgain = await from('10.250.0.3', '2001:db8::8a2e:370:7334:8443');
    expect(six.body.counted).toBe(true);
    expect(sixAgain.body).toEqual({ visitId: six.body.visitId, counted: false });
    // Without the header (locally), or with one that names no address, the source address is the visitor.
    const local = await from('203.0.113.5');
    const garbled = await from('203.0.113.5', 'not-an-address');
    expect(local.body.counted).toBe(true);
    expect(garbled.body).toEqual({ visitId: local.body.visitId, counted: false });
  });

  it('answers a visit of an unknown or banned product as the share page does (404 in words), writing nothing', async () => {
    const seller = await member();
    const banned = await product(1900, 'banned');
    // Every item but the day's salt (made once a day by whichever visit comes first).
    const written = async () => (await allItems()).filter((item) => item.entity !== 'visitSalt');
    const before = await written();
    for (const id of [banned, 'f'.repeat(32)]) {
      for (const agent of [BROWSER, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)']) {
        const result = await visit(id, seller.shareCode, address(6000), agent);
        expect(result.status).toBe(404);
        expect(result.body.message).toBe('This product is no longer available.');
      }
    }
    expect(await written()).toEqual(before);
  });
});

describe('the visit through the checkout', () => {
  it('puts the visit id in the payment intent metadata and on the sale, counting checkout, sale and earnings once', async () => {
    const stripe = stripeAtEmulator();
    const id = await product(4000);
    const seller = await member();
    const counted = await visit(id, seller.shareCode, address(7000));
    const visitId = String(counted.body.visitId);
    expect(visitId).toMatch(/^[0-9a-f]{32}$/);

    const checkoutId = `checkout-${Date.now()}-visit-test`;
    const ask = { id, amount: 8000, qty: 2, ref: seller.shareCode, checkoutId, customer, visitId };
    const [created, twice] = await Promise.all([
      call(getPaymentIntent, { body: ask }),
      call(getPaymentIntent, { body: ask }),
    ]);
    expect(created.status).toBe(200);
    expect(twice.body).toEqual(created.body);
    const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
    expect((await stripe.paymentIntents.retrieve(intentId)).metadata).toMatchObject({
      visit_id: visitId,
      product_id: id,
    });
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });

    // The webhook and the browser both report the payment: one order, carrying the visit; counted once.
    const event = await succeededEvent(stripe, intentId);
    expect((await deliver(event)).status).toBe(200);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    const [order] = await itemsOf('order', (item) => item.paymentIntentId === intentId);
    expect(order).toMatchObject({ visitId, product_id: id, memberId: seller.id });
    const [commission] = await itemsOf('commission', (item) => item.orderId === order!.id);

    const stats = (await call(getMyLinkStatistics, { body: {}, headers: auth(seller.token) })).body as unknown as Stats;
    const day = (name: string) => lastDay(stats.total, name);
    expect([day('visits'), day('checkouts'), day('sales'), day('paid')]).toEqual([1, 1, 1, 1]);
    expect(day('salesCents')).toBe(8000);
    expect(day('earningsCents')).toBe(Number(commission!.amountCents));
    expect(day('earningsCents')).toBeGreaterThan(0);

    const admin = await tokenFor(true);
    const ofMember = await call(getLinkStatistics, { body: { memberEmail: seller.email }, headers: auth(admin) });
    expect(ofMember.status).toBe(200);
    expect((ofMember.body as unknown as Stats).products.map((item) => item.productId)).toEqual([id]);
  });

  it('leaves out a visit id that names no counted visit of this product; the checkout goes on', async () => {
    const stripe = stripeAtEmulator();
    const id = await product(1200);
    const other = await product(1300);
    const elsewhere = String((await visit(other, undefined, address(7100))).body.visitId);
    for (const visitId of ['0'.repeat(32), elsewhere]) {
      const created = await call(getPaymentIntent, { body: { id, amount: 1200, visitId } });
      expect(created.status).toBe(200);
      const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
      expect((await stripe.paymentIntents.retrieve(intentId)).metadata.visit_id).toBeUndefined();
    }
    const refused = await call(getPaymentIntent, { body: { id, amount: 1200, visitId: 'not a visit' } });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ visitId: 'A visit id is 32 hexadecimal characters' });
  });

  it("answers the admin's unknown member in words, and refuses a member the admin's call", async () => {
    const admin = await tokenFor(true);
    const unknown = await call(getLinkStatistics, {
      body: { memberEmail: 'nobody@example.com' },
      headers: auth(admin),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No member has this e-mail address.');
    const seller = await member();
    expect((await call(getLinkStatistics, { body: {}, headers: auth(seller.token) })).status).toBe(403);
  });
});
