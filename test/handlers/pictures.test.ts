import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { CSV_COLUMNS, productIdFromSpuNo, type CsvColumn } from '../../shared/src/domain/csv-product';
import { hostedPicturePath, pictureKeys } from '../../shared/src/domain/pictures';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getImportJob } from '../../functions/src/handlers/get-import-job';
import { handler as getRejected } from '../../functions/src/handlers/get-rejected-rows-csv';
import { handler as getImportedProduct } from '../../functions/src/handlers/get-imported-product';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { routes } from '../../functions/src/routes';
import { seedDemoCatalogue } from '../../infra/local/demo-catalogue';
import { startImageServer } from '../../infra/local/image-server';
import { createPortalServer } from '../../infra/local/server';
import { loadHandler } from '../../infra/local/start';
import { LOCAL_IMAGES_BUCKET } from '../../infra/local/s3';
import { localAws } from '../../infra/local/dynamo';
import { createPictureQueues, pollQueue } from '../../infra/local/sqs-events';
import { handler as hostPictures } from '../../functions/src/handlers/sqs/host-pictures';
import { PICTURE_MAX_RECEIVES } from '../../functions/src/routes';
import { auth, importCsv, s3Events, tokenFor } from './catalogue-helpers';
import { allItems, asFunction, call } from './helpers';

/**
 * Pictures we host (issue 28), on the real engines: the import fetches each picture from a
 * supplier's host (here the test image server on 127.0.0.1, allowed by configuration as npm start
 * allows it), keeps the original and WebP variants in the images bucket of the S3 server, and
 * stores our copies on the product; a picture that fails is a warning, never a failed row.
 */

const dir = mkdtempSync(join(tmpdir(), 'portal-pictures-'));
const wide = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
  .jpeg()
  .toBuffer();
const narrow = await sharp({ create: { width: 200, height: 100, channels: 4, background: '#cc3366' } })
  .png()
  .toBuffer();
// 8 000 × 6 000 = 48 megapixels, in a small PNG: refused from its header, before its pixels are decoded.
const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' } })
  .png({ compressionLevel: 9 })
  .toBuffer();
writeFileSync(join(dir, 'wide.jpg'), wide);
writeFileSync(join(dir, 'narrow.png'), narrow);
writeFileSync(join(dir, 'huge.png'), huge);
// Named as a picture, but not one: the type is checked by decoding, whatever the name says.
writeFileSync(join(dir, 'fake.jpg'), 'this is not a picture');
const images = await startImageServer({ dir });
/** The demo's photos, on a test image server of their own (as npm start runs one). */
const demoDir = join(dir, 'demo');
const demoImages = await startImageServer({ dir: demoDir });

/** A second host on 127.0.0.1 that the configuration does not name: it must never be reached. */
let reached = 0;
const other: Server = createServer((request, response) => {
  reached += 1;
  if (request.url === '/page.jpg') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html></html>');
  } else {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.end(wide);
  }
});
await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;

/** A host that answers HTML with a 200: allowed, and refused for its type. */
const pages: Server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<html>not a picture</html>');
});
await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
const pagesOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

/** The picture queue and the picture function behind it (issue 38), as npm start runs them. */
const sqs = new SQSClient({ ...localAws, endpoint: inject('sqsEndpoint') });
const queue = await createPictureQueues(sqs, {
  prefix: `pictures-${Date.now().toString(36)}`,
  visibilitySeconds: 120,
  maxReceiveCount: PICTURE_MAX_RECEIVES,
});
const pictureFunction = pollQueue({
  client: sqs,
  queueUrl: queue.url,
  queueArn: queue.arn,
  handler: (event) => asFunction('hostPictures', () => hostPictures(event)),
  batchSize: 10,
});

Object.assign(process.env, {
  IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
  PICTURE_QUEUE_URL: queue.url,
  PICTURE_FETCH_ALLOWED_ORIGINS: `${images.origin},${pagesOrigin},${demoImages.origin}`,
});

