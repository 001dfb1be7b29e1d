import type { EventFunction, Route } from '../../../functions/src/routes';
import { templateFunctions, type CfnTemplate, type SynthesizedTemplates } from '../template';

/**
 * What the local runtime needs of the synthesized stack to hold each function to its role: every
 * template (the portal stack's and each nested capability stack's), what the portal stack passes
 * each nested stack as parameters, and where each function of the route table landed. It is read
 * from the one synth the local runtime makes (template.ts `synthesizeTemplates`, cached by a hash
 * of its inputs): `npm start`, the handler tests and the scripts synthesize once, for their
 * functions' settings and their roles alike.
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

const made = new WeakMap<SynthesizedTemplates, LocalAssembly>();

/**
 * The IAM check's view of the synthesized templates: the same objects, keyed as the check reads
 * them (the portal stack as `root`), each function of the template (`portal:entry`) by its name in
 * the route table (the construct id of its scope: `signup`, `importProducts`).
 */
export function assemblyFromTemplates(templates: SynthesizedTemplates): LocalAssembly {
  const known = made.get(templates);
  if (known) return known;
  const stackKey = (stack: string) => (stack === templates.stackName ? ROOT_STACK : stack);
  const functions: LocalAssembly['functions'] = {};
  for (const fn of templateFunctions(templates)) {
    if (functions[fn.name]) throw new Error(`Two functions of the template are named ${fn.name}`);
    functions[fn.name] = { stack: stackKey(fn.stack), functionId: fn.logicalId, roleId: fn.roleLogicalId };
  }
  const assembly: LocalAssembly = {
    stacks: { [ROOT_STACK]: templates.root, ...templates.nested },
    nestedParameters: Object.fromEntries(
      Object.keys(templates.nested).map((id) => [
        id,
        (templates.root.Resources[id]?.Properties?.Parameters ?? {}) as Record<string, unknown>,
      ]),
    ),
    functions,
  };
  made.set(templates, assembly);
  return assembly;
}

/**
 * The stack synthesized in this process with the route table's routes or event functions replaced
 * (a test removes a grant this way), with `contexts` (template.ts `localContexts`, as the run's
 * own synth was made): the same synth as the local runtime's, not cached. aws-cdk-lib is loaded only
 * here, on demand: the portal's process never holds it.
 */
export async function synthesizeLocalAssembly(
  contexts: Readonly<Record<string, unknown>>,
  overrides: { routes?: readonly Route[]; eventFunctions?: readonly EventFunction[] },
): Promise<LocalAssembly> {
  const { synthesizePortal } = await import('../template-synth');
  return assemblyFromTemplates(synthesizePortal(contexts, overrides));
}
