import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  IPolicyValidationContextBeta1,
  IPolicyValidationPluginBeta1,
  PolicyValidationPluginReportBeta1,
  PolicyViolationBeta1,
} from 'aws-cdk-lib';

/** The project's cfn-guard rules: one file per concern, each rule with a comment saying why. */
export const guardRulesDir = fileURLToPath(new URL('../guard/', import.meta.url));

/**
 * The cfn-guard binary that `@cdklabs/cdk-validator-cfnguard` ships (bin/<ubuntu|macos>/<arch>/).
 * We use the package for its binary only: its plugin sees only top-level stack templates (CDK's
 * policy validation passes the cloud assembly's stack artifacts, and nested stacks are assets of
 * their parent), and its control-tower rule set is not ours (docs/decisions/0310-cfn-guard-at-synth.md).
 */
export function guardBinary(): string {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('@cdklabs/cdk-validator-cfnguard/package.json'));
  const platform = os.platform() === 'darwin' ? 'macos' : 'ubuntu';
  const arch = os.arch() === 'arm64' ? 'aarch64' : 'x86_64';
  return path.join(packageDir, 'bin', platform, arch, 'cfn-guard');
}

/** One broken rule: which rule, which resource, in which template, and what it means. */
export interface GuardViolation {
  rule: string;
  /** The resource's logical id in its template. */
  resource: string;
  /** The template's file name (`ResellerPortal.template.json`, `…Calls….nested.template.json`). */
  template: string;
  templatePath: string;
  message: string;
}

/**
 * Every CloudFormation template of a cloud assembly: each stack's own template and the templates
 * of its nested stacks (file assets in the stack's asset manifest whose name ends in
 * `.template.json`). Read from manifest.json, so templates left in cdk.out by an earlier synth are
 * not checked.
 */
