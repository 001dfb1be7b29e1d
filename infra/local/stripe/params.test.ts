import { describe, expect, it } from 'vitest';
import { StripeApiError } from './errors';
import { amount, createdFilter, mergeMetadata, page, parseParams } from './params';

describe('form parameters', () => {
  it('nests brackets and reads both array forms, as Stripe does', () => {
    expect(parseParams('individual[dob][day]=1&individual[first_name]=Jenny')).toEqual({
      individual: { dob: { day: '1' }, first_name: 'Jenny' },
    });
    expect(parseParams('expand[]=a&expand[]=b')).toEqual({ expand: ['a', 'b'] });
    expect(parseParams('payment_method_types[0]=card&payment_method_types[1]=link')).toEqual({
      payment_method_types: ['card', 'link'],
    });
    expect(parseParams('metadata[note]=a%20b%26c')).toEqual({ metadata: { note: 'a b&c' } });
  });

  it('does not let a parameter reach the prototype', () => {
    const parsed = parseParams('__proto__[polluted]=yes&constructor[prototype][x]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('refuses a missing or non-positive amount with Stripe’s codes', () => {
    const refusal = (text: string) => {
      try {
        amount(parseParams(text));
      } catch (error) {
        return error instanceof StripeApiError ? error.body('req_1').error : undefined;
      }
      return undefined;
    };
    expect(refusal('')).toMatchObject({
      code: 'parameter_missing',
      param: 'amount',
      message: 'Missing required param: amount.',
    });
    expect(refusal('amount=ten')).toMatchObject({ code: 'parameter_invalid_integer', param: 'amount' });
    expect(refusal('amount=0')).toMatchObject({ param: 'amount' });
    expect(amount(parseParams('amount=250'))).toBe(250);
  });

  it('merges metadata and removes a key given empty', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, parseParams('metadata[b]=&metadata[c]=3'))).toEqual({ a: '1', c: '3' });
    expect(mergeMetadata({ a: '1' }, parseParams('metadata='))).toEqual({});
  });

  it('pages with limit and starting_after', () => {
    const items = ['a', 'b', 'c'].map((id) => ({ id }));
    expect(page(items, parseParams('limit=2'), '/v1/x')).toEqual({
      object: 'list',
      data: [{ id: 'a' }, { id: 'b' }],
      has_more: true,
      url: '/v1/x',
    });
    expect(page(items, parseParams('starting_after=b'), '/v1/x').data).toEqual([{ id: 'c' }]);
  });

  it('filters by created as Stripe reads it: an exact time or gt, gte, lt, lte', () => {
    const times = [99, 100, 150, 200, 201];
    const kept = (text: string) => times.filter(createdFilter(parseParams(text)));
    expect(kept('')).toEqual(times);
    expect(kept('created=150')).toEqual([150]);
    expect(kept('created[gte]=100&created[lte]=200')).toEqual([100, 150, 200]);
    expect(kept('created[gt]=100&created[lt]=200')).toEqual([150]);
    const refusal = (text: string) => {
      try {
        createdFilter(parseParams(text));
      } catch (error) {
        return error instanceof StripeApiError ? error.body('req_1').error : undefined;
      }
      return undefined;
    };
    expect(refusal('created[gte]=yesterday')).toMatchObject({
      code: 'parameter_invalid_integer',
      param: 'created[gte]',
    });
    expect(refusal('created[after]=1')).toMatchObject({ code: 'parameter_unknown', param: 'created[after]' });
  });
});
