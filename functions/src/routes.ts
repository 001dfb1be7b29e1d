import { contract, type EndpointName } from '@portal/shared/api/contract';

/**
 * The route table: the single source of truth for which /api calls are implemented and by
 * which handler module. The CDK stack creates one Lambda function per entry and the local
 * server dispatches to the same modules; nothing else lists routes.
 */

/** What a function may touch; the CDK stack grants exactly this and nothing more. */
export interface Access {
  table: 'read' | 'readwrite';
  /** Secrets the function reads at cold start (names of the SecretName union). */
  secrets: readonly SecretName[];
}

export type SecretName = 'tokenSigningKey';

export interface Route {
  name: EndpointName;
  /** The /api path, taken from the contract. */
  path: string;
  /** Handler module, relative to functions/src, exporting `handler`. */
  module: string;
  memoryMb: number;
  timeoutSeconds: number;
  access: Access;
}

const route = (name: EndpointName, module: string, access: Access, memoryMb = 512, timeoutSeconds = 10): Route => ({
  name,
  path: contract[name].path,
  module,
  memoryMb,
  timeoutSeconds,
  access,
});

const auth: Access = { table: 'readwrite', secrets: ['tokenSigningKey'] };

/** Password hashing with scrypt (N=2^17, r=8) needs 128 MiB and a fair share of CPU. */
const PASSWORD_MEMORY_MB = 1024;

export const routes: readonly Route[] = [
  route('signup', 'handlers/signup.ts', auth, PASSWORD_MEMORY_MB),
  route('login', 'handlers/login.ts', auth, PASSWORD_MEMORY_MB),
  route('checkAuth', 'handlers/check-auth.ts', auth),
  route('logout', 'handlers/logout.ts', auth),
];

export const routeByPath: ReadonlyMap<string, Route> = new Map(routes.map((r) => [r.path, r]));

/** Environment variable that carries each secret's value locally, or its ARN suffixed `_ARN` in AWS. */
export const secretEnv: Record<SecretName, string> = {
  tokenSigningKey: 'TOKEN_SIGNING_KEY',
};
