import { parse } from 'qs';
import { invalid, missing } from './errors';

/** A request's parameters as Stripe reads them: `a[b][c]=1` nests, `a[]=x` and `a[0]=x` are arrays. */
export type Params = Record<string, unknown>;

export function parseParams(text: string): Params {
  return parse(text, { depth: 20, arrayLimit: 100, parameterLimit: 10_000, allowPrototypes: false });
}

/** The value at a bracketed path such as `individual[dob][day]`, given as `['individual', 'dob', 'day']`. */
export function at(params: Params, ...path: string[]): unknown {
  let value: unknown = params;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const bracketed = (path: string[]): string =>
  path[0] +
  path
    .slice(1)
    .map((key) => `[${key}]`)
    .join('');

export function optionalString(params: Params, ...path: string[]): string | undefined {
  const value = at(params, ...path);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(bracketed(path), `Invalid string: ${JSON.stringify(value)}`);
  return value;
}

export function requiredString(params: Params, ...path: string[]): string {
  const value = optionalString(params, ...path);
  if (value === undefined || value === '') throw missing(bracketed(path));
  return value;
}

export function optionalInteger(params: Params, ...path: string[]): number | undefined {
  const value = optionalString(params, ...path);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw invalid(bracketed(path), `Invalid integer: ${value}`, 'parameter_invalid_integer');
  }
  return Number(value);
}

export function requiredInteger(params: Params, ...path: string[]): number {
  const value = optionalInteger(params, ...path);
  if (value === undefined) throw missing(bracketed(path));
  return value;
}

/** A positive amount in the smallest currency unit. */
export function amount(params: Params): number {
  const value = requiredInteger(params, 'amount');
  if (value < 1) throw invalid('amount', 'This value must be greater than or equal to 1.', 'parameter_invalid_integer');
  return value;
}

export function currency(params: Params): string {
  return requiredString(params, 'currency').toLowerCase();
}

/** `metadata[key]=value` pairs; an empty value removes the key, as Stripe does. */
export function mergeMetadata(current: Record<string, string>, params: Params): Record<string, string> {
  const given = at(params, 'metadata');
  if (given === undefined || given === '') return given === '' ? {} : current;
  if (typeof given !== 'object' || given === null) throw invalid('metadata', 'Invalid metadata');
  const next = { ...current };
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalid(`metadata[${key}]`, 'Invalid metadata value');
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** `limit` (1 to 100, default 10) and `starting_after` of a list call. */
export function page<T extends { id: string }>(
  items: T[],
  params: Params,
  url: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const limit = optionalInteger(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalid('limit', 'This value must be between 1 and 100.');
  const after = optionalString(params, 'starting_after');
  let start = 0;
  if (after) {
    const index = items.findIndex((item) => item.id === after);
    if (index < 0) throw invalid('starting_after', `No such object: '${after}'`, 'resource_missing');
    start = index + 1;
  }
  const data = items.slice(start, start + limit);
  return { object: 'list', data, has_more: start + limit < items.length, url };
}

const RANGE_KEYS = ['gt', 'gte', 'lt', 'lte'] as const;

/**
 * A list call's `created` filter, as Stripe reads it: an exact Unix time (`created=1700000000`) or
 * a range (`created[gte]=…&created[lt]=…`, any of gt, gte, lt, lte), each an integer. Answers a
 * test for an object's `created`; no filter lets everything through. An unknown key or a value
 * that is not an integer is Stripe's 400 naming the parameter.
 */
export function createdFilter(params: Params): (created: number) => boolean {
  const given = at(params, 'created');
  if (given === undefined) return () => true;
  if (typeof given === 'string') {
    const exact = optionalInteger(params, 'created')!;
    return (created) => created === exact;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw invalid('created', `Invalid integer: ${JSON.stringify(given)}`, 'parameter_invalid_integer');
  }
  for (const key of Object.keys(given)) {
    if (!(RANGE_KEYS as readonly string[]).includes(key)) {
      throw invalid(`created[${key}]`, `Received unknown parameter: created[${key}]`, 'parameter_unknown');
    }
  }
  const [gt, gte, lt, lte] = RANGE_KEYS.map((key) => optionalInteger(params, 'created', key));
  return (created) =>
    (gt === undefined || created > gt) &&
    (gte === undefined || created >= gte) &&
    (lt === undefined || created < lt) &&
    (lte === undefined || created <= lte);
}
