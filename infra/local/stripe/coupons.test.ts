import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeEmulator, type Exchange, type StripeEmulator } from './index';
import { loadStripeOpenApi } from './openapi';
import { sdk, caught, openApiProblems } from './testing';

/** Coupons and promotion codes through the real SDK, each exchange checked against Stripe's OpenAPI document. */
let dataDir: string;
let emulator: StripeEmulator;
let stripe: Stripe;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stripe-coupons-'));
  emulator = await startStripeEmulator({
    dataDir,
    log: () => undefined,
    platformPayouts: 'manual',
    onExchange: (exchange) => void exchanges.push(exchange),
  });
  stripe = sdk(emulator.port, emulator.secretKey);
});

afterAll(async () => {
  await emulator.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const nowSeconds = () => Math.floor(emulator.clock.now() / 1000);

describe('coupons', () => {
  it('makes a percent-off and an amount-off coupon, retrieves and lists them newest first', async () => {
    const percent = await stripe.coupons.create({ percent_off: 10, duration: 'once', name: 'Members 10 %' });
    expect(percent).toMatchObject({ object: 'coupon', percent_off: 10, amount_off: null, currency: null, valid: true });
    const amount = await stripe.coupons.create({ amount_off: 500, currency: 'USD', duration: 'once' });
    expect(amount).toMatchObject({ amount_off: 500, currency: 'usd', percent_off: null, times_redeemed: 0 });
    expect((await stripe.coupons.retrieve(percent.id)).name).toBe('Members 10 %');
    const listed = await stripe.coupons.list({ limit: 2 });
    expect(listed.data.map((coupon) => coupon.id)).toEqual([amount.id, percent.id]);
  });

  it('refuses a coupon without a discount, with both, an amount without a currency, or a percent over 100', async () => {
    const none = await caught(stripe.coupons.create({ duration: 'once' }));
    expect(none.statusCode).toBe(400);
    expect(none.message).toBe('You must pass either percent_off or amount_off.');
    const both = await caught(stripe.coupons.create({ percent_off: 10, amount_off: 100, currency: 'usd' }));
    expect(both.param).toBe('amount_off');
    const noCurrency = await caught(stripe.coupons.create({ amount_off: 100 }));
    expect(noCurrency.message).toBe('Missing required param: currency.');
    expect(noCurrency.param).toBe('currency');
    const over = await caught(stripe.coupons.create({ percent_off: 101 }));
    expect(over.param).toBe('percent_off');
    const past = await caught(stripe.coupons.create({ percent_off: 5, redeem_by: nowSeconds() - 10 }));
    expect(past.param).toBe('redeem_by');
  });

  it('refuses a second coupon with an id in use, and forgets a deleted one', async () => {
    await stripe.coupons.create({ id: 'DANA_COUPON', percent_off: 15 });
    const again = await caught(stripe.coupons.create({ id: 'DANA_COUPON', percent_off: 15 }));
    expect(again.code).toBe('resource_already_exists');
    expect(again.message).toBe('Coupon already exists.');
    expect(await stripe.coupons.del('DANA_COUPON')).toEqual({ id: 'DANA_COUPON', object: 'coupon', deleted: true });
    const gone = await caught(stripe.coupons.retrieve('DANA_COUPON'));
    expect(gone.statusCode).toBe(404);
    expect(gone.message).toBe("No such coupon: 'DANA_COUPON'");
  });

  it('changes only a coupon’s name and metadata', async () => {
    const coupon = await stripe.coupons.create({ percent_off: 20 });
    const renamed = await stripe.coupons.update(coupon.id, { name: 'Spring', metadata: { by: 'admin' } });
    expect(renamed).toMatchObject({ name: 'Spring', metadata: { by: 'admin' }, percent_off: 20 });
    const refused = await caught(stripe.coupons.update(coupon.id, { percent_off: 30 } as Stripe.CouponUpdateParams));
    expect(refused.code).toBe('parameter_unknown');
  });
});

describe('promotion codes', () => {
  it('makes a member’s code under a coupon, as the SDK names the coupon (promotion.coupon)', async () => {
    const coupon = await stripe.coupons.create({ percent_off: 10 });
    const code = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'DANA10',
      max_redemptions: 3,
      expires_at: nowSeconds() + 86_400,
      metadata: { member_id: 'u1' },
    });
    expect(code).toMatchObject({
      object: 'promotion_code',
      code: 'DANA10',
      active: true,
      max_redemptions: 3,
      times_redeemed: 0,
      promotion: { type: 'coupon', coupon: coupon.id },
      metadata: { member_id: 'u1' },
    });
    expect((await stripe.promotionCodes.list({ code: 'DANA10' })).data.map((found) => found.id)).toEqual([code.id]);
    expect((await stripe.promotionCodes.retrieve(code.id)).code).toBe('DANA10');
  });

  it('refuses the old top-level coupon, a missing or unknown coupon, and a code with other characters', async () => {
    const old = await caught(
      stripe.promotionCodes.create({ coupon: 'x' } as unknown as Stripe.PromotionCodeCreateParams),
    );
    expect(old.code).toBe('parameter_unknown');
    expect(old.message).toBe('Received unknown parameter: coupon');
    const missingCoupon = await caught(stripe.promotionCodes.create({ promotion: { type: 'coupon' } }));
    expect(missingCoupon.message).toBe('Missing required param: promotion[coupon].');
    const unknown = await caught(stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'nope' } }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.message).toBe("No such coupon: 'nope'");
    const coupon = await stripe.coupons.create({ percent_off: 5 });
    const spaces = await caught(
      stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'DANA 10' }),
    );
    expect(spaces.param).toBe('code');
  });

  it('keeps one active code per text, whatever its case, and refuses limits beyond the coupon’s', async () => {
    const coupon = await stripe.coupons.create({ percent_off: 5, max_redemptions: 10, redeem_by: nowSeconds() + 3600 });
    await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'SAMEX' });
    const taken = await caught(
      stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'samex' }),
    );
    expect(taken.message).toBe('An active promotion code with `code: samex` already exists.');
    const tooMany = await caught(
      stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, max_redemptions: 11 }),
    );
    expect(tooMany.param).toBe('max_redemptions');
    const tooLate = await caught(
      stripe.promotionCodes.create({
        promotion: { type: 'coupon', coupon: coupon.id },
        expires_at: nowSeconds() + 7200,
      }),
    );
    expect(tooLate.param).toBe('expires_at');
  });

  it('is inactive once deactivated, once expired, or once its coupon is deleted; a deactivated code frees its text', async () => {
    const coupon = await stripe.coupons.create({ percent_off: 10 });
    const first = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'OFF1',
    });
    const off = await stripe.promotionCodes.update(first.id, { active: false });
    expect(off.active).toBe(false);
    expect((await stripe.promotionCodes.list({ code: 'OFF1', active: false })).data.map((c) => c.id)).toEqual([
      first.id,
    ]);
    const second = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'OFF1',
    });
    const clash = await caught(stripe.promotionCodes.update(first.id, { active: true }));
    expect(clash.message).toBe('An active promotion code with `code: OFF1` already exists.');

    const expiring = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      expires_at: nowSeconds() + 60,
    });
    await emulator.clock.advance(61_000);
    expect((await stripe.promotionCodes.retrieve(expiring.id)).active).toBe(false);

    await stripe.coupons.del(coupon.id);
    expect((await stripe.promotionCodes.retrieve(second.id)).active).toBe(false);
    const onDeleted = await caught(
      stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'LATE' }),
    );
    expect(onDeleted.statusCode).toBe(404);
  });

  it('answers a coupon past its redeem_by as no longer valid, and takes no promotion code under it', async () => {
    const coupon = await stripe.coupons.create({ amount_off: 200, currency: 'usd', redeem_by: nowSeconds() + 30 });
    await emulator.clock.advance(31_000);
    expect((await stripe.coupons.retrieve(coupon.id)).valid).toBe(false);
    const refused = await caught(stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id } }));
    expect(refused.statusCode).toBe(400);
    expect(refused.param).toBe('promotion[coupon]');
  });
});

describe('conformance to Stripe’s OpenAPI document', () => {
  it('served every answer in the documented shape (the SDK’s promotion in place of coupon)', () => {
    const openApi = loadStripeOpenApi();
    const calls = new Set(
      exchanges.map(
        (exchange) =>
          `${exchange.method} ${exchange.path.replace(/^(\/v1\/(?:coupons|promotion_codes))\/[A-Za-z0-9_]+$/, '$1/{id}')}`,
      ),
    );
    expect([...calls]).toEqual(
      expect.arrayContaining([
        'POST /v1/coupons',
        'GET /v1/coupons',
        'GET /v1/coupons/{id}',
        'POST /v1/coupons/{id}',
        'DELETE /v1/coupons/{id}',
        'POST /v1/promotion_codes',
        'GET /v1/promotion_codes',
        'GET /v1/promotion_codes/{id}',
        'POST /v1/promotion_codes/{id}',
      ]),
    );
    const problems = openApiProblems(openApi, exchanges);
    expect(problems).toEqual([]);
  }, 60_000);
});
