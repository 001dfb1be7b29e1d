import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventFunctions, routes } from '../../functions/src/routes';
import { capabilityFor, type Capability } from '../../infra/lib/capabilities';
import { buildDeployedBundles } from '../../infra/lib/deployed-bundles';

/**
 * A call's life is four files (docs/architecture.md#the-contract-and-adding-a-call): each
 * function's bundle, built as the stack builds it (infra/lib/bundling.ts), holds only its
 * capability's files and what every call shares; and the page's four-file table is true for every
 * kind of call.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const SRC = 'functions/src/';

/** Who a capability may import (docs/architecture.md#who-may-import-whom): one way, never back. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  addresses: [],
  auth: [],
  catalogue: [],
  pictures: [],
  products: [],
  reconciliation: [],
  rules: [],
  visits: [],
  email: ['auth'],
  payments: ['auth', 'products'],
  imports: ['catalogue', 'pictures', 'products'],
  orders: ['imports', 'payments', 'products', 'rules'],
  commissions: ['orders', 'payments', 'email'],
  notifications: ['auth', 'email', 'orders', 'commissions'],
  // members' discount codes (issue 39): a product's price with a code
  codes: ['products'],
};

/** The capabilities each nested stack's calls are about (infra/lib/capabilities.ts). */
const STACK_HOME: Record<Capability, readonly string[]> = {
  Auth: ['auth', 'email'],
  // a ban or withdrawal cancels the product's open checkouts at Stripe
  Catalogue: ['imports', 'products', 'payments', 'rules'],
  Payouts: ['payments', 'addresses'],
  // the checkout prices a discount code and counts its redemption (codes/codes.ts); the share
  // page's visits, the checkout's and the sale's counts (issue 39)
  Sales: ['orders', 'notifications', 'codes', 'visits'],
  Commissions: ['commissions', 'notifications', 'reconciliation'],
  // the commission rules (issue 39): the preview reads the approved products
  Programme: ['rules', 'products'],
};
/** The functions whose home is not their stack's: Stripe's two endpoints, and the event functions. */
const OWN_HOME: Record<string, readonly string[]> = {
  stripeWebhook: ['payments', 'orders', 'commissions', 'notifications', 'visits'],
  stripeConnectWebhook: ['payments', 'commissions', 'notifications'],
  importProducts: ['imports'],
  // a long import's later parts (run-import.ts continueImport)
  continueImport: ['imports'],
  // the picture queue's function: it hosts a product version's pictures and counts them on the import's job
  hostPictures: ['pictures', 'products', 'imports'],
  // the checkout-cancel queue's function: a step of a ban's cancelling (payments/open-intents.ts)
  cancelCheckouts: ['payments', 'products'],
  upgradeTable: ['orders', 'products'],
  dailyPayouts: ['commissions', 'notifications'],
  // the table stream's function: the members' top-earners places (commissions/places.ts, decision 0481)
  refreshPlaces: ['commissions'],
};

/**
 * What every call shares: the wiring, the middy stack, settings, errors, the common adapter helpers
 * (the table client, the order and commission items: `adapters/*.ts`), and authentication.
 */
const SHARED = (file: string, handler: string) =>
  file === handler ||
  file === 'composition.ts' ||
  file === 'errors.ts' ||
  /^adapters\/[^/]+\.ts$/.test(file) ||
  /^(http|config|auth|adapters\/auth)\//.test(file);

const closure = (home: readonly string[]): Set<string> => {
  const reached = new Set<string>();
  const visit = (capability: string) => {
    if (reached.has(capability)) return;
    reached.add(capability);
    for (const next of MAY_IMPORT[capability] ?? []) visit(next);
  };
  home.forEach(visit);
  return reached;
};

/** A file's capability: `orders/manage.ts` and `adapters/orders/dynamo-sales.ts` are both orders'. */
const capabilityOfFile = (file: string): string | undefined => {
  const parts = file.split('/');
  if (parts[0] === 'adapters') return parts.length > 2 ? parts[1] : undefined;
  return parts.length > 1 ? parts[0] : undefined;
};

