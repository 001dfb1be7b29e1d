import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { handler as ban } from '../../functions/src/handlers/ban-product';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { handler as getImportedProduct } from '../../functions/src/handlers/get-imported-product';
import { handler as getUnApproved } from '../../functions/src/handlers/get-unapproved-products';
import { routes } from '../../functions/src/routes';
import { demoProducts, seedDemoCatalogue, UPDATED_SPU } from '../../infra/local/demo-catalogue';
import { createPortalServer } from '../../infra/local/server';
import { loadHandler } from '../../infra/local/start';
import { auth, s3Events, tokenFor } from './catalogue-helpers';
import { allItems, call } from './helpers';

/** The demo catalogue npm start seeds: through the import's S3 event path, once, with pictures the portal serves. */

const ORIGIN = 'http://localhost:3000';
let dir = '';
let admin = '';
let member = '';
/** Waits for the S3 server's event for the new object to be handled by the import, as npm start does. */
const afterUpload = () => s3Events.idle();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-demo-'));
  [admin, member] = await Promise.all([tokenFor(true), tokenFor(false)]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function everything<T>(handler: typeof getApprovedProducts, token: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(handler, { body: { limit: 100, ...(cursor ? { cursor } : {}) }, headers: auth(token) });
    items.push(...(page.body.items as T[]));
    cursor = (page.body.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}

describe('demo catalogue', () => {
  it('seeds 36 products with pictures once: most approved, some in review, one approved product with new prices', async () => {
    expect(await seedDemoCatalogue({ origin: ORIGIN, imagesDir: join(dir, 'images'), afterUpload })).toEqual({
      seeded: true,
    });
    const jobs = (await allItems()).filter((item) => item.entity === 'ImportJob');
    expect(jobs.map((job) => [job.fileName, job.status, job.created, job.updated, job.rejected, job.warnings])).toEqual(
      expect.arrayContaining([
        ['demo-catalogue.csv', 'completed', 36, 0, 0, 0],
        ['demo-price-update.csv', 'completed', 0, 1, 0, 0],
      ]),
    );

    const approved = await everything<{ id: string; image: string }>(getApprovedProducts, member);
    const inReview = await everything<{ id: string; hasApprovedVersion: boolean }>(getUnApproved, admin);
    expect(approved).toHaveLength(30);
    expect(inReview).toHaveLength(7);
    expect(inReview.filter((product) => product.hasApprovedVersion).map((product) => product.id)).toEqual([
      productIdFromSpuNo(UPDATED_SPU),
    ]);
    const update = await call(getImportedProduct, {
      body: { id: productIdFromSpuNo(UPDATED_SPU) },
      headers: auth(admin),
    });
    expect(update.body.changes).toEqual([
      { field: 'msrp_us', before: '17.99', after: '22.99' },
      { field: 'dropshipping_price_us', before: '9.89', after: '13.39' },
    ]);
    expect(update.body.images).toHaveLength(4);
    expect(update.body.images).toEqual([1, 2, 3, 4].map((view) => `${ORIGIN}/demo-images/travel-mug-mini-${view}.svg`));
    // Every card has a picture of its own, served by the portal.
    expect(new Set(approved.map((product) => product.image)).size).toBe(30);
    for (const product of approved)
      expect(product.image).toMatch(/^http:\/\/localhost:3000\/demo-images\/[a-z0-9-]+-1\.svg$/);
    expect(readdirSync(join(dir, 'images'))).toHaveLength(36 * 4);
  });

  it('a second start changes nothing: no import, and what an admin decided stays decided', async () => {
    const waiting = demoProducts().find((product) => product.inReview)!;
    const id = productIdFromSpuNo(waiting.spu_no);
    expect((await call(ban, { body: { id }, headers: auth(admin) })).status).toBe(200);
    const before = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');

    expect(
      await seedDemoCatalogue({ origin: 'http://localhost:4000', imagesDir: join(dir, 'images'), afterUpload }),
    ).toEqual({
      seeded: false,
      origin: ORIGIN,
      hosted: false,
    });
    const after = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(after).toEqual(before);
    expect(await dynamoProducts.get(id)).toMatchObject({ status: 'banned' });
  });

  it('the local server serves the pictures as SVG, 800 x 800, cached, and nothing outside their folder', async () => {
    const images = join(dir, 'images');
    writeFileSync(join(dir, 'secret.svg'), '<svg>secret</svg>');
    const server = createPortalServer({
      routes,
      loadHandler,
      memberDist: join(dir, 'none'),
      adminDist: join(dir, 'none'),
      demoImagesDir: images,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const response = await fetch(`${base}/demo-images/travel-mug-mini-2.svg`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const svg = await response.text();
      expect(svg).toBe(readFileSync(join(images, 'travel-mug-mini-2.svg'), 'utf8'));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="800"/);
      expect(svg).toContain('Travel Mug Mini');
      expect(svg).not.toMatch(/<script|on\w+=/i);
      for (const path of ['/demo-images/..%2fsecret.svg', '/demo-images/../secret.svg', '/demo-images/missing-1.svg']) {
        const refused = await fetch(`${base}${path}`);
        expect(refused.status).toBe(404);
        expect(await refused.text()).not.toContain('secret');
      }
    } finally {
      server.close();
    }
  });
});
