import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import type { ProductAction } from '../../shared/src/domain/product-status';

const MARKER = { pk: 'DEMO#catalogue-moves', sk: 'DEMO' };

/**
 * The admin's catalogue lists in the demo: two products of the review list banned and one
 * approved product withdrawn from members, as an admin would (the transition table's moves),
 * once per data folder, after the demo catalogue.
 */
export const DEMO_MOVES: readonly { spu: string; action: ProductAction }[] = [
  { spu: 'DEMO-030', action: 'ban' },
  { spu: 'DEMO-036', action: 'ban' },
  { spu: 'DEMO-033', action: 'withdraw' },
];

export async function seedDemoCatalogueMoves(now: () => Date = () => new Date()): Promise<boolean> {
  const marker = await db().send(new GetCommand({ TableName: tableName(), Key: MARKER, ConsistentRead: true }));
  if (marker.Item) return false;
  for (const { spu, action } of DEMO_MOVES) {
    // A data folder seeded before these moves existed may hold the product moved by hand since:
    // the move then does not apply (a 409's outcome) and that product is left as the admin left it.
    await dynamoProducts.move(productIdFromSpuNo(spu), action, now().toISOString());
  }
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...MARKER, entity: 'DemoSeed', seededAt: now().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return true;
}
