import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStripeOpenApi } from './openapi';

// Compiling Stripe's whole document takes seconds on a busy machine: room beyond vitest's 5 s.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/** The checker the conformance test relies on catches what it should. */
describe('the OpenAPI checker', () => {
  let openApi: ReturnType<typeof loadStripeOpenApi>;
  beforeAll(() => {
    openApi = loadStripeOpenApi();
  });

  const balance = { object: 'balance', available: [{ amount: 0, currency: 'usd' }], livemode: false, pending: [] };

  it('accepts a documented answer and parameters', () => {
    expect(openApi.check({ method: 'GET', path: '/v1/balance', params: {}, status: 200, body: balance })).toEqual([]);
    expect(
      openApi.check({
        method: 'POST',
        path: '/v1/transfers',
        params: { amount: '100', currency: 'usd', destination: 'acct_1', metadata: { a: 'b' } },
        status: 400,
        body: { error: { type: 'invalid_request_error', message: 'x' } },
      }),
    ).toEqual([]);
  });

  it('refuses an undocumented body parameter and a value of the wrong type', () => {
    const problems = openApi.check({
      method: 'POST',
      path: '/v1/transfers',
      params: { amount: 'ten', currency: 'usd', destination: 'acct_1', colour: 'red' },
      status: 400,
      body: { error: { type: 'invalid_request_error' } },
    });
    expect(problems.join('\n')).toMatch(/additionalProperty.*colour/);
    expect(problems.join('\n')).toMatch(/\/amount must be integer/);
  });

  it('refuses an undocumented nested body parameter', () => {
    const problems = openApi.check({
      method: 'POST',
      path: '/v1/accounts/acct_1',
      params: { individual: { first_name: 'Jenny', nickname: 'J' } },
      status: 400,
      body: { error: { type: 'invalid_request_error' } },
    });
    expect(problems.join('\n')).toMatch(/\/individual .*additionalProperty.*nickname/);
  });

  it('refuses an undocumented query parameter', () => {
    const problems = openApi.check({
      method: 'GET',
      path: '/v1/balance',
      params: { colour: 'red' },
      status: 200,
      body: balance,
    });
    expect(problems).toEqual(['request parameter colour is not documented']);
  });

  it('refuses an answer missing a required field, and null where the field is not nullable', () => {
    const { livemode: _livemode, ...withoutLivemode } = balance;
    expect(
      openApi.check({ method: 'GET', path: '/v1/balance', params: {}, status: 200, body: withoutLivemode }).join(),
    ).toMatch(/livemode/);
    expect(
      openApi.check({
        method: 'GET',
        path: '/v1/balance',
        params: {},
        status: 200,
        body: { ...balance, available: null },
      }),
    ).not.toEqual([]);
  });

  it('takes null where the document says nullable', () => {
    const transfer = {
      id: 'tr_1',
      object: 'transfer',
      amount: 1,
      amount_reversed: 0,
      balance_transaction: null,
      created: 1,
      currency: 'usd',
      description: null,
      destination: 'acct_1',
      livemode: false,
      metadata: {},
      reversals: { object: 'list', data: [], has_more: false, url: '/v1/transfers/tr_1/reversals' },
      reversed: false,
      source_transaction: null,
      transfer_group: null,
    };
    expect(
      openApi.check({ method: 'GET', path: '/v1/transfers/tr_1', params: {}, status: 200, body: transfer }),
    ).toEqual([]);
    expect(
      openApi.check({
        method: 'GET',
        path: '/v1/transfers/tr_1',
        params: {},
        status: 200,
        body: { ...transfer, amount: null },
      }),
    ).not.toEqual([]);
  });

  it('checks an error answer against Stripe’s error object', () => {
    expect(
      openApi.check({
        method: 'GET',
        path: '/v1/balance',
        params: {},
        status: 401,
        body: { error: { message: 'no type' } },
      }),
    ).not.toEqual([]);
  });
});

describe('the exceptions the SDK’s types make to the 2024-04-10 document', () => {
  it('accepts a parameter the SDK declares and the old document lacks, in both checks', async () => {
    const { loadParameterCheck } = await import('./documented');
    const { SDK_ONLY_PARAMETERS } = await import('./sdk-exceptions');
    expect(SDK_ONLY_PARAMETERS.every((entry) => entry.sdkType.startsWith('Stripe.'))).toBe(true);
    const check = loadParameterCheck();
    expect(() => check('POST', '/v1/payouts', { amount: '100', currency: 'usd', payout_method: 'x' })).not.toThrow();
    expect(() => check('POST', '/v1/payouts', { amount: '100', currency: 'usd', payout_colour: 'x' })).toThrow(
      /Received unknown parameter: payout_colour/,
    );
    const problems = loadStripeOpenApi().check({
      method: 'POST',
      path: '/v1/payouts',
      params: { amount: '100', currency: 'usd', payout_method: 'x' },
      status: 400,
      body: { error: { type: 'invalid_request_error', message: 'x' } },
    });
    expect(problems).toEqual([]);
  });
});
