import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IdRequest } from './schemas';
import { SearchAddressRequest } from './address';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A bundle of one schema module the way the functions are bundled (and as Vite tree-shakes the apps). */
async function bundleOf(contents: string) {
  const result = await build({
    absWorkingDir: repoRoot,
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

describe('the schemas on zod/mini', () => {
  it('give the field’s sentence (messages.ts) where a schema names none', () => {
    expect(SearchAddressRequest.safeParse({ text: 5 }).error?.issues[0]?.message).toBe('The search text must be text.');
    expect(IdRequest.safeParse({ id: 'x', more: 1 }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('bundle without zod’s classic API and keep the sentences (shared/package.json sideEffects)', async () => {
    const { code, inputs } = await bundleOf(
      "import { SearchAddressRequest } from './address';\n" +
        'export const message = SearchAddressRequest.safeParse({ text: 5 }).error?.issues[0]?.message;',
    );
    expect(inputs.filter((input) => input.includes('zod/v4/classic'))).toEqual([]);
    // A context of its own: zod keeps its configuration on globalThis, which this test's zod has set.
    const module = { exports: {} as { message?: string } };
    runInNewContext(code, { module, exports: module.exports, require: () => ({}) });
    expect(module.exports.message).toBe('The search text must be text.');
  });

  it('leave out of a bundle the schemas it does not use (each built with a PURE-marked pure())', async () => {
    const { code } = await bundleOf(
      [
        "import { IdRequest } from './schemas';",
        "import { ProductCard } from './products';",
        "import { OrderList } from './sales';",
        "import { US_STATES } from './payments';",
        'export const used = [IdRequest, ProductCard, OrderList, US_STATES];',
      ].join('\n'),
    );
    expect(code).toContain('not_fulfilled'); // OrderList is in
    for (const unused of ['isPayoutMethodAdded', 'only spaces', 'rowsDone', 'blockedReason']) {
      expect(code, unused).not.toContain(unused);
    }
    expect(code).not.toContain('Enter a 10-digit US phone number');
  });
});
