import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Shipment } from '@portal/shared/api/order-page';
import { carrierName } from '@portal/shared/api/carriers';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoOrderLinks } from '../../functions/src/adapters/orders/dynamo-order-links';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { hashOrderToken, ORDER_PAGE_PATH } from '../../functions/src/orders/order-links';

/**
 * The demo of the customer's order page, seeded once per data folder after the demo sales: the
 * shipped demo orders get a carrier and a tracking number (one of each carrier the portal knows,
 * and one "Other"), as an admin marking them shipped would have given, and the newest gets an
 * order page link, printed at every start (`npm start`). The admin sees the tracking on those
 * orders' cards ("Not fulfilled yet").
 *
 * The link's token is kept in the demo marker so that every start can print it: that is the demo's
 * convenience only. The portal itself keeps only a token's hash (orders/order-links.ts).
 */
export const DEMO_ORDER_PAGE_MARKER = { pk: 'DEMO#orderpage', sk: 'DEMO' };

export const DEMO_SHIPMENTS: readonly Shipment[] = [
  { carrier: 'ups', carrierName: null, trackingNumber: '1Z999AA10123456784' },
  { carrier: 'usps', carrierName: null, trackingNumber: '9400100000000000000000' },
  { carrier: 'fedex', carrierName: null, trackingNumber: '123456789012' },
  { carrier: 'dhl', carrierName: null, trackingNumber: '1234567890' },
  { carrier: 'other', carrierName: 'Speedy Couriers', trackingNumber: 'SPD-2026-0042' },
];

export type DemoOrderPage =
  { seeded: boolean; orderID: string; carrier: string; path: string } | { seeded: false; reason: 'no-shipped-order' };

/** Seeds the shipments and the link once; later starts answer the same link. */
export async function seedDemoOrderPage(now: () => number = () => Date.now()): Promise<DemoOrderPage> {
  const marker = (
    await db().send(new GetCommand({ TableName: tableName(), Key: DEMO_ORDER_PAGE_MARKER, ConsistentRead: true }))
  ).Item;
  if (marker && typeof marker.token === 'string') {
    return {
      seeded: false,
      orderID: String(marker.orderID),
      carrier: String(marker.carrier),
      path: `${ORDER_PAGE_PATH}#${marker.token}`,
    };
  }
  // The shipped orders waiting for fulfilment, newest first.
  const shipped = (await dynamoSales.ordersPage('not_fulfilled', undefined, DEMO_SHIPMENTS.length)).items;
  if (shipped.length === 0) return { seeded: false, reason: 'no-shipped-order' };
  for (const [index, order] of shipped.entries()) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `ORDER#${order.id}`, sk: 'ORDER' },
          UpdateExpression: 'SET shipment = :shipment',
          // Only an order still shipped, and without a shipment of its own.
          ConditionExpression: '#status = :shipped AND attribute_not_exists(shipment)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':shipment': DEMO_SHIPMENTS[index]!, ':shipped': 'shipped' },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
  const first = shipped[0]!;
  const token = randomBytes(32).toString('base64url');
  await dynamoOrderLinks.save(hashOrderToken(token), first.id, new Date(now()).toISOString());
  const carrier = carrierName(DEMO_SHIPMENTS[0]!.carrier);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_ORDER_PAGE_MARKER, entity: 'DemoMarker', token, orderID: first.orderID, carrier },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    // Another start seeded it at the same moment: answer its link.
    if (!isConditionFailed(error)) throw error;
    return seedDemoOrderPage(now);
  }
  return { seeded: true, orderID: first.orderID, carrier, path: `${ORDER_PAGE_PATH}#${token}` };
}

/** The start's line about it, or null. */
export function describeDemoOrderPage(result: DemoOrderPage, origin: string): string | null {
  if (!('path' in result)) return null;
  return `Demo order page (order ${result.orderID}, shipped by ${result.carrier}): ${origin}${result.path}`;
}
