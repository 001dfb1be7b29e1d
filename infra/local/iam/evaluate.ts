import { runSimulation } from '@cloud-copilot/iam-simulate';
import { LOCAL_ACCOUNT, type FunctionPolicy } from './policy';
import type { AuthorizationRequest } from './requests';

/** How AWS decides one request: allowed, or denied because nothing allows it or a statement denies it. */
export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied';

/**
 * The decision of IAM's policy evaluation for one request of a function, by iam-simulate (identity
 * policies: actions, NotAction, resources and NotResource with wildcards, every condition
 * operator). The simulator refuses a request it cannot evaluate (an unknown action, a resource
 * of the wrong type for it, a context key the action does not take): that is an error naming it,
 * never an allow. The same question is answered from a cache afterwards (the policy of a
 * function does not change while it runs).
 */
export async function decide(policy: FunctionPolicy, request: AuthorizationRequest): Promise<Decision> {
  const key = `${request.action} ${request.resource} ${JSON.stringify(request.context)}`;
  let decisions = cache.get(policy);
  if (!decisions) {
    decisions = new Map();
    cache.set(policy, decisions);
  }
  const known = decisions.get(key);
  if (known) return known;
  const decision = await simulate(policy, request);
  if (decisions.size >= MAX_CACHED_PER_FUNCTION) decisions.delete(decisions.keys().next().value!);
  decisions.set(key, decision);
  return decision;
}

/** Object keys differ per call: the cache of a function keeps its latest answers only. */
const MAX_CACHED_PER_FUNCTION = 5_000;
const cache = new WeakMap<FunctionPolicy, Map<string, Decision>>();

/** One simulation, uncached (the bench measures it). */
export async function simulate(policy: FunctionPolicy, request: AuthorizationRequest): Promise<Decision> {
  const result = await runSimulation(
    {
      request: {
        principal: policy.principalArn,
        action: request.action,
        resource: { resource: request.resource, accountId: LOCAL_ACCOUNT },
        contextVariables: {
          'aws:SecureTransport': 'true',
          'aws:RequestedRegion': request.resource.split(':')[3] || 'us-east-1',
          ...request.context,
        },
      },
      identityPolicies: [
        { name: `${policy.roleName}Policy`, policy: { Version: '2012-10-17', Statement: policy.statements } },
      ],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === 'error') {
    throw new Error(
      `The local IAM check cannot evaluate ${request.action} on ${request.resource} for ${policy.functionName}: ${JSON.stringify(result.errors)}`,
    );
  }
  return result.overallResult as Decision;
}
