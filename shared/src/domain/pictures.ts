/**
 * Pictures we host (issue 28): at import, every product picture and every `<img>` of a description
 * is fetched once, kept in the images bucket under its content's SHA-256, and resized to WebP
 * variants that CloudFront serves at `/images/<sha256>/<width>.webp` (the same path locally, from
 * the local S3 server). The product stores, per supplier address, what was hosted for it.
 */

/** The widths of the WebP variants, in pixels (narrower originals get their own width only). */
export const PICTURE_WIDTHS = [320, 640, 1024] as const;

/** The variant an `<img src>` names (browsers without srcset support, the early preload's fallback). */
export const DEFAULT_PICTURE_WIDTH = 640;

/** What the import stored for one supplier address: the content hash and the variants made. */
export interface HostedPicture {
  /** Lower-case hex SHA-256 of the original's bytes. */
  hash: string;
  /** The original's size in pixels (after EXIF orientation). */
  width: number;
  height: number;
  /** The variants' widths, ascending. */
  widths: number[];
}

/** The path of one variant, the same in AWS (CloudFront `/images/*`) and locally. */
export const hostedPicturePath = (hash: string, width: number): string => `/images/${hash}/${width}.webp`;

/** A path hostedPicturePath makes: what a description's `<img src>` may be besides an absolute http(s) URL. */
export const HOSTED_PICTURE_PATH = /^\/images\/[0-9a-f]{64}\/\d{1,5}\.webp$/;

/** The object keys of a picture in the images bucket (the bucket's `images/` prefix is what CloudFront serves). */
export const pictureKeys = {
  original: (hash: string): string => `images/${hash}/original`,
  variant: (hash: string, width: number): string => `images/${hash}/${width}.webp`,
};

/** What an `<img>` needs: `src`, `srcset` and the intrinsic size of `src` (so its box is reserved). */
export interface PictureSource {
  src: string;
  srcset: string;
  width: number;
  height: number;
}

/** The widths to make of an original `width` pixels wide: those of PICTURE_WIDTHS it covers, or its own. */
export function variantWidths(width: number): number[] {
  const covered = PICTURE_WIDTHS.filter((candidate) => candidate <= width);
  return covered.length > 0 ? [...covered] : [Math.max(1, width)];
}

/** A variant's height, keeping the original's aspect ratio. */
export const variantHeight = (picture: Pick<HostedPicture, 'width' | 'height'>, width: number): number =>
  Math.max(1, Math.round((picture.height * width) / picture.width));

/** The `<img>` attributes of a hosted picture: src is the DEFAULT_PICTURE_WIDTH variant (or the nearest made). */
export function pictureSource(picture: HostedPicture): PictureSource {
  const widths = picture.widths.length > 0 ? picture.widths : variantWidths(picture.width);
  const src = widths.filter((width) => width <= DEFAULT_PICTURE_WIDTH).pop() ?? widths[0]!;
  return {
    src: hostedPicturePath(picture.hash, src),
    srcset: widths.map((width) => `${hostedPicturePath(picture.hash, width)} ${width}w`).join(', '),
    width: src,
    height: variantHeight(picture, src),
  };
}

/**
 * The `sizes` of each place a product picture is shown, matching the CSS (catalogue.css): a card
 * is a column of the grid (two on a phone, three from 640 px, four from 960 px), the carousel half
 * the page beside the details from 768 px and the whole width below. Shared by the `<img>` and the early
 * script's preload, so the browser picks the same variant for both.
 */
export const PICTURE_SIZES = {
  card: '(max-width: 639px) 50vw, (max-width: 959px) 33vw, 300px',
  detail: '(max-width: 767px) 100vw, 50vw',
} as const;
