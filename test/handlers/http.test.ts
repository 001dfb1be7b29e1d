import { describe, expect, it } from 'vitest';
import { handler as signup } from '../../functions/src/handlers/signup';
import { allItems, call } from './helpers';

/** The middy stack every /api call runs through, seen from outside as a client and an operator would. */
describe('a JSON body naming __proto__', () => {
  it('is refused with the field named, like any other unknown field', async () => {
    const before = await allItems();
    const result = await call(signup, {
      rawBody: '{"email":"proto@example.com","password":"a long password","__proto__":{"isAdmin":true}}',
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe('Invalid request. __proto__: Unknown field: remove it.');
    expect(Object.entries(result.body.fields as object)).toEqual([['__proto__', 'Unknown field: remove it.']]);
    expect(await allItems()).toEqual(before);
  });

  it('keeps the other fields named beside it', async () => {
    const result = await call(signup, { rawBody: '{"email":"not-an-email","constructor":1,"__proto__":null}' });
    expect(result.status).toBe(400);
    expect(Object.keys(result.body.fields as object).sort()).toEqual(['__proto__', 'constructor', 'email', 'password']);
  });
});
