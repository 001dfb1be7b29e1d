import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);

/** The built files that go out compressed: the apps' scripts and styles, all under `assets/`. */
export const PRECOMPRESSED = /^assets\/[^/]+\.(?:js|css)$/;

/**
 * Brotli's best quality (11) up to this size; above it (only the lazy grid's chunk, about 750 kB)
 * quality 9, which compresses it in a fraction of the time for a few per cent more bytes.
 */
const BEST_QUALITY_UP_TO = 256 * 1024;

/** The file's bytes as `<file>.br` holds them: brotli, quality 11 (9 for the largest files). */
export function brotliOf(bytes: Uint8Array): Promise<Buffer> {
  return brotli(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: bytes.length <= BEST_QUALITY_UP_TO ? 11 : 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * Set while `npm start` builds the apps (infra/local/build-web.ts): the build leaves the `.br`
 * files to `precompressDist`, which the portal runs once its first page is served (decision 0370);
 * until then the local server compresses those files as it sends them, as it does any other.
 */
export const PRECOMPRESS_LATER_ENV = 'PORTAL_PRECOMPRESS_LATER';

/**
 * Writes `<file>.br` for every script and style sheet of a built app (`dist`) whose `.br` is
 * missing or older than the file; answers how many it wrote.
 */
export async function precompressDist(dist: string): Promise<number> {
  const assets = join(dist, 'assets');
  const names = (await readdir(assets).catch(() => [] as string[])).filter((name) =>
    PRECOMPRESSED.test(`assets/${name}`),
  );
  const written = await Promise.all(
    names.map(async (name) => {
      const file = join(assets, name);
      const [source, compressed] = await Promise.all([stat(file), stat(`${file}.br`).catch(() => undefined)]);
      if (compressed && compressed.mtimeMs >= source.mtimeMs) return 0;
      await writeFile(`${file}.br`, await brotliOf(await readFile(file)));
      return 1;
    }),
  );
  return written.reduce<number>((sum, one) => sum + one, 0);
}

/**
 * A Vite build plugin for both apps: next to every script and style sheet under `assets/` a
 * `<file>.br`, compressed once at build time with brotli's best quality, which a CDN compressing
 * as it serves does not spend (the local server's quality 5 gave React DOM's chunk 64 KiB, quality
 * 11 gives 58 KiB; about 10 % less on every script a page loads first). CloudFront hands it to
 * a browser that accepts brotli (the site function rewrites `/assets/x.js` to `/assets/x.js.br`,
 * stored with `Content-Encoding: br`, infra/lib/spa-rewrite.ts); the local server sends it the
 * same way (infra/local/compression.ts). Everyone else gets the file itself, compressed as before.
 */
export function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompressed',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(options, bundle) {
      if (process.env[PRECOMPRESS_LATER_ENV] === '1') return;
      const dir = options.dir ?? outDir;
      await Promise.all(
        Object.values(bundle)
          .filter((output) => PRECOMPRESSED.test(output.fileName))
          .map(async (output) => {
            const bytes = output.type === 'chunk' ? Buffer.from(output.code) : toBytes(output.source);
            await writeFile(join(dir, `${output.fileName}.br`), await brotliOf(bytes));
          }),
      );
    },
  };
}

function toBytes(source: string | Uint8Array): Uint8Array {
  return typeof source === 'string' ? Buffer.from(source) : source;
}
