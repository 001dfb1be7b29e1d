import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contract, type EndpointName } from './contract';

/** zod's name of a schema's kind ('object', 'unknown', …). */
const kindOf = (schema: { _zod: { def: { type: string } } }) => schema._zod.def.type;

const entries = Object.entries(contract) as [EndpointName, (typeof contract)[EndpointName]][];

describe('the contract', () => {
  it('lists each call under its own name, at POST /api/<name>, with a role and a body kind', () => {
    for (const [name, entry] of entries) {
      expect([name, entry.name, entry.path]).toEqual([name, name, `/api/${name}`]);
      expect(['public', 'member', 'admin']).toContain(entry.role);
      expect(['json', 'multipart']).toContain(entry.body);
    }
  });

  it('has a module for every call and every module in the list, one file per call', () => {
    const files = readdirSync(new URL('./calls/', import.meta.url)).filter((file) => file.endsWith('.ts'));
    expect(files).toHaveLength(entries.length);
  });

  it('gives every call an answer schema that checks something, and a request schema to every JSON call', () => {
    for (const [name, entry] of entries) expect([name, kindOf(entry.response)]).not.toEqual([name, 'unknown']);
    const unchecked = entries.filter(([, entry]) => kindOf(entry.request) === 'unknown').map(([name]) => name);
    // Stripe's events (the platform's and the connected accounts' endpoints): only the signature on
    // the raw body decides, before anything reads it.
    expect(unchecked).toEqual(['stripeWebhook', 'stripeConnectWebhook']);
  });

  it('checks answers: the order marks answer the order, not anything', () => {
    expect(contract.markAsShipped.response.safeParse({ anything: true }).success).toBe(false);
    expect(contract.getCommisionsByUser.response.safeParse({ items: [] }).success).toBe(false);
  });
});