afterAll(async () => {
  await pictureFunction.stop();
  sqs.destroy();
  await images.stop();
  await demoImages.stop();
  await new Promise((resolve) => other.close(resolve));
  await new Promise((resolve) => pages.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const s3 = () =>
  new S3Client({
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
  });

async function stored(key: string): Promise<{ body: Buffer; type: string | undefined; cache: string | undefined }> {
  const object = await s3().send(new GetObjectCommand({ Bucket: LOCAL_IMAGES_BUCKET, Key: key }));
  return {
    body: Buffer.from(await object.Body!.transformToByteArray()),
    type: object.ContentType,
    cache: object.CacheControl,
  };
}

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
function csv(rows: Partial<Record<CsvColumn, string>>[]): string {
  return [
    CSV_COLUMNS.join(','),
    ...rows.map((row) =>
      CSV_COLUMNS.map((column) =>
        quote(
          row[column] ??
            ({ product_name: 'Lamp', msrp_us: '30.00', dropshipping_price_us: '20.00' } as Record<string, string>)[
              column
            ] ??
            '',
        ),
      ).join(','),
    ),
  ].join('\n');
}

const sha256 = async (body: Buffer) => (await import('node:crypto')).createHash('sha256').update(body).digest('hex');

// Decoding and encoding pictures is CPU work: on a shared machine it takes its time.
vi.setConfig({ testTimeout: 120_000 });

describe('pictures we host', () => {
  it('hosts the good pictures with WebP variants; dead, oversized, non-picture and private ones are warnings', async () => {
    const admin = await tokenFor(true);
    const good = `${images.origin}/wide.jpg`;
    const small = `${images.origin}/narrow.png`;
    const dead = `${images.origin}/missing.jpg`;
    const oversized = `${images.origin}/huge.png`;
    const fake = `${images.origin}/fake.jpg`;
    const html = `${pagesOrigin}/photo.jpg`;
    const privateHost = `${otherOrigin}/photo.jpg`;
    const { jobId } = await importCsv(
      admin,
      'pictures.csv',
      csv([
        {
          spu_no: 'PIC-1',
          product_images_1: good,
          product_images_2: dead,
          product_images_3: small,
          additional_product_images: `${oversized}; ${fake}`,
          html_description: `<p>Look <img src="${good}" alt="front"> and <img src="${privateHost}" alt="pixel"></p>`,
        },
        { spu_no: 'PIC-2', product_images_1: html, product_images_2: good },
      ]),
    );
    await pictureFunction.idle();

    const job = await call(getImportJob, { body: { id: jobId }, headers: auth(admin) });
    // Both rows are imported: a picture that fails never fails its row. Counted by address.
    expect(job.body).toMatchObject({
      status: 'completed',
      created: 2,
      rejected: 0,
      pictures: { total: 8, hosted: 3, failed: 5 },
    });
    const issues = await call(getImportIssues, { body: { id: jobId }, headers: auth(admin) });
    const warnings = (issues.body.items as { row: number; column: string; message: string }[]).map(
      ({ row, column, message }) => [row, column, message],
    );
    expect(warnings).toEqual([
      [2, 'product_images_2', `The picture ${dead} was left out of the product: its server answered 404.`],
      [
        2,
        'additional_product_images',
        `The picture ${oversized} was left out of the product: it is 8000 × 6000 pixels, more than 40 megapixels.`,
      ],
      [
        2,
        'additional_product_images',
        `The picture ${fake} was left out of the product: it is not a picture that can be read (the file is damaged or of another kind).`,
      ],
      [
        2,
        'html_description',
        `The picture ${privateHost} was left out of the description: its host is a private or local network address, which pictures are never fetched from.`,
      ],
      [
        3,
        'product_images_1',
        `The picture ${html} was left out of the product: it is of type text/html, not a JPEG, PNG, WebP, GIF or AVIF picture.`,
      ],
    ]);
    expect(reached).toBe(0);
    // The pictures are hosted after the import: their failures are on its picture progress (above) and
    // report, with the retry, not in the rows download (docs/catalogue.md), which holds the file's own problems: none.
    const download = await call(getRejected, { body: { id: jobId }, headers: auth(admin) });
    expect(download.body).toMatchObject({ fileName: 'pictures-rows-with-warnings.csv', truncated: false });
    const [header, ...rows] = parse(String(download.body.csv)) as string[][];
    expect(header!.slice(-3)).toEqual(['[portal] outcome', '[portal] row', '[portal] problem']);
    expect(rows).toEqual([]);
    // The pictures written to the images bucket start no import (its notification is the imports bucket's).
    const jobs = (await allItems()).filter((item) => item.entity === 'ImportJob');
    expect(jobs.map((job) => job.fileName)).toEqual(['pictures.csv']);

    // The good pictures: the original as fetched, and WebP variants up to the original's width.
    const wideHash = await sha256(wide);
    const narrowHash = await sha256(narrow);
    const original = await stored(pictureKeys.original(wideHash));
    expect(original.body.equals(wide)).toBe(true);
    expect(original.type).toBe('image/jpeg');
    for (const width of [320, 640, 1024]) {
      const variant = await stored(pictureKeys.variant(wideHash, width));
      expect(variant.type).toBe('image/webp');
      expect(variant.cache).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(variant.body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, Math.round((800 * width) / 1200)]);
    }
    await expect(stored(pictureKeys.variant(wideHash, 1200))).rejects.toThrow();
    // Narrower than the smallest width: one variant at its own width.
    const only = await sharp((await stored(pictureKeys.variant(narrowHash, 200))).body).metadata();
    expect([only.format, only.width, only.height]).toEqual(['webp', 200, 100]);

    // The product: our copies only, in slide order, with srcset; the description points to our copy.
    const product = await call(getImportedProduct, {
      body: { id: productIdFromSpuNo('PIC-1') },
      headers: auth(admin),
    });
    expect(product.body.images).toEqual([hostedPicturePath(wideHash, 640), hostedPicturePath(narrowHash, 200)]);
    expect(product.body.image).toBe(hostedPicturePath(wideHash, 640));
    expect(product.body.pictures).toEqual([
      {
        src: hostedPicturePath(wideHash, 640),
        srcset: [320, 640, 1024].map((width) => `${hostedPicturePath(wideHash, width)} ${width}w`).join(', '),
        width: 640,
        height: 427,
      },
      {
        src: hostedPicturePath(narrowHash, 200),
        srcset: `${hostedPicturePath(narrowHash, 200)} 200w`,
        width: 200,
        height: 100,
      },
    ]);
    expect(product.body.html_description).toBe(
      `<p>Look <img src="${hostedPicturePath(wideHash, 640)}" alt="front" /> and </p>`,
    );
    // The supplier's addresses stay what the file said (the review's "what changed" compares them).
    const record = await dynamoProducts.get(productIdFromSpuNo('PIC-1'));
    expect(record?.current.product_images).toEqual([good, dead, small]);
    expect(Object.keys(record?.current.hosted_images ?? {}).sort()).toEqual([good, small].sort());
  });

  it('fetches each address once: a second import of changed products hosts from what is stored', async () => {
    const admin = await tokenFor(true);
    const good = `${images.origin}/wide.jpg`;
    // The file is gone from the host: only the record of the earlier fetch can give it now.
    rmSync(join(dir, 'wide.jpg'));
    const { jobId } = await importCsv(
      admin,
      'again.csv',
      csv([{ spu_no: 'PIC-3', product_images_1: good, product_name: 'Another lamp' }]),
    );
    await pictureFunction.idle();
    const job = await call(getImportJob, { body: { id: jobId }, headers: auth(admin) });
    expect(job.body).toMatchObject({ status: 'completed', created: 1, pictures: { total: 1, hosted: 1, failed: 0 } });
    const product = await call(getImportedProduct, {
      body: { id: productIdFromSpuNo('PIC-3') },
      headers: auth(admin),
    });
    expect(product.body.images).toEqual([hostedPicturePath(await sha256(wide), 640)]);
    writeFileSync(join(dir, 'wide.jpg'), wide);
  });
});

describe('the demo catalogue with hosted pictures', () => {
  it('seeds its photos through the test image server and the import: every card shows our copy, on any port', async () => {
    const member = await tokenFor(false);
    const seeded = await seedDemoCatalogue({
      origin: 'http://localhost:3000',
      picturesOrigin: demoImages.origin,
      imagesDir: demoDir,
      afterUpload: async () => {
        await s3Events.idle();
        await pictureFunction.idle();
      },
    });
    expect(seeded).toEqual({ seeded: true });
    const page = await call(getApprovedProducts, { body: { limit: 100 }, headers: auth(member) });
    const cards = (page.body.items as { image: string; picture: { src: string; srcset: string } }[]).filter(
      (card) => card.image.startsWith('/images/') || card.image.startsWith('http'),
    );
    const demo = cards.filter((card) => !card.image.includes(images.origin));
    expect(demo.length).toBeGreaterThanOrEqual(30);
    for (const card of demo) {
      // 800 px photos: variants of 320 and 640 px, nothing of the test image server's address.
      expect(card.image).toMatch(/^\/images\/[0-9a-f]{64}\/640\.webp$/);
      expect(card.picture.src).toBe(card.image);
      expect(card.picture.srcset).toMatch(
        /^\/images\/[0-9a-f]{64}\/320\.webp 320w, \/images\/[0-9a-f]{64}\/640\.webp 640w$/,
      );
    }
    expect(new Set(demo.map((card) => card.image)).size).toBe(demo.length);

    // The portal serves them from the images bucket, whatever its port; nothing else under /images/.
    const client = s3();
    const server = createPortalServer({
      routes,
      loadHandler,
      memberDist: join(dir, 'none'),
      adminDist: join(dir, 'none'),
      readHostedImage: async (key) => {
        try {
          const object = await client.send(new GetObjectCommand({ Bucket: LOCAL_IMAGES_BUCKET, Key: key }));
          return { body: await object.Body!.transformToByteArray(), contentType: object.ContentType ?? '' };
        } catch {
          return undefined;
        }
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const response = await fetch(`${base}${demo[0]!.image}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 640]);
      expect((await fetch(`${base}/images/${'0'.repeat(64)}/640.webp`)).status).toBe(404);
      expect((await fetch(`${base}/images/../sources/x.json`)).status).toBe(404);
      const sourceKey = `${base}/images/${demo[0]!.image.split('/')[2]}/../../sources/x.json`;
      expect((await fetch(sourceKey)).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }

    // A second start, on another port: nothing to seed, and nothing to warn about.
    expect(
      await seedDemoCatalogue({
        origin: 'http://localhost:4000',
        picturesOrigin: demoImages.origin,
        imagesDir: demoDir,
        afterUpload: async () => {
          await s3Events.idle();
          await pictureFunction.idle();
        },
      }),
    ).toEqual({ seeded: false, origin: 'http://localhost:3000', hosted: true });
  }, 300_000);
});
