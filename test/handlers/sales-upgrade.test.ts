import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { upgradeSalesItems } from '../../functions/src/adapters/orders/dynamo-sales-upgrade';
import { availableSortKey } from '../../shared/src/db/table';
import { commissionKey, createCommission, item } from './commission-fixtures';

/**
 * The table upgrade's To Stripe part against DynamoDB Local (this file's own table): a commission
 * stored before the hold existed sits in To Stripe at `<createdAt>#<id>` with no `availableAt`, as
 * the fixture writes it; the upgrade gives it the place the list reads now.
 */
describe('upgradeSalesItems', () => {
  it('gives a fulfilled commission of before the hold its available place once, and leaves one not fulfilled', async () => {
    const memberId = randomUUID();
    const fulfilled = await createCommission({ memberId, memberEmail: 'old@example.com', amountCents: 500 });
    const open = await createCommission({
      memberId,
      memberEmail: 'old@example.com',
      amountCents: 700,
      orderFulfilled: 0,
    });
    const openBefore = await item(commissionKey(open.id));

    expect((await upgradeSalesItems()).moved).toBe(1);
    const moved = (await item(commissionKey(fulfilled.id)))!;
    expect(moved.gsi2sk).toBe(availableSortKey(Date.parse(String(moved.createdAt)), fulfilled.id));
    expect(moved.availableAt).toBeUndefined();
    expect(await item(commissionKey(open.id))).toEqual(openBefore);

    // Run again (every start and deploy runs it): nothing is moved twice.
    expect((await upgradeSalesItems()).moved).toBe(0);
    expect(await item(commissionKey(fulfilled.id))).toEqual(moved);
  });
});