const functions = [
  ...routes.map((route) => ({ name: route.name as string, module: route.module })),
  ...eventFunctions.map((fn) => ({ name: fn.name, module: fn.module })),
];

/** Each function's own files in its bundle (paths under functions/src), as esbuild's metafile says. */
const bundled = new Map<string, string[]>();

beforeAll(async () => {
  // Built as the stack builds them (infra/lib/deployed-bundles.ts), into a folder outside the repository.
  const outDir = mkdtempSync(path.join(tmpdir(), 'portal-handler-bundles-'));
  try {
    const { inputs } = await buildDeployedBundles(
      outDir,
      functions.map((fn) => fn.module),
    );
    for (const [module, files] of inputs) {
      bundled.set(
        module,
        files.filter((file) => file.startsWith(SRC)).map((file) => file.slice(SRC.length)),
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

describe("each function's bundle", () => {
  it.each(functions)('$name holds only its capability and what every call shares', ({ name, module }) => {
    const home = OWN_HOME[name] ?? STACK_HOME[capabilityFor(name)];
    const allowed = closure(home);
    const files = bundled.get(module)!;
    expect(files).toContain(module);
    const outside = files.filter((file) => {
      if (SHARED(file, module)) return false;
      const capability = capabilityOfFile(file);
      return capability === undefined || !allowed.has(capability);
    });
    expect(outside, `${name} (home: ${home.join(', ')})`).toEqual([]);
  });

  it('holds no capability of another stack: a catalogue call carries no commission code', () => {
    const files = bundled.get('handlers/approve-product.ts')!;
    expect(files.some((file) => capabilityOfFile(file) === 'products')).toBe(true);
    expect(files.filter((file) => /^(adapters\/)?(commissions|orders|notifications)\//.test(file))).toEqual([]);
  });
});

/** The four-file table of docs/architecture.md: kind | contract or trigger | handler | capability | adapter. */
function fourFileTable(): { kind: string; files: string[] }[] {
  const page = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
  const rows = page
    .split('\n')
    .filter((line) => /^\| (API call|webhook event|S3 import|scheduled job) /.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.map(([kind, ...cells]) => ({
    kind: kind!,
    files: cells.map((cell) => /`([^`]+\.ts)`/.exec(cell)?.[1] ?? ''),
  }));
}

describe("the architecture's four-file example", () => {
  const table = fourFileTable();

  it('names one call of each kind', () => {
    expect(table.map((row) => row.kind)).toEqual(['API call', 'webhook event', 'S3 import', 'scheduled job']);
  });

  it.each(table)(
    '$kind: the four files exist, the bundle holds them, the adapter implements the rule’s port',
    (row) => {
      const [contract, handler, capability, adapter] = row.files;
      for (const file of row.files) expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
      const module = handler!.slice(SRC.length);
      // the contract (an API call's module, or the route table's event function) names the handler
      if (contract!.startsWith('shared/src/api/calls/')) {
        const contractModule = path.basename(contract!, '.ts');
        expect(readFileSync(path.join(repoRoot, handler!), 'utf8')).toContain(
          `@portal/shared/api/calls/${contractModule}'`,
        );
      } else {
        expect(contract).toBe('functions/src/routes.ts');
        expect(eventFunctions.map((fn) => fn.module)).toContain(module);
      }
      const files = bundled.get(module)!;
      expect(files).toContain(capability!.slice(SRC.length));
      expect(files).toContain(adapter!.slice(SRC.length));
      // the adapter is its capability's: in its folder of adapters, implementing a port of that capability
      const owner = capabilityOfFile(capability!.slice(SRC.length))!;
      expect(adapter!.startsWith(`${SRC}adapters/${owner}/`), adapter).toBe(true);
      expect(readFileSync(path.join(repoRoot, adapter!), 'utf8')).toContain(`from '../../${owner}/`);
    },
  );
});
