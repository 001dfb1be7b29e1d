import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, pathOf } from './client';
import { contract, type EndpointName } from './contract';

/** A fetch that answers every call with `status` and `body`, recording the addresses called. */
function fakeFetch(status: number, body: unknown, called: string[] = []): typeof fetch {
  return (input) => {
    called.push(String(input));
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  };
}

describe('API client', () => {
  it('calls every endpoint at the path the contract gives it, without loading the contract first', () => {
    for (const [name, entry] of Object.entries(contract)) expect(pathOf(name as EndpointName), name).toBe(entry.path);
  });

  it('answers with the parsed response, checked against the contract loaded with the call', async () => {
    const called: string[] = [];
    const call = createApiClient({ baseUrl: 'http://portal.test', fetch: fakeFetch(200, { ok: true }, called) });
    await expect(call('logout', {})).resolves.toEqual({ ok: true });
    expect(called).toEqual(['http://portal.test/api/logout']);
  });

  it('checks the answers of the calls whose schemas were once left unchecked (the order marks)', async () => {
    const wrong = createApiClient({ fetch: fakeFetch(200, { order: { id: 'o1' } }) });
    await expect(wrong('markAsShipped', { id: 'o1' })).rejects.toMatchObject({ kind: 'invalid-response' });
  });

  it('reads the error body without the schemas: its message and field messages, or the status when it has none', async () => {
    const fields = createApiClient({
      fetch: fakeFetch(400, { message: 'Invalid request.', fields: { id: 'Value is required' } }),
    });
    await expect(fields('markAsShipped', { id: '' })).rejects.toMatchObject({
      kind: 'http',
      status: 400,
      message: 'Invalid request.',
      fields: { id: 'Value is required' },
    });
    const odd = createApiClient({ fetch: fakeFetch(502, { message: 'x', fields: { id: 1 } }) });
    await expect(odd('markAsShipped', { id: 'o1' })).rejects.toMatchObject({
      message: 'Request failed with status code 502',
    });
  });

  it('refuses an answer that does not match the contract, and says the server’s words on a failure', async () => {
    const wrong = createApiClient({ fetch: fakeFetch(200, { ok: 'yes' }) });
    await expect(wrong('logout', {})).rejects.toMatchObject({ kind: 'invalid-response' });
    const refused = createApiClient({ fetch: fakeFetch(409, { message: 'Someone else decided first.' }) });
    const error = await refused('logout', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 409, message: 'Someone else decided first.' });
  });
});
