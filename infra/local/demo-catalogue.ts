import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CSV_COLUMNS, productIdFromSpuNo, type CsvColumn } from '@portal/shared/domain/csv-product';
import { dynamoImports } from '../../functions/src/adapters/imports/dynamo-imports';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { s3Files } from '../../functions/src/adapters/imports/s3-files';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { queuedJob } from '../../functions/src/imports/jobs';
import { writeDemoImages, writeDemoPhotos, type DemoPicture, type DemoShape } from './demo-images';

/**
 * The demo catalogue `npm start` seeds into a fresh data folder, once, through the real import
 * path: a generated supplier CSV goes into the imports bucket as an upload would (a queued job,
 * then the object), the bucket's ObjectCreated event runs the import, the products repository
 * approves most of them, and a second small CSV raises the prices of one approved product, so
 * that the review list has an update whose "what changed" shows old and new prices.
 *
 * Once: a marker item in the table records that the demo was seeded (and from which origin its
 * pictures are served). A later start finds it and changes nothing, so whatever an admin decided
 * meanwhile stays decided. Every step is also safe to repeat (imports are upserts, approving a
 * product no longer in review does nothing) should a first seed stop half-way.
 *
 * Pictures (issue 28): JPEG photos under `<data dir>/demo-images/`, served by the test image
 * server on 127.0.0.1 (image-server.ts) as a supplier's host serves them. The CSV names them
 * there; the import fetches each once, stores it in the local images bucket and makes its WebP
 * variants, which the portal serves at `/images/*` on its own origin, so they show on any port.
 * Without a picture origin (older callers), the SVGs are named on the portal's origin at
 * `/demo-images/<name>.svg`, as before hosting: those show only on the port they were seeded on.
 */

const DEMO_IMAGES_PATH = '/demo-images/';
const DEMO_VIEWS = 4;
const DEMO_MARKER = { pk: 'DEMO#catalogue', sk: 'DEMO' };

const KINDS: readonly { shape: DemoShape; noun: string; brand: string; price: number; hue: number }[] = [
  { shape: 'mug', noun: 'Travel Mug', brand: 'Kettle & Co', price: 24, hue: 14 },
  { shape: 'lamp', noun: 'Desk Lamp', brand: 'Lumo', price: 59, hue: 42 },
  { shape: 'backpack', noun: 'Daypack', brand: 'Trailhead', price: 79, hue: 150 },
  { shape: 'bottle', noun: 'Water Bottle', brand: 'Hydra', price: 29, hue: 195 },
  { shape: 'watch', noun: 'Field Watch', brand: 'Meridian', price: 149, hue: 222 },
  { shape: 'headphones', noun: 'Headphones', brand: 'Soundfold', price: 119, hue: 265 },
  { shape: 'plant', noun: 'Planter', brand: 'Greenhouse', price: 34, hue: 105 },
  { shape: 'sneaker', noun: 'Runner', brand: 'Stride', price: 89, hue: 350 },
  { shape: 'sunglasses', noun: 'Sunglasses', brand: 'Shade Bay', price: 45, hue: 28 },
  { shape: 'candle', noun: 'Soy Candle', brand: 'Hearth', price: 19, hue: 320 },
  { shape: 'notebook', noun: 'Notebook', brand: 'Paperly', price: 14, hue: 180 },
  { shape: 'speaker', noun: 'Speaker', brand: 'Soundfold', price: 99, hue: 240 },
];
const STYLES = ['Mini', 'Classic', 'Pro'] as const;

export interface DemoProduct {
  spu_no: string;
  name: string;
  brand: string;
  msrpCents: number;
  sellCents: number;
  picture: DemoPicture;
  /** Stays waiting for review instead of being approved. */
  inReview: boolean;
}

