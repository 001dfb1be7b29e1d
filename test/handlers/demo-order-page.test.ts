import { describe, expect, it } from 'vitest';
import { getProduct } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoSaleRecorder } from '../../functions/src/adapters/orders/dynamo-sale-recorder';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { handler as getOrderPage } from '../../functions/src/handlers/get-order-page';
import { markOrder } from '../../functions/src/orders/manage';
import { addOrder, type SaleDeps } from '../../functions/src/orders/record-sale';
import { describeDemoOrderPage, seedDemoOrderPage } from '../../infra/local/demo-order-page';
import { call } from './helpers';
import { customer, member, product } from './sales-helpers';

/**
 * The demo seed of the customer's order page (infra/local/demo-order-page.ts), on this file's own
 * table: the shipped orders get carriers, the newest a working link, once; later starts print the
 * same link and change nothing.
 */
describe('the demo order page seed', () => {
  it('gives the shipped orders a carrier each and the newest a link that opens its page, once', async () => {
    const seller = await member();
    const productId = await product(3000);
    const deps: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now: () => Date.now() };
    const sale = () => addOrder(deps, { product_id: productId, qty: 1, ref: seller.shareCode, customer });
    const shippedOld = (await sale()).order;
    const delivered = (await sale()).order;
    const shippedNew = (await sale()).order;
    for (const order of [shippedOld, delivered, shippedNew]) {
      await markOrder(dynamoSales, order.id, 'ordered', Date.now());
      await markOrder(dynamoSales, order.id, 'shipped', Date.now());
    }
    await markOrder(dynamoSales, delivered.id, 'fulfilled', Date.now());

    const first = await seedDemoOrderPage();
    expect(first).toMatchObject({ seeded: true, orderID: shippedNew.orderID, carrier: 'UPS' });
    const path = (first as { path: string }).path;
    expect(path).toMatch(/^\/track_order#[A-Za-z0-9_-]{43}$/);
    expect(describeDemoOrderPage(first, 'http://localhost:3000')).toBe(
      `Demo order page (order ${shippedNew.orderID}, shipped by UPS): http://localhost:3000${path}`,
    );

    const page = await call(getOrderPage, { body: { token: path.split('#')[1] }, path: '/api/getOrderPage' });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      orderID: shippedNew.orderID,
      shipment: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' },
    });
    expect((await dynamoSales.getOrder(shippedOld.id))?.shipment).toEqual({
      carrier: 'usps',
      carrierName: null,
      trackingNumber: '9400100000000000000000',
    });
    // A fulfilled order is no longer waiting: the seed leaves it as it was.
    expect((await dynamoSales.getOrder(delivered.id))?.shipment).toBeUndefined();

    const again = await seedDemoOrderPage();
    expect(again).toEqual({ ...first, seeded: false });
    expect((await dynamoSales.getOrder(shippedOld.id))?.shipment?.carrier).toBe('usps');
  });
});
