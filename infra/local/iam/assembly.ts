import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack, type CfnResource } from 'aws-cdk-lib';
import type { EventFunction, Route } from '../../../functions/src/routes';
import { PortalStack, repoRoot } from '../../lib/portal-stack';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */

/** One CloudFormation template as the synth wrote it. */
export interface CfnTemplate {
  Resources: Record<string, any>;
  Parameters?: Record<string, any>;
}

/**
 * What the local runtime needs of the synthesized stack to hold each function to its role: every
 * template (the portal stack's and each nested capability stack's), what the portal stack passes
 * each nested stack as parameters, and where each function of the route table landed.
 */
export interface LocalAssembly {
  /** The portal stack's template under `root`, each nested stack's under its logical id in the portal stack. */
  stacks: Record<string, CfnTemplate>;
  /** The nested stack's logical id -> its Parameters, as written in the portal stack (Refs into `root`). */
  nestedParameters: Record<string, Record<string, unknown>>;
  /** A route or event function's name -> its stack (`root` or a nested stack's id) and logical ids. */
  functions: Record<string, { stack: string; functionId: string; roleId: string }>;
}

export const ROOT_STACK = 'root';

/** The sender the local stack is synthesized with: the functions that mail get `ses:SendEmail` on its domain. */
export const LOCAL_MAIL_FROM = 'Reseller Portal <no-reply@portal.localhost>';

/** The feature flags of cdk.json, so the local stack is what `npm run synth` makes. */
const cdkContext = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

/**
 * Synthesizes the portal stack in-process, unbundled (the templates are the same; no esbuild, no
 * cdk-nag: `npm run synth` checks those), and keeps what the local IAM check needs. `routes` and
 * `eventFunctions` replace the route table's (a test removes a grant this way).
 */
export function synthesizeLocalAssembly(
  options: { routes?: readonly Route[]; eventFunctions?: readonly EventFunction[] } = {},
): LocalAssembly {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-local-stack-'));
  try {
    const app = new App({
      outdir: path.join(work, 'cdk.out'),
      context: { ...cdkContext(), 'aws:cdk:bundling-stacks': [] },
    });
    const stack = new PortalStack(app, 'ResellerPortal', {
      routes: options.routes,
      eventFunctions: options.eventFunctions,
      // The apps' upload is not what this is about: a stand-in build each, so the synth has nothing to warn about.
      siteDist: { member: standInApp(work, 'member'), admin: standInApp(work, 'admin') },
      mail: { from: LOCAL_MAIL_FROM },
    });
    const assembly = app.synth();
    const read = (file: string): CfnTemplate => JSON.parse(readFileSync(path.join(assembly.directory, file), 'utf8'));
    const root = read(stack.templateFile);
    const stacks: Record<string, CfnTemplate> = { [ROOT_STACK]: root };
    const nestedParameters: Record<string, Record<string, unknown>> = {};
    const keyOf = new Map<Stack, string>([[stack, ROOT_STACK]]);
    for (const nested of stack.capabilityStacks.values()) {
      const id = stack.getLogicalId(nested.nestedStackResource as CfnResource);
      stacks[id] = read(nested.templateFile);
      nestedParameters[id] = root.Resources[id].Properties.Parameters ?? {};
      keyOf.set(nested, id);
    }
    const functions: LocalAssembly['functions'] = {};
    const made = [...stack.routeResources.entries(), ...[...stack.eventResources.entries()]];
    for (const [name, resources] of made) {
      const own = Stack.of(resources.function);
      functions[name] = {
        stack: keyOf.get(own) ?? ROOT_STACK,
        functionId: own.getLogicalId(resources.function.node.defaultChild as CfnResource),
        roleId: own.getLogicalId(resources.role.node.defaultChild as CfnResource),
      };
    }
    return { stacks, nestedParameters, functions };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A folder holding what the stack needs of a built app: its index.html and a production build.json. */
function standInApp(work: string, name: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>${name}</title>`);
  writeFileSync(path.join(dir, 'build.json'), JSON.stringify({ checksAnswers: false }));
  return dir;
}

/** The files the stack's templates are made from: a change to any of them synthesizes again. */
function sourceFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      .map((entry) => path.join(entry.parentPath, entry.name));
  return [
    ...under('infra/lib'),
    ...under('shared/src/api/calls'),
    'functions/src/routes.ts',
    'functions/src/config/secret-names.ts',
    'shared/src/db/table.ts',
    'shared/src/api/contract.ts',
    'cdk.json',
    'node_modules/aws-cdk-lib/package.json',
  ]
    .map((file) => path.resolve(repoRoot, file))
    .sort();
}

/** Where the synthesized assembly of the current sources is kept (node_modules/.cache, by a hash of them). */
export function localAssemblyCacheFile(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) {
    hash.update(path.relative(repoRoot, file)).update('\0');
    if (existsSync(file)) hash.update(readFileSync(file));
    hash.update('\0');
  }
  hash.update(LOCAL_MAIL_FROM);
  return path.join(repoRoot, 'node_modules', '.cache', 'portal-local-stack', `${hash.digest('hex').slice(0, 24)}.json`);
}

/**
 * The assembly of the route table as it is: read from the cache when the stack's sources have not
 * changed since it was written, else synthesized (about 10 s) and cached. Callers that start many
 * workers (the handler tests' global setup) call it once and hand the file on.
 */
export function loadLocalAssembly(onSynth?: () => void): { assembly: LocalAssembly; file: string } {
  const file = localAssemblyCacheFile();
  if (existsSync(file)) return { assembly: JSON.parse(readFileSync(file, 'utf8')) as LocalAssembly, file };
  onSynth?.();
  const assembly = synthesizeLocalAssembly();
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(assembly));
  renameSync(temporary, file);
  return { assembly, file };
}
