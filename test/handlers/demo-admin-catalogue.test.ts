import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { upgradeCatalogueKeys } from '../../functions/src/adapters/products/dynamo-products';
import { handler as getAdminSummary } from '../../functions/src/handlers/get-admin-summary';
import { handler as getCatalogueProducts } from '../../functions/src/handlers/get-catalogue-products';
import { seedDemoCatalogueMoves } from '../../infra/local/demo-admin-catalogue';
import { seedDemoCatalogue } from '../../infra/local/demo-catalogue';
import { productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { keys } from '../../shared/src/db/table';
import { auth, s3Events, tokenFor } from './catalogue-helpers';
import { call } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'portal-demo-moves-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const admin = await tokenFor(true);

async function all(list: string): Promise<{ id: string; status: string }[]> {
  const result = await call(getCatalogueProducts, { body: { list, limit: 100 }, headers: auth(admin) });
  expect(result.status).toBe(200);
  return result.body.items as { id: string; status: string }[];
}

describe('the demo catalogue lists', () => {
  it('seeds approved, banned and one withdrawn product once, and the home has products to review', async () => {
    await seedDemoCatalogue({
      origin: 'http://localhost:3000',
      imagesDir: join(dir, 'images'),
      afterUpload: () => s3Events.idle(),
    });
    // A data folder where an admin already banned one of them by hand: the seed leaves it so.
    const { dynamoProducts } = await import('../../functions/src/adapters/products/dynamo-products');
    expect((await dynamoProducts.move(productIdFromSpuNo('DEMO-030'), 'ban', new Date().toISOString())).outcome).toBe(
      'done',
    );
    expect(await seedDemoCatalogueMoves()).toBe(true);
    expect(await seedDemoCatalogueMoves()).toBe(false);

    expect(await all('approved')).toHaveLength(29);
    expect((await all('banned')).map((product) => product.id).sort()).toEqual(
      [productIdFromSpuNo('DEMO-030'), productIdFromSpuNo('DEMO-036')].sort(),
    );
    expect(await all('withdrawn')).toEqual([expect.objectContaining({ id: productIdFromSpuNo('DEMO-033') })]);
    const summary = await call(getAdminSummary, { body: {}, headers: auth(admin) });
    expect(summary.body.productsInReview).toEqual({ count: 5, atLeast: false });
  });

  it('gives products stored before the lists their keys, once', async () => {
    const id = productIdFromSpuNo('DEMO-002');
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.product(id), UpdateExpression: 'REMOVE gsi3pk, gsi3sk' }),
    );
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.catalogueKeysUpgrade() }));
    expect((await all('approved')).map((product) => product.id)).not.toContain(id);
    expect(await upgradeCatalogueKeys()).toBe(1);
    expect((await all('approved')).map((product) => product.id)).toContain(id);
    expect(await upgradeCatalogueKeys()).toBe(0);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.product(id) }));
    expect(item.Item).toMatchObject({ gsi3pk: 'PRODUCTS#CATALOGUE#approved' });
  });
});
