import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildWebApps, webBuildRecord } from '../../../infra/local/build-web';
import { bundleEarlyScript } from './early-script';

/**
 * The apps' production builds, as `npm run build:web`, `npm start` and the e2e tests make them
 * (here inside Vitest, where NODE_ENV is 'test'): no warning at all, React's production build, and
 * each page's early script a self-contained classic script. The build is the one the browser
 * tests serve (infra/local/build-web.ts): made once a run, by whichever asks first, with what Vite
 * said while making it.
 */

const root = process.cwd();

async function buildApp(app: 'web-member' | 'web-admin') {
  await buildWebApps(root);
  const said = webBuildRecord(root, app)?.said;
  if (!said) throw new Error(`${app}/dist was not made by buildWebApps`);
  const outDir = join(root, app, 'dist');
  const assets = join(outDir, 'assets');
  const files = readdirSync(assets).map((name) => ({ name, size: statSync(join(assets, name)).size }));
  return { said, outDir, files, html: readFileSync(join(outDir, 'index.html'), 'utf8') };
}

describe.each(['web-member', 'web-admin'] as const)('%s production build', (app) => {
  let result: Awaited<ReturnType<typeof buildApp>>;

  it('prints no warning', async () => {
    result = await buildApp(app);
    expect(result.said).toEqual([]);
  }, 120_000);

  it('says in build.json that it checks every answer, as a build inside Vitest does (a deploy refuses it)', () => {
    expect(JSON.parse(readFileSync(join(result.outDir, 'build.json'), 'utf8'))).toEqual({ checksAnswers: true });
  });

  it('has one chunk over 500 kB, the lazy grid (AG Grid)', () => {
    const big = result.files.filter((file) => file.name.endsWith('.js') && file.size > 500 * 1000);
    expect(big.map((file) => file.name.replace(/-[\w-]{8}\.js$/, ''))).toEqual(['DataTable']);
  });

  it('bundles React’s production build, not its development build', () => {
    const scripts = result.files
      .filter((file) => file.name.endsWith('.js'))
      .map((file) => readFileSync(join(result.outDir, 'assets', file.name), 'utf8'))
      .join('\n');
    expect(scripts).toContain('Minified React error #');
    // Strings only React DOM's development build has.
    expect(scripts).not.toContain('validateDOMNesting');
    expect(scripts).not.toMatch(/react-dom\.development|react-jsx-dev-runtime/);
  });

  it('asks before the first paint only for the scripts its entry runs, and none holds zod', () => {
    const base = app === 'web-admin' ? '/admin/' : '/';
    const fileOf = (href: string) => join(result.outDir, href.slice(base.length));
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(result.html)?.[1];
    expect(entry).toBeDefined();
    // What the entry imports statically (`import … from "./x.js"`, not `import("./x.js")`), and on.
    const runs = new Set<string>();
    const visit = (href: string) => {
      if (runs.has(href)) return;
      runs.add(href);
      const code = readFileSync(fileOf(href), 'utf8');
      for (const match of code.matchAll(
        /\bimport\s*(?:[\w{},\s*$]+\sfrom\s*|(?:\{[^}]*\}|[\w$]+)\s*from\s*)?"\.\/([\w.-]+\.js)"/g,
      )) {
        visit(`${base}assets/${match[1]!}`);
      }
    };
    visit(entry!);
    const preloads = [...result.html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (m) => m[1]!,
    );
    expect(preloads.filter((href) => !runs.has(href))).toEqual([]);
    // zod checks forms on the screens that have one; no page's first script carries it.
    const zod = [...runs].filter((href) => readFileSync(fileOf(href), 'utf8').includes('_zod'));
    expect(zod).toEqual([]);
  });

  it('names each early-loaded screen’s chunks in the page, and none of them is another screen’s', () => {
    const base = app === 'web-admin' ? '/admin/' : '/';
    const content = /<meta name="portal-screen-chunks" content="([^"]+)">/.exec(result.html)?.[1];
    expect(content).toBeDefined();
    const screens = JSON.parse(content!.replaceAll('&quot;', '"')) as Record<string, { js: string[]; css: string[] }>;
    const expected =
      app === 'web-admin'
        ? { home: 'AdminHomeScreen', import: 'ProductImportScreen', orders: 'OrdersScreen' }
        : { shop: 'ShopScreen', detail: 'ProductDetailScreen', account: 'MyAccountScreen' };
    expect(Object.keys(screens).sort()).toEqual(Object.keys(expected).sort());
    const screenChunk =
      /^(AdminHomeScreen|ProductImportScreen|ProductImportDetailScreen|CatalogueScreen|OrdersScreen|OrderListScreen|PayoutsScreen|CommissionActionScreen|TopEarnersScreen|ShopScreen|ProductDetailScreen|MyAccountScreen|TrackOrderScreen|MyProfileScreen|LoginScreen|SignupScreen)-/;
    for (const [name, own] of Object.entries(expected)) {
      const files = screens[name]!.js.map((href) => href.slice(`${base}assets/`.length));
      // Its own screen's chunk first, then what that imports; no other screen's chunk and no grid.
      expect(files[0], name).toMatch(new RegExp(`^${own}-`));
      expect(
        files.filter((file) => screenChunk.test(file) && !file.startsWith(`${own}-`)),
        name,
      ).toEqual([]);
      expect(
        files.filter((file) => /^(DataTable|sanitize-description|api)-/.test(file)),
        name,
      ).toEqual([]);
      for (const file of [...files, ...screens[name]!.css.map((href) => href.slice(`${base}assets/`.length))]) {
        expect(existsSync(join(result.outDir, 'assets', file)), file).toBe(true);
      }
    }
  });

  it('runs no screen’s code from its entry: every screen is a chunk the page loads when it is opened', () => {
    const base = app === 'web-admin' ? '/admin/' : '/';
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(result.html)![1]!;
    const runs = new Set<string>();
    const visit = (file: string) => {
      if (runs.has(file)) return;
      runs.add(file);
      const code = readFileSync(join(result.outDir, 'assets', file), 'utf8');
      for (const match of code.matchAll(
        /\bimport\s*(?:[\w{},\s*$]+\sfrom\s*|(?:\{[^}]*\}|[\w$]+)\s*from\s*)?"\.\/([\w.-]+\.js)"/g,
      )) {
        visit(match[1]!);
      }
    };
    visit(entry.slice(`${base}assets/`.length));
    const code = [...runs].map((file) => readFileSync(join(result.outDir, 'assets', file), 'utf8')).join('\n');
    // Strings of screens that the first load of another address does not show.
    const others =
      app === 'web-admin'
        ? ['Need to be ordered', 'Record an order', 'Top earners', 'The import could not be found']
        : ['Commissions You Made', 'Send me an e-mail'];
    expect(others.filter((text) => code.includes(text))).toEqual([]);
  });

  it('writes beside every script and style sheet its brotli form, which decodes to the file and is smaller', () => {
    const built = result.files.filter((file) => /\.(js|css)$/.test(file.name));
    expect(built.length).toBeGreaterThan(2);
    for (const file of built) {
      const bytes = readFileSync(join(result.outDir, 'assets', file.name));
      const brotli = readFileSync(join(result.outDir, 'assets', `${file.name}.br`));
      expect(brotliDecompressSync(brotli).equals(bytes), file.name).toBe(true);
      // Smaller than the file from 1 kB; under half of it for a script of any size (a chunk of a
      // kilobyte or two is mostly names that compress less: one of 1,341 bytes gave 694).
      if (bytes.length >= 1_000) expect(brotli.length, file.name).toBeLessThan(bytes.length);
      if (bytes.length >= 4_000) expect(brotli.length, file.name).toBeLessThan(bytes.length / 2);
    }
    // Nothing else gets one: the page, pictures and the like are compressed as they are served.
    expect(result.files.filter((file) => file.name.endsWith('.br') && !/\.(js|css)\.br$/.test(file.name))).toEqual([]);
    expect(existsSync(join(result.outDir, 'index.html.br'))).toBe(false);
  });

  it('loads its early script from the head, before the app’s module script', () => {
    const early = /<script src="(\/(?:admin\/)?assets\/early-[\w-]{8}\.js)" async fetchpriority="high"><\/script>/.exec(
      result.html,
    );
    expect(early).not.toBeNull();
    expect(result.html.indexOf(early![0])).toBeLessThan(result.html.indexOf('<script type="module"'));
    const file = join(result.outDir, early![1]!.replace(/^\/(admin\/)?/, ''));
    expect(existsSync(file)).toBe(true);
  });
});

describe('the early script bundle', () => {
  it.each(['web-member', 'web-admin'])(
    '%s: one small classic script, with the contract’s paths and no library',
    async (app) => {
      const code = await bundleEarlyScript(join(root, app, 'src', 'early.ts'));
      // A classic script: it parses as a function body (an import or export would not).
      expect(() => new Function(code)).not.toThrow();
      expect(code.length).toBeLessThan(6_000);
      expect(code).toContain('/api/');
      expect(code).toContain('checkAuth');
      expect(code).not.toMatch(/zod|react|tanstack/i);
    },
  );
});