export function assemblyTemplates(outdir: string): string[] {
  /* eslint-disable @typescript-eslint/no-explicit-any -- the cloud assembly manifest is JSON */
  const manifest: any = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
  const templates = new Set<string>();
  for (const artifact of Object.values<any>(manifest.artifacts ?? {})) {
    if (artifact.type === 'aws:cloudformation:stack' && artifact.properties?.templateFile) {
      templates.add(path.join(outdir, artifact.properties.templateFile));
    }
    if (artifact.type === 'cdk:asset-manifest' && artifact.properties?.file) {
      const assets: any = JSON.parse(readFileSync(path.join(outdir, artifact.properties.file), 'utf8'));
      for (const asset of Object.values<any>(assets.files ?? {})) {
        const source: unknown = asset.source?.path;
        if (typeof source === 'string' && source.endsWith('.template.json') && asset.source.packaging !== 'zip') {
          const file = path.join(outdir, source);
          if (existsSync(file)) templates.add(file);
        }
      }
    }
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */
  return [...templates].sort();
}

/** The rule files: every `*.guard` in infra/guard. */
export function guardRuleFiles(rulesDir: string = guardRulesDir): string[] {
  return readdirSync(rulesDir)
    .filter((file) => file.endsWith('.guard'))
    .sort()
    .map((file) => path.join(rulesDir, file));
}

/**
 * Runs cfn-guard over the templates with every rule of infra/guard and returns each violation once
 * (rule, resource, template). Throws when cfn-guard itself fails (a rule file that does not parse,
 * a missing binary): a check that did not run must not pass.
 */
export function runGuard(templatePaths: readonly string[], rulesDir: string = guardRulesDir): GuardViolation[] {
  if (templatePaths.length === 0) return [];
  // cfn-guard cannot join one resource to another by logical id (its key bindings do not
  // correlate per resource), so each resource is checked in a copy that carries its own logical id
  // as PortalGuard.LogicalId, which the rules compare with the Ref / Fn::GetAtt of the others.
  const work = mkdtempSync(path.join(os.tmpdir(), 'portal-guard-'));
  try {
    const copies = new Map<string, string>();
    templatePaths.forEach((templatePath, index) => {
      const template = readTemplate(templatePath);
      for (const [id, resource] of Object.entries(template.Resources ?? {})) {
        if (resource && typeof resource === 'object')
          (resource as Record<string, unknown>).PortalGuard = { LogicalId: id };
      }
      const copy = path.join(work, `${index}-${path.basename(templatePath)}`);
      writeFileSync(copy, JSON.stringify(template, null, 1));
      copies.set(copy, templatePath);
    });
    return guardResults([...copies.keys()], rulesDir).map((v) => {
      const original = copies.get(v.templatePath) ?? v.templatePath;
      return { ...v, templatePath: original, template: path.basename(original) };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function guardResults(templatePaths: readonly string[], rulesDir: string): GuardViolation[] {
  const args = [
    'validate',
    ...guardRuleFiles(rulesDir).flatMap((file) => ['--rules', file]),
    ...templatePaths.flatMap((file) => ['--data', file]),
    '--output-format',
    'json',
    '--show-summary',
    'none',
    '--structured',
  ];
  const run = spawnSync(guardBinary(), args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  // cfn-guard exits 0 when all pass, 19 when a rule fails; anything else is its own failure.
  if (run.error || (run.status !== 0 && run.status !== 19)) {
    throw new Error(
      `cfn-guard did not run (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr || run.stdout}`.trim(),
    );
  }
  let results: unknown;
  try {
    results = JSON.parse(run.stdout);
  } catch {
    throw new Error(`cfn-guard's output is not JSON: ${run.stdout.slice(0, 500)} ${run.stderr}`);
  }
  if (!Array.isArray(results)) throw new Error('cfn-guard returned no results');
  const violations = new Map<string, GuardViolation>();
  for (const result of results as { name: string; not_compliant?: unknown[] }[]) {
    const templatePath = result.name;
    const resourceIds = new Set(Object.keys(readTemplate(templatePath).Resources ?? {}));
    for (const failed of result.not_compliant ?? []) {
      const rule = (failed as { Rule?: { name?: string } }).Rule;
      if (!rule?.name) continue;
      const clauses = failingClauses(rule);
      // In a disjunction only the last clause carries the rule's message.
      const ruleMessage =
        clauses.map((c) => c.message.trim()).find((m) => m !== '') ?? ruleMessages(rulesDir).get(rule.name) ?? '';
      for (const clause of clauses) {
        const resource = resourceOf(clause, resourceIds);
        const key = `${rule.name}\0${resource}\0${templatePath}`;
        violations.set(key, {
          rule: rule.name,
          resource,
          template: path.basename(templatePath),
          templatePath,
          message: clause.message.trim() || violations.get(key)?.message || ruleMessage,
        });
      }
    }
  }
  return [...violations.values()];
}

/** cfn-guard's results over a cloud assembly folder: every template, the nested ones included. */
export function guardAssembly(outdir: string): GuardViolation[] {
  return runGuard(assemblyTemplates(outdir));
}

/** One violation in words: rule, resource, template, and what the rule asks. */
export function describeViolation(v: GuardViolation): string {
  return `${v.rule}: ${v.resource} in ${v.template}: ${v.message}`;
}

/** Each rule's first message (`<< … >>`) in the rule files: for a failure whose clause carries none. */
function ruleMessages(rulesDir: string): Map<string, string> {
  const messages = new Map<string, string>();
  for (const file of guardRuleFiles(rulesDir)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^rule\s+([A-Z0-9_]+)[\s\S]*?<<\s*([\s\S]*?)\s*>>/gm)) {
      messages.set(match[1]!, match[2]!);
    }
  }
  return messages;
}

function readTemplate(file: string): { Resources?: Record<string, unknown> } {
  return JSON.parse(readFileSync(file, 'utf8'));
}

interface FailingClause {
  message: string;
  /** The data paths (and values) the failing check looked at. */
  from: { path?: string; value?: unknown }[];
}

/** The failing clauses of a rule's result, wherever cfn-guard nests them (blocks, disjunctions). */
function failingClauses(node: unknown, found: FailingClause[] = []): FailingClause[] {
  if (Array.isArray(node)) {
    for (const item of node) failingClauses(item, found);
    return found;
  }
  if (!node || typeof node !== 'object') return found;
  const record = node as Record<string, unknown>;
  const clause = record.Clause as Record<string, Record<string, unknown>> | undefined;
  if (clause) {
    const inner = clause.Binary ?? clause.Unary ?? Object.values(clause)[0];
    const messages = (inner?.messages ?? {}) as { custom_message?: string | null; error_message?: string | null };
    found.push({
      message: messages.custom_message ?? '',
      from: fromPaths(inner?.check),
    });
    return found;
  }
  for (const value of Object.values(record)) failingClauses(value, found);
  return found;
}

/** The `from` / `traversed_to` / `value` paths of a check (never its `to`: the expected side). */
function fromPaths(
  node: unknown,
  found: { path?: string; value?: unknown }[] = [],
): { path?: string; value?: unknown }[] {
  if (Array.isArray(node)) {
    for (const item of node) fromPaths(item, found);
    return found;
  }
  if (!node || typeof node !== 'object') return found;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'to') continue;
    if ((key === 'from' || key === 'traversed_to' || key === 'value') && value && typeof value === 'object') {
      const entry = value as { path?: unknown; value?: unknown };
      if (typeof entry.path === 'string') found.push({ path: entry.path, value: entry.value });
    }
    fromPaths(value, found);
  }
  return found;
}

/** The logical id a failing clause is about: `/Resources/<id>/…`, or a bound key's value (`%function_id`). */
function resourceOf(clause: FailingClause, resourceIds: Set<string>): string {
  for (const { path: at } of clause.from) {
    const match = /^\/Resources\/([^/]+)/.exec(at ?? '');
    if (match && resourceIds.has(match[1]!)) return match[1]!;
  }
  for (const { value } of clause.from) {
    if (typeof value === 'string' && resourceIds.has(value)) return value;
  }
  return '(the template)';
}

/**
 * The CDK policy-validation plugin added next to cdk-nag (infra/lib/checks.ts): at every synth it
 * runs our cfn-guard rules over every template of the assembly, nested stacks included (CDK passes
 * the plugin the top-level templates; their folder's manifest names the nested ones). Each
 * violation fails the synth with its rule, resource and template.
 */
export class PortalGuardChecks implements IPolicyValidationPluginBeta1 {
  readonly name = 'portal-cfn-guard (infra/guard)';
  readonly version = '1';
  readonly ruleIds = guardRuleFiles().flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^rule\s+([A-Z0-9_]+)/gm)].map((m) => m[1]!),
  );

  validate(context: IPolicyValidationContextBeta1): PolicyValidationPluginReportBeta1 {
    const outdirs = [...new Set(context.templatePaths.map((file) => path.dirname(file)))];
    const violations = outdirs.flatMap((outdir) => guardAssembly(outdir));
    const byRule = new Map<string, GuardViolation[]>();
    for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
    const reported: PolicyViolationBeta1[] = [...byRule].map(([rule, found]) => ({
      ruleName: rule,
      description: found.map(describeViolation).join('\n'),
      fix: `See the rule's comment in infra/guard/*.guard (rule ${rule}).`,
      severity: 'error',
      violatingResources: found.map((v) => ({
        resourceLogicalId: v.resource,
        templatePath: v.templatePath,
        locations: [],
      })),
    }));
    return { success: reported.length === 0, violations: reported };
  }
}
