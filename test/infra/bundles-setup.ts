import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDeployedBundles } from '../../infra/lib/deployed-bundles';
import { templateFunctions } from '../../infra/local/template';

/**
 * The `bundles` project: every function of the synthesized stack (its handler module, read from the
 * template test/handlers/global-setup.ts provides: infra/local/template.ts) is built as the stack deploys it,
 * into a folder outside the repository, before the handler tests run against those bundles
 * (test/infra/bundles-plugin.ts puts them in place of the handler modules).
 */
let outDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  outDir = mkdtempSync(join(tmpdir(), 'portal-deployed-bundles-'));
  await buildDeployedBundles(
    outDir,
    templateFunctions(project.getProvidedContext().templates).map((fn) => fn.module),
  );
  project.provide('deployedBundlesDir', outDir);
}

export function teardown(): void {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    deployedBundlesDir: string;
  }
}
