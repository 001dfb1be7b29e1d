import type { HtmlTagDescriptor, Plugin } from 'vite';

type Bundle = Record<string, { type: 'chunk' | 'asset'; fileName: string }>;
interface Chunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  moduleIds: string[];
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The chunks (not entries) that hold one of the modules, with what they import statically, in order. */
function chunksWith(bundle: Bundle, moduleSuffixes: readonly string[]): { js: string[]; css: string[] } {
  const byName = new Map<string, Chunk>();
  for (const output of Object.values(bundle)) if (output.type === 'chunk') byName.set(output.fileName, output as Chunk);
  const entries = [...byName.values()].filter((chunk) => chunk.isEntry);
  // What the entry already loads with the page is left out.
  const loaded = new Set<string>();
  const visitLoaded = (name: string) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    for (const next of byName.get(name)?.imports ?? []) visitLoaded(next);
  };
  for (const entry of entries) visitLoaded(entry.fileName);
  const js: string[] = [];
  const css: string[] = [];
  const visit = (name: string) => {
    const chunk = byName.get(name);
    if (!chunk || loaded.has(name) || js.includes(name)) return;
    js.push(name);
    for (const file of chunk.viteMetadata?.importedCss ?? []) if (!css.includes(file)) css.push(file);
    for (const next of chunk.imports) visit(next);
  };
  for (const chunk of byName.values()) {
    if (!chunk.isEntry && chunk.moduleIds.some((id) => moduleSuffixes.some((suffix) => id.endsWith(suffix)))) {
      visit(chunk.fileName);
    }
  }
  return { js, css };
}

/** A build plugin adding the tags `tags` makes from the bundle to the page (index.html). */
function pageTagsPlugin(name: string, tags: (bundle: Bundle, base: string) => HtmlTagDescriptor[]): Plugin {
  let base = '/';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) => tags((context.bundle ?? {}) as Bundle, base),
    },
  };
}

/**
 * A Vite build plugin: the chunks (scripts and styles) of the screens the page's early script
 * loads ahead (issue 16), by a name of the address, in `<meta name="portal-screen-chunks">`. The
 * page is the same for every address, so it cannot name one screen's chunks as links; the early
 * script (shared/src/ui/early/pageScript.ts) reads this map and preloads the opened screen's
 * chunks as the page arrives, instead of after the app's first script has run and imported them.
 */
export function screenChunksOf(screens: Record<string, readonly string[]>): Plugin {
  return pageTagsPlugin('portal-screen-chunks', (bundle, base) => {
    const map: Record<string, { js: string[]; css: string[] }> = {};
    for (const [name, suffixes] of Object.entries(screens)) {
      const { js, css } = chunksWith(bundle, suffixes);
      map[name] = { js: js.map((file) => `${base}${file}`), css: css.map((file) => `${base}${file}`) };
    }
    return [
      { tag: 'meta', attrs: { name: 'portal-screen-chunks', content: JSON.stringify(map) }, injectTo: 'head-prepend' },
    ];
  });
}
