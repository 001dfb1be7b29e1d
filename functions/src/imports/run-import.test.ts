import { createReadStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FileStore, ImportJobRecord, ImportJobRepository } from './job-store';
import type { ProductRepository } from '../products/product-store';
import { runImport } from './run-import';

const fixtures = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'), 'test', 'fixtures', 'csv');

const unused = () => {
  throw new Error('not used by a rejected import');
};

/** Runs the import of one fixture with in-memory ports; answers what the job was finished with. */
async function rejectedJob(fixture: string): Promise<Partial<ImportJobRecord>> {
  const finished: Partial<ImportJobRecord>[] = [];
  const jobs: ImportJobRepository = {
    create: unused,
    get: unused,
    claim: () => Promise.resolve(1),
    progress: () => Promise.resolve(),
    checkpoint: unused,
    claimPart: unused,
    finish: (_id, _attempt, update) => {
      finished.push(update);
      return Promise.resolve();
    },
    putIssues: () => Promise.resolve(),
    clearIssuesAndRows: () => Promise.resolve(),
    issues: unused,
    putRejectedRows: () => Promise.resolve(),
    rejectedRows: unused,
    takeLease: () => Promise.resolve(null),
    renewLease: () => Promise.resolve(),
    releaseLease: () => Promise.resolve(),
  };
  const products: ProductRepository = {
    get: unused,
    states: () => Promise.resolve(new Map()),
    putNew: unused,
    knownIds: () => Promise.resolve(new Set<string>()),
    revise: unused,
    inReview: unused,
    approvedPage: unused,
    approve: unused,
    ban: unused,
    move: unused,
    catalogue: unused,
    reviewCount: unused,
  };
  const files: FileStore = {
    put: unused,
    read: () => Promise.resolve(createReadStream(join(fixtures, fixture))),
    presignedPost: unused,
    bucket: () => 'imports',
  };
  const outcome = await runImport({ jobs, products, files }, { bucket: 'imports', key: `uploads/${fixture}` });
  expect(outcome).toBe('rejected');
  expect(finished).toHaveLength(1);
  return finished[0] ?? {};
}

const times = (text: string, phrase: string) => text.split(phrase).length - 1;

describe('runImport of a file refused as a whole', () => {
  it.each(['unterminated-quote.csv', 'missing-columns.csv', 'semicolon-delimited.csv', 'empty.csv'])(
    '%s: the failure says "No rows were imported." exactly once, at the end',
    async (fixture) => {
      const job = await rejectedJob(fixture);
      expect(job.status).toBe('rejected');
      const failure = String(job.failure);
      expect(times(failure, 'No rows were imported')).toBe(1);
      expect(failure).toMatch(/\S\. No rows were imported\.$/);
    },
  );
});
