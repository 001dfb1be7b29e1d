import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { addPortalStack } from '../lib/portal-app';
import type { SynthesizedTemplates } from './template';

/**
 * The local runtime's synth, run in a child process by template.ts (so aws-cdk-lib never stays in
 * the portal's memory): the CDK app's stack with the given contexts and bundling skipped
 * (`aws:cdk:bundling-stacks: []`, every function's code a placeholder: the local runtime runs the
 * handler module the template names), the apps' upload left out (no site folder: a warning, and no
 * asset to hash). cdk-nag and cfn-guard are `npm run synth`'s: not run here. Writes the portal
 * stack's template and its nested stacks' to the file named by the first argument.
 */
async function main(): Promise<void> {
  const [outFile, contextJson] = process.argv.slice(2);
  if (!outFile || !contextJson) throw new Error('usage: template-synth.ts <out file> <contexts as JSON>');
  const outdir = mkdtempSync(join(tmpdir(), 'portal-local-synth-'));
  try {
    const app = new App({
      outdir,
      context: { ...(JSON.parse(contextJson) as Record<string, unknown>), 'aws:cdk:bundling-stacks': [] },
    });
    const noSite = join(outdir, 'no-site');
    const stack = addPortalStack(app, { siteDist: { member: noSite, admin: noSite } });
    app.synth();
    const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8')) as SynthesizedTemplates['root'];
    const templates: SynthesizedTemplates = {
      stackName: stack.stackName,
      root: read(stack.templateFile),
      nested: Object.fromEntries(
        [...stack.capabilityStacks.values()].map((nested) => [
          stack.getLogicalId(nested.nestedStackResource as never),
          read(nested.templateFile),
        ]),
      ),
    };
    writeFileSync(outFile, JSON.stringify(templates));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
