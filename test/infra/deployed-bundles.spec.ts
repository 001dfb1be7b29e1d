import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { handler as login } from '../../functions/src/handlers/login';
import { handler as importProducts } from '../../functions/src/handlers/s3/import-products';
import { call } from '../handlers/helpers';

/**
 * The `bundles` project's own check that its handler tests do run the deployed bundles: an
 * import of a handler module here is the bundle's `handler`, required (CommonJS) from the
 * folder outside the repository, as Lambda loads it.
 */
describe('the bundles project', () => {
  it('gives a test the handler of the deployed bundle, loaded as CommonJS from outside the repository', async () => {
    const dir = inject('deployedBundlesDir');
    expect(path.relative(process.cwd(), dir).startsWith('..')).toBe(true);
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    for (const folder of ['handlers-login', 'handlers-s3-import-products']) {
      expect(loaded).toContain(path.join(dir, folder, 'index.js'));
    }
    expect(typeof importProducts).toBe('function');
    // An API Gateway v2 event through the bundle: a body that is not JSON is a 400 with a message.
    const answer = await call(login, { rawBody: '{not json' });
    expect(answer.status).toBe(400);
    expect(String(answer.body.message)).not.toBe('');
  });
});
