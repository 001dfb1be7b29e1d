import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { eventFunctions, routes } from '../../functions/src/routes';
import { buildDeployedBundles } from '../../infra/lib/deployed-bundles';

/**
 * The `bundles` project: every function of the route table is built as the stack deploys it,
 * into a folder outside the repository, before the handler tests run against those bundles
 * (test/infra/bundles-plugin.ts puts them in place of the handler modules).
 */
let outDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  outDir = mkdtempSync(join(tmpdir(), 'portal-deployed-bundles-'));
  await buildDeployedBundles(
    outDir,
    [...routes, ...eventFunctions].map((fn) => fn.module),
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
