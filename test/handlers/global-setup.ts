import type { TestProject } from 'vitest/node';
import { startDynamo, type LocalDynamo } from '../../infra/local/dynamo';
import { startS3, type LocalS3 } from '../../infra/local/s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One DynamoDB Local (in memory) and one S3 server for the whole handler run; each file gets its own table. */
let dynamo: LocalDynamo | undefined;
let s3: LocalS3 | undefined;
let s3Dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  s3Dir = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  [dynamo, s3] = await Promise.all([
    startDynamo(),
    startS3({ dataDir: join(s3Dir, 's3'), spoolDir: join(s3Dir, 's3-incoming') }),
  ]);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
}

export async function teardown(): Promise<void> {
  await Promise.all([dynamo?.stop(), s3?.stop()]);
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    s3Endpoint: string;
  }
}
