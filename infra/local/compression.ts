import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ContentEncoding } from '../../functions/src/http/compress';

/**
 * What CloudFront does for the app buckets (`compress: true` on the site behaviors with the
 * CachingOptimized policy, infra/lib/portal-stack.ts), done by the local server: text files of
 * 1,000 bytes to 10 MB go out brotli- or gzip-compressed by the request's Accept-Encoding
 * (brotli first when both are accepted, as CloudFront chooses), with `Vary: Accept-Encoding`.
 *
 * Each file is compressed once per version (its path, size and modification time) with Node's
 * zlib on libuv's thread pool, so the server's event loop never compresses; `warm` compresses the
 * built apps in the background when the server starts, so the first page load finds them ready.
 * The apps' scripts and styles come with the brotli form their build wrote (`<file>.br`, quality
 * 11: shared/src/build/precompress.ts), which is sent as it is, as CloudFront's site function
 * sends it; anything else is compressed here with brotli at quality 5 (130 KiB for the 464 KiB
 * admin bundle in about 0.1 s, where quality 11 takes 2.5 s) or gzip at level 9 (0.04 s).
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The types CloudFront compresses that the apps serve (its list also has fonts other than woff2). */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.html',
  '.js',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
]);
/** CloudFront compresses objects from 1,000 bytes to 10,000,000 bytes. */
export const MIN_COMPRESS_BYTES = 1_000;
export const MAX_COMPRESS_BYTES = 10_000_000;

// One negotiation for the apps' files here and the API's answers (functions/src/http/compress.ts).
export { chooseEncoding, type ContentEncoding } from '../../functions/src/http/compress';

/** Whether a file of this name and size is sent compressed when the browser accepts it. */
export function isCompressible(file: string, size: number): boolean {
  return COMPRESSIBLE_EXTENSIONS.has(extname(file)) && size >= MIN_COMPRESS_BYTES && size <= MAX_COMPRESS_BYTES;
}

interface Version {
  key: string;
  encoded: Partial<Record<ContentEncoding, Promise<Buffer>>>;
}

/**
 * The brotli form the apps' build wrote beside the file (`<file>.br`, brotli's best quality:
 * shared/src/build/precompress.ts), as CloudFront serves it to a browser that accepts brotli; none
 * when there is no such file or it is older than the file (then the file is compressed here).
 */
async function builtBrotli(file: string, version: { mtimeMs: number }): Promise<Buffer | undefined> {
  try {
    const info = await stat(`${file}.br`);
    return info.isFile() && info.mtimeMs >= version.mtimeMs ? await readFile(`${file}.br`) : undefined;
  } catch {
    return undefined;
  }
}

/** The compressed forms of files, made once per file version and kept in memory. */
export class CompressedFiles {
  readonly #versions = new Map<string, Version>();

  /** The file's bytes in `encoding`; the same promise for every request of one file version. */
  get(file: string, encoding: ContentEncoding, version: { size: number; mtimeMs: number }): Promise<Buffer> {
    const key = `${version.size}:${version.mtimeMs}`;
    let known = this.#versions.get(file);
    if (!known || known.key !== key) {
      known = { key, encoded: {} };
      this.#versions.set(file, known);
    }
    let encoded = known.encoded[encoding];
    if (!encoded) {
      encoded = readFile(file).then(async (bytes) =>
        encoding === 'br'
          ? ((await builtBrotli(file, version)) ??
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            }))
          : gzipAsync(bytes, { level: 9 }),
      );
      // A failed read (the file went away) is not kept: the next request tries again.
      encoded.catch(() => {
        if (known.encoded[encoding] === encoded) delete known.encoded[encoding];
      });
      known.encoded[encoding] = encoded;
    }
    return encoded;
  }

  /**
   * Compresses (brotli, what every current browser asks for) every compressible file under the
   * folders, one file at a time; a folder that is missing is skipped. Never rejects.
   */
  async warm(folders: readonly string[]): Promise<void> {
    for (const folder of folders) {
      let names: string[];
      try {
        names = (await readdir(folder, { recursive: true })).map(String);
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(folder, name);
        try {
          const info = await stat(file);
          if (info.isFile() && isCompressible(file, info.size)) await this.get(file, 'br', info);
        } catch {
          // Gone meanwhile, or unreadable: the request for it will say so.
        }
      }
    }
  }
}