/** 36 products: 12 kinds in 3 styles; every sixth one is left for review. */
export function demoProducts(): DemoProduct[] {
  return STYLES.flatMap((style, styleIndex) =>
    KINDS.map((kind, kindIndex) => {
      const index = styleIndex * KINDS.length + kindIndex;
      const msrpCents = Math.round(kind.price * (1 + (styleIndex - 1) * 0.25)) * 100 - 1;
      const slug = `${kind.noun}-${style}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      return {
        spu_no: `DEMO-${String(index + 1).padStart(3, '0')}`,
        name: `${kind.noun} ${style}`,
        brand: kind.brand,
        msrpCents,
        sellCents: Math.round(msrpCents * 0.55),
        picture: { slug, label: `${kind.noun} ${style}`, shape: kind.shape, hue: (kind.hue + styleIndex * 35) % 360 },
        inReview: index % 6 === 5,
      };
    }),
  );
}

/** The product whose prices the second file changes after it was approved. */
export const UPDATED_SPU = 'DEMO-001';

const dollars = (cents: number) => (cents / 100).toFixed(2);
const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

/** A supplier CSV of the products, images at `base` (an origin and a path ending in '/'). */
function demoCsv(products: readonly DemoProduct[], base: string, images: Map<string, string[]>): string {
  const rows = products.map((product) => {
    const urls = (images.get(product.picture.slug) ?? []).map((name) => `${base}${name}`);
    const values: Record<CsvColumn, string> = {
      product_name: product.name,
      brand: product.brand,
      msrp_us: dollars(product.msrpCents),
      dropshipping_price_us: dollars(product.sellCents),
      product_images_1: urls[0] ?? '',
      product_images_2: urls[1] ?? '',
      product_images_3: urls[2] ?? '',
      product_images_4: '',
      product_images_5: '',
      product_images_6: '',
      additional_product_images: urls.slice(3).join('; '),
      html_description: `<p>The <strong>${product.name}</strong> by ${product.brand}: a demo product, drawn for this portal.</p><ul><li>Ships in 2–4 business days</li><li>30-day returns</li></ul>`,
      url: '',
      spu_no: product.spu_no,
    };
    return CSV_COLUMNS.map((column) => quote(values[column])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

export interface SeedDemoOptions {
  /** The portal's origin, as browsers reach it: the pictures' addresses start with it. */
  origin: string;
  /** Where the pictures are written (served at DEMO_IMAGES_PATH, and by the test image server). */
  imagesDir: string;
  /**
   * The test image server's origin (image-server.ts): the CSV names the JPEG photos there and the
   * import hosts them. Absent: the SVGs on `origin`, not hosted.
   */
  picturesOrigin?: string;
  /**
   * Waits until the imports bucket's events so far have been handled (locally the S3 server's
   * forwarder; a test delivers the event itself).
   */
  afterUpload: (key: string) => Promise<void>;
  now?: () => Date;
}

/** `hosted`: the seeded pictures are ours (served on any port); otherwise they live on `origin`. */
export type SeedOutcome = { seeded: true } | { seeded: false; origin: string; hosted: boolean };

/** Seeds the demo catalogue unless it was seeded before; the pictures are (re)written when missing. */
export async function seedDemoCatalogue(options: SeedDemoOptions): Promise<SeedOutcome> {
  const products = demoProducts();
  const pictures = products.map((product) => product.picture);
  const images = options.picturesOrigin
    ? await writeDemoPhotos(options.imagesDir, pictures, DEMO_VIEWS)
    : writeDemoImages(options.imagesDir, pictures, DEMO_VIEWS);
  const base = options.picturesOrigin ? `${options.picturesOrigin}/` : `${options.origin}${DEMO_IMAGES_PATH}`;
  const marker = await db().send(new GetCommand({ TableName: tableName(), Key: DEMO_MARKER, ConsistentRead: true }));
  if (marker.Item) {
    return { seeded: false, origin: String(marker.Item.origin), hosted: marker.Item.hostedPictures === true };
  }

  const now = () => (options.now ?? (() => new Date()))().toISOString();
  await importFile('demo-catalogue.csv', demoCsv(products, base, images), options);
  for (const product of products) {
    if (product.inReview) continue;
    // Approves the version just imported, as an admin who opened it would.
    const id = productIdFromSpuNo(product.spu_no);
    const stored = await dynamoProducts.get(id);
    if (stored) await dynamoProducts.approve(id, stored.current.content_hash, now());
  }
  const updated = products
    .filter((product) => product.spu_no === UPDATED_SPU)
    .map((product) => ({ ...product, msrpCents: product.msrpCents + 500, sellCents: product.sellCents + 350 }));
  await importFile('demo-price-update.csv', demoCsv(updated, base, images), options);

  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...DEMO_MARKER,
          entity: 'DemoSeed',
          origin: options.origin,
          hostedPictures: options.picturesOrigin !== undefined,
          seededAt: now(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return { seeded: true };
}

/** As an upload does it (upload-products.ts): a queued job, then the file in the bucket, whose event imports it. */
async function importFile(fileName: string, csv: string, options: SeedDemoOptions): Promise<void> {
  const job = queuedJob(fileName, s3Files.bucket(), new Date().toISOString());
  await dynamoImports.create(job);
  await s3Files.put(job.key, Buffer.from(csv), 'text/csv');
  // The S3 server emits the object's event before it answers the put, and the import runs to its
  // end within the event's handler: once the events are handled, the job is done or failed.
  await options.afterUpload(job.key);
  const state = await dynamoImports.get(job.id);
  if (state?.status !== 'completed') {
    throw new Error(`The demo catalogue ${fileName} did not import: ${state?.failure ?? state?.status ?? 'no job'}`);
  }
}
