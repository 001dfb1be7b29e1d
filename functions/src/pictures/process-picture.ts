import type { Sharp, SharpOptions } from 'sharp';
import { variantHeight, variantWidths } from '@portal/shared/domain/pictures';

/**
 * Decodes a fetched picture and makes its WebP variants with sharp (libvips), which ships as
 * prebuilt binaries per platform (the import function carries the linux-arm64 ones; infra/lib
 * bundling.ts). Every input is checked by decoding it, whatever its content type said: only JPEG,
 * PNG, WebP, GIF and AVIF, at most MAX_INPUT_PIXELS (sharp's `limitInputPixels`, checked from the
 * header before the pixels are decoded), and a file that does not decode is refused in words.
 * WebP only, not AVIF: decision 0180 has the encode times and sizes.
 */

/** 40 megapixels: a 7 300 × 5 500 photo; decoding one holds about 160 MB of pixels. */
export const MAX_INPUT_PIXELS = 40_000_000;

/** WebP quality of every variant (decision 0180). */
export const WEBP_QUALITY = 78;

const FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

export interface ProcessedPicture {
  width: number;
  height: number;
  variants: { width: number; body: Buffer }[];
}

/** The picture could not be used: the words say why, for the import report. */
export class PictureProcessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PictureProcessError';
  }
}

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | undefined;
/** Loaded on first use: the native module costs its load time only to a run that hosts pictures. */
const sharpFactory = (): Promise<SharpFactory> =>
  (loaded ??= import('sharp').then((module) => (module.default ?? module) as unknown as SharpFactory));

/** The size (after EXIF orientation) of a picture, checking its format and pixel count. */
export async function inspectPicture(body: Buffer): Promise<{ width: number; height: number }> {
  const sharp = await sharpFactory();
  let meta;
  try {
    // The header only (no pixels decoded): the pixel count is checked below, in words.
    meta = await sharp(body, { limitInputPixels: false }).metadata();
  } catch {
    throw new PictureProcessError('it is not a picture that can be read (the file is damaged or of another kind)');
  }
  if (!meta.format || !FORMATS.has(meta.format) || (meta.format === 'heif' && meta.compression !== 'av1')) {
    throw new PictureProcessError(
      `it is ${meta.format ? `a ${meta.format.toUpperCase()} file` : 'no known picture'}, not a JPEG, PNG, WebP, GIF or AVIF picture`,
    );
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new PictureProcessError('it has no size');
  if (width * height > MAX_INPUT_PIXELS) {
    throw new PictureProcessError(
      `it is ${width} × ${height} pixels, more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`,
    );
  }
  return { width, height };
}

/** The picture's size and its WebP variants (variantWidths of its width). */
export async function processPicture(body: Buffer): Promise<ProcessedPicture> {
  const { width, height } = await inspectPicture(body);
  const sharp = await sharpFactory();
  const variants: ProcessedPicture['variants'] = [];
  for (const target of variantWidths(width)) {
    try {
      const out = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS })
        .autoOrient()
        .resize({ width: target, height: variantHeight({ width, height }, target), fit: 'fill' })
        .webp({ quality: WEBP_QUALITY, effort: 4 })
        .toBuffer();
      variants.push({ width: target, body: out });
    } catch {
      throw new PictureProcessError('it could not be decoded to the end (the file is damaged)');
    }
  }
  return { width, height, variants };
}
