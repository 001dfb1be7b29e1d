import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * A Vite build plugin: the page's early script (issue 16; shared/src/ui/early/pageScript.ts),
 * bundled from the app's entry (`entry`, e.g. src/early.ts) with esbuild into one small classic
 * script (an IIFE: no imports, so no second round trip before its requests leave), emitted as a
 * hashed asset and loaded from the page's head with `async` and high priority (an async script is
 * fetched at low priority otherwise, and every request of the page's first picture waits on it).
 * Not inline: the Content-Security-Policy allows scripts from 'self' only.
 */
export function earlyScript(entry: string): Plugin {
  let base = '/';
  let fileName = '';
  return {
    name: 'portal-early-script',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async buildStart() {
      const code = await bundleEarlyScript(entry);
      const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
      fileName = `assets/early-${hash}.js`;
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      // Right after the title: before the app's module script and preloads, so it is asked for
      // first, and after the build's <meta name="portal-screen-chunks">, which it reads.
      handler: (html) => {
        const tag = `<script src="${base}${fileName}" async fetchpriority="high"></script>`;
        if (!html.includes('</title>')) throw new Error('The page has no <title> to put the early script after.');
        return html.replace('</title>', `</title>\n    ${tag}`);
      },
    },
  };
}

/** The early script's code: `entry` and what it imports, in one minified IIFE for browsers from 2020 on. */
export async function bundleEarlyScript(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild gave no output for the early script ${entry}.`);
  return output.text;
}
