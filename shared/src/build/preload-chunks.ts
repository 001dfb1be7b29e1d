import type { Plugin } from 'vite';

/**
 * A Vite build plugin for both apps: `<link rel="modulepreload">` in the page for the chunks that
 * hold the given modules, which the app imports dynamically as soon as it starts (the API
 * schemas, shared/src/api/client.ts). The browser then fetches and compiles them alongside the
 * first script instead of one round trip after it has run; they are still evaluated only when
 * imported, in a task of their own.
 */
export function preloadChunksOf(moduleSuffixes: readonly string[]): Plugin {
  let base = '/';
  return {
    name: 'portal-preload-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter(
          (output) =>
            output.type === 'chunk' &&
            !output.isEntry &&
            output.moduleIds.some((id) => moduleSuffixes.some((suffix) => id.endsWith(suffix))),
        );
        return chunks.map((chunk) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${chunk.fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
