import { StripeApiError } from './errors';
import { operationFinder, stripeOpenApiDocument, type Schema } from './oas';
import type { Params } from './params';
import { sdkOnlyParameters } from './sdk-exceptions';

/**
 * Refuses parameters Stripe's OpenAPI document (2024-04-10) does not list for the call, at any
 * depth, with Stripe's own answer: 400 `parameter_unknown`, "Received unknown parameter: a[b]".
 */

/** The names a parameter object may hold, each with what its value may hold; `open` takes any name (metadata). */
type Shape = { open: true } | { open: false; names: Map<string, Shape | undefined> };

export function loadParameterCheck(): (method: string, path: string, params: Params) => void {
  const document = stripeOpenApiDocument();
  const findTemplate = operationFinder(document);
  const cache = new Map<string, Shape | undefined>();

  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    return document.components.schemas[ref.replace('#/components/schemas/', '')] ?? {};
  };

  /** The shape of the objects a schema allows (through anyOf, oneOf and array items); undefined for scalars. */
  function shapeOf(input: Schema, depth = 0): Shape | undefined {
    const schema = resolve(input);
    if (depth > 30) return { open: true };
    const branches = [
      ...((schema.anyOf as Schema[] | undefined) ?? []),
      ...((schema.oneOf as Schema[] | undefined) ?? []),
    ];
    if (schema.items) branches.push(schema.items as Schema);
    const properties = schema.properties as Record<string, Schema> | undefined;
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return { open: true };
    if (schema.additionalProperties === true) return { open: true };
    let shape: Shape | undefined = properties
      ? {
          open: false,
          names: new Map(Object.entries(properties).map(([name, value]) => [name, shapeOf(value, depth + 1)])),
        }
      : undefined;
    for (const branch of branches) {
      const other = shapeOf(branch, depth + 1);
      if (!other) continue;
      if (other.open || shape?.open) return { open: true };
      shape ??= { open: false, names: new Map() };
      for (const [name, value] of other.names) if (!shape.names.has(name)) shape.names.set(name, value);
    }
    if (!shape && schema.type === 'object') return { open: true };
    return shape;
  }

  function operationShape(method: string, path: string): Shape | undefined {
    const lower = method.toLowerCase();
    const template = findTemplate(lower, path);
    if (!template) return { open: true };
    const key = `${lower} ${template}`;
    if (cache.has(key)) return cache.get(key);
    const operation = document.paths[template]![lower]!;
    let shape: Shape | undefined;
    if (lower === 'post') {
      const body = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
      shape = body ? shapeOf(body) : { open: false, names: new Map() };
    } else {
      const names = new Map<string, Shape | undefined>();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query') names.set(parameter.name, shapeOf(parameter.schema));
      }
      shape = { open: false, names };
    }
    // Parameters the SDK's types have and the 2024-04-10 document lacks (sdk-exceptions.ts): accepted.
    if (shape && !shape.open)
      for (const name of sdkOnlyParameters(lower, template)) shape.names.set(name, { open: true });
    cache.set(key, shape);
    return shape;
  }

  function walk(value: unknown, shape: Shape | undefined, path: string[]): void {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, shape, [...path, String(index)]));
      return;
    }
    if (typeof value !== 'object' || value === null || !shape || shape.open) return;
    for (const [name, inner] of Object.entries(value)) {
      if (!shape.names.has(name)) {
        const param = [...path, name].map((part, index) => (index === 0 ? part : `[${part}]`)).join('');
        throw new StripeApiError(400, 'invalid_request_error', `Received unknown parameter: ${param}`, {
          code: 'parameter_unknown',
          param,
        });
      }
      walk(inner, shape.names.get(name), [...path, name]);
    }
  }

  return (method, path, params) => walk(params, operationShape(method, path), []);
}
