import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import type { PortalStackProps } from '../lib/portal-stack';
import { addPortalStack } from '../lib/portal-app';
import type { SynthesizedTemplates } from './template';

/**
 * The local runtime's synth: the CDK app's stack with the given contexts and bundling skipped
 * (`aws:cdk:bundling-stacks: []`, every function's code a placeholder: the local runtime runs the
 * handler module the template names), the apps' upload left out (no site folder: a warning, and no
 * asset to hash). cdk-nag and cfn-guard are `npm run synth`'s: not run here. `overrides` replace the
 * route table's routes or event functions (a test removes a grant this way); the local runtime
 * passes none.
 */
export function synthesizePortal(
  contexts: Readonly<Record<string, unknown>>,
  overrides: Pick<PortalStackProps, 'routes' | 'eventFunctions'> = {},
): SynthesizedTemplates {
  const outdir = mkdtempSync(join(tmpdir(), 'portal-local-synth-'));
  try {
    const app = new App({ outdir, context: { ...contexts, 'aws:cdk:bundling-stacks': [] } });
    const noSite = join(outdir, 'no-site');
    const stack = addPortalStack(app, { siteDist: { member: noSite, admin: noSite }, ...overrides });
    app.synth();
    const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8')) as SynthesizedTemplates['root'];
    return {
      stackName: stack.stackName,
      root: read(stack.templateFile),
      nested: Object.fromEntries(
        [...stack.capabilityStacks.values()].map((nested) => [
          stack.getLogicalId(nested.nestedStackResource as never),
          read(nested.templateFile),
        ]),
      ),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Run by template.ts in a child process (so aws-cdk-lib never stays in the portal's memory): writes
 * the portal stack's template and its nested stacks' to the file named by the first argument.
 */
function main(): void {
  const [outFile, contextJson] = process.argv.slice(2);
  if (!outFile || !contextJson) throw new Error('usage: template-synth.ts <out file> <contexts as JSON>');
  writeFileSync(outFile, JSON.stringify(synthesizePortal(JSON.parse(contextJson) as Record<string, unknown>)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main();
  } catch (error: unknown) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  }
}
