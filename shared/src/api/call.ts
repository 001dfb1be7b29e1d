import type * as z from './zod';

/**
 * What every /api call's contract module (./calls/<call>.ts) says of it: its name, path, who may
 * make it, how its body arrives and the schema of that body; the module's second export is the
 * schema of its answer. The handler, the route table, the local server, the CDK stack, the
 * route-role test and the typed client all read these modules; nothing else lists roles.
 */

export type Role = 'public' | 'member' | 'admin';

export interface Call<Name extends string = string> {
  /** The spec's name of the call, as its path spells it (`markAsFufilled`); the route table and the client key on it. */
  readonly name: Name;
  /** Always `/api/<name>`, POST. */
  readonly path: `/api/${Name}`;
  readonly role: Role;
  /** How the body arrives: JSON, or multipart/form-data (file uploads). */
  readonly body: 'json' | 'multipart';
  /** The body's schema; the middy stack validates JSON bodies with it before the handler runs. */
  readonly request: z.ZodMiniType;
}
