import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { handler as getHeldCommissions } from '../../functions/src/handlers/get-held-commissions';
import { DEMO_ABUSE_MARKER, describeDemoAbuse, seedDemoAbuse } from '../../infra/local/demo-abuse';
import { keys } from '../../shared/src/db/table';
import { auth, call, tokenFor } from './helpers';
import { member, product } from './sales-helpers';

/**
 * The demo seed of the abuse rules (infra/local/demo-abuse.ts), on this file's own table and the
 * shared Stripe emulator: a self-purchase paid at the emulator whose commission is held for review,
 * listed in Held for review with why, seeded once; a later start changes nothing.
 */
describe('the demo abuse seed', () => {
  it('seeds a self-purchase held for review once, shown in Held for review with why', async () => {
    const seller = await member();
    const productId = await product(4200);
    const user = (await dynamoUsers.findByEmail(seller.email))!;
    const options = {
      memberEmail: user.email,
      stripeApiUrl: inject('stripeApiUrl'),
      stripeSecretKey: process.env.STRIPE_SECRET_KEY!,
      productId,
    };
    expect(await seedDemoAbuse({ ...options, memberEmail: 'nobody@example.com' })).toEqual({
      seeded: false,
      reason: 'no-member',
    });
    const first = await seedDemoAbuse(options);
    expect(first).toMatchObject({ seeded: true, status: 'review' });
    expect(describeDemoAbuse(first)).toMatch(/^Seeded a self-purchase \(order RP-[0-9A-Z]{8}\)/);
    const { commissionId } = first as { commissionId: string };
    const stored = (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.commission(commissionId), ConsistentRead: true }),
      )
    ).Item;
    expect(stored).toMatchObject({
      memberId: seller.id,
      status: 'review',
      heldFor: 'self_purchase',
      amountCents: 420,
      statusReason: 'Bought through own link (same e-mail)',
    });
    const admin = await tokenFor(true);
    const held = await call(getHeldCommissions, { body: { limit: 500 }, headers: auth(admin) });
    expect(held.body.items).toContainEqual(
      expect.objectContaining({ id: commissionId, reviewable: true, status: 'review' }),
    );

    const again = await seedDemoAbuse(options);
    expect(again).toEqual({ ...first, seeded: false });
    expect(describeDemoAbuse(again)).toBeNull();
    const marker = (
      await db().send(new GetCommand({ TableName: tableName(), Key: DEMO_ABUSE_MARKER, ConsistentRead: true }))
    ).Item;
    expect(marker).toMatchObject({ commissionId });
  });
});
