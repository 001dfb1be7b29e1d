import { ROOT_STACK, assemblyFromTemplates } from '../../infra/local/iam/assembly';
import { localContexts, synthesizeTemplates, TEST_TEMPLATE_CACHE } from '../../infra/local/template';
import { decide, simulate } from '../../infra/local/iam/evaluate';
import { policyFor } from '../../infra/local/iam/policy';
import { requestsFor } from '../../infra/local/iam/requests';
import { formatTable, median, type BenchSection } from './section';

/**
 * The local IAM check's cost per SDK call (issue 36, docs/decisions/0355-iam-enforced-locally.md):
 * one iam-simulate evaluation of a function's role (the first time a function asks a question),
 * and the same question answered again from the check's cache (every later call of that kind).
 * A figure, not a budget: the check adds this to each local call, and nothing in AWS.
 */
const ROUNDS = 5;
const SIMULATIONS = 200;
const CACHED = 50_000;

export const localIam: BenchSection = {
  name: 'iam',
  description: 'the local IAM check per SDK call (iam-simulate, then its cache)',
  async run() {
    // The handler tests' synth (cached in cdk.out/local-template): the roles every local run is held to.
    const { templates } = await synthesizeTemplates({
      cacheDir: TEST_TEMPLATE_CACHE,
      contexts: localContexts({ env: {} }),
    });
    const assembly = assemblyFromTemplates(templates);
    // The table by its local name; the buckets keep their logical ids as names.
    const tableId = Object.entries(assembly.stacks[ROOT_STACK]!.Resources).find(
      ([, resource]) => (resource as { Type: string }).Type === 'AWS::DynamoDB::Table',
    )![0];
    const names = { [tableId]: 'reseller-portal' };
    const importsBucket = Object.keys(assembly.stacks[ROOT_STACK]!.Resources).find((id) =>
      id.startsWith('ImportsBucket'),
    )!;
    const cases = [
      [
        'getOrders: Query on an index',
        policyFor(assembly, 'getOrders', names),
        requestsFor('DynamoDBClient', 'QueryCommand', { TableName: 'reseller-portal', IndexName: 'gsi1' })[0]!,
      ],
      [
        'getOrders: PutItem (denied)',
        policyFor(assembly, 'getOrders', names),
        requestsFor('DynamoDBClient', 'PutItemCommand', { TableName: 'reseller-portal' })[0]!,
      ],
      [
        'importProducts: GetObject',
        policyFor(assembly, 'importProducts', names),
        requestsFor('S3Client', 'GetObjectCommand', { Bucket: importsBucket, Key: 'imports/a/b.csv' })[0]!,
      ],
    ] as const;
    const rows: string[][] = [];
    for (const [label, policy, request] of cases) {
      const uncached: number[] = [];
      const cached: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let started = performance.now();
        for (let i = 0; i < SIMULATIONS; i++) await simulate(policy, request);
        uncached.push(((performance.now() - started) * 1000) / SIMULATIONS);
        started = performance.now();
        for (let i = 0; i < CACHED; i++) await decide(policy, request);
        cached.push(((performance.now() - started) * 1000) / CACHED);
      }
      rows.push([label, `${median(uncached).toFixed(0)} µs`, `${median(cached).toFixed(2)} µs`]);
    }
    return {
      ok: true,
      lines: formatTable(['call', 'evaluated (iam-simulate)', 'cached'], rows, ['left', 'right', 'right']),
    };
  },
};
