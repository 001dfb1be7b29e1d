import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getApprovedProducts } from '../../functions/src/handlers/get-approved-products';
import { handler as getImportIssues } from '../../functions/src/handlers/get-import-issues';
import { handler as getUnApproved } from '../../functions/src/handlers/get-unapproved-products';
import { INVALID_CURSOR } from '../../functions/src/adapters/dynamo-client';
import { dynamoImports } from '../../functions/src/adapters/imports/dynamo-imports';
import { queuedJob } from '../../functions/src/imports/jobs';
import { auth, call, tokenFor, type CallResult } from './helpers';

/**
 * A page cursor comes back from the browser, so anyone can craft one. Each list checks it before
 * DynamoDB sees it: exactly the key attributes of the index it reads, all strings, in the
 * partition it reads. Anything else is a 400 naming the cursor, never a 500.
 */
let admin = '';
let member = '';
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jobId = 'job-for-cursors';

beforeAll(async () => {
  [admin, member] = await Promise.all([tokenFor(true), tokenFor(false)]);
  // The issues list of a job that exists: an unknown job is a 404 before any cursor is read.
  await dynamoImports.create({ ...queuedJob('cursors.csv', 'imports', new Date().toISOString()), id: jobId });
});

const product = { pk: 'PRODUCT#abc', sk: 'PRODUCT' };
const approvedKey = { ...product, gsi2pk: 'PRODUCTS#APPROVED', gsi2sk: '2026-01-01T00:00:00.000Z#abc' };
const reviewKey = { ...product, gsi1pk: 'PRODUCTS#REVIEW', gsi1sk: '2026-01-01T00:00:00.000Z#abc' };
const issueKey = { pk: `IMPORT#${jobId}`, sk: 'ISSUE#000000001' };

const lists = [
  ['getApprovedProducts', () => getApprovedProducts, () => member, {}, approvedKey, reviewKey],
  ['getUnApprovedProducts', () => getUnApproved, () => admin, {}, reviewKey, approvedKey],
  ['getImportIssues', () => getImportIssues, () => admin, { id: jobId }, issueKey, { ...issueKey, pk: 'IMPORT#other' }],
] as const;

function crafted(good: Record<string, string>, other: Record<string, string>): [string, string][] {
  const [first] = Object.keys(good);
  const lastKey = Object.keys(good).at(-1)!;
  const { [lastKey]: _dropped, ...missingSort } = good;
  return [
    ['the issue example {"pk":"x"}', encode({ pk: 'x' })],
    ['a missing sort key', encode(missingSort)],
    ['an extra attribute', encode({ ...good, extra: 'x' })],
    ['another partition', encode(other)],
    ['a number where a string belongs', encode({ ...good, [first!]: 1 })],
    ['an empty object', encode({})],
    ['JSON that is not an object', encode(['pk', 'sk'])],
    ['text that is not JSON', Buffer.from('pk=x').toString('base64url')],
  ];
}

describe.each(lists)('%s', (_name, handler, token, body, good, other) => {
  it.each(crafted(good, other))('refuses %s with 400 naming the cursor', async (_case, cursor) => {
    const result: CallResult = await call(handler(), { body: { ...body, cursor }, headers: auth(token()) });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ message: INVALID_CURSOR, fields: { cursor: INVALID_CURSOR } });
  });

  it('accepts a well-formed cursor of its own list', async () => {
    const result = await call(handler(), { body: { ...body, cursor: encode(good) }, headers: auth(token()) });
    expect(result.status).toBe(200);
  });
});
