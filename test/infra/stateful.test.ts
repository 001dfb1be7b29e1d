import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemblyTemplates } from '../../infra/lib/guard';
import { PortalStack, repoRoot } from '../../infra/lib/portal-stack';

/*
 * The stateful resources' snapshot, of the kind of CDK's integ-runner snapshot mode: what a deploy
 * must never replace or delete without someone saying so. The committed snapshot
 * (test/infra/__snapshots__/stateful-resources.json) holds each stateful resource of every template
 * (the table, the buckets, the secrets, a user pool if one comes): its logical id, type, the
 * properties whose change makes CloudFormation replace it, and its DeletionPolicy and
 * UpdateReplacePolicy. The test fails when a resource is gone (deleted, or renamed: a new logical id
 * is a new resource), a replacing property changed, or Retain was removed.
 *
 * A change made on purpose says so, either
 * - in ALLOW_STATEFUL_CHANGE below: the logical id and the reason (kept until the snapshot is updated), or
 * - by updating the snapshot: UPDATE_STATEFUL_SNAPSHOT=1 npx vitest run --project infra test/infra/stateful.test.ts
 *   (the diff of the snapshot file is then what the reviewer reads).
 */
const ALLOW_STATEFUL_CHANGE: { logicalId: string; reason: string }[] = [];

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation templates are untyped JSON */
type Template = { Resources: Record<string, any> };

const snapshotFile = path.join(repoRoot, 'test/infra/__snapshots__/stateful-resources.json');
const updateCommand = 'UPDATE_STATEFUL_SNAPSHOT=1 npx vitest run --project infra test/infra/stateful.test.ts';

/**
 * The stateful types and, for each, the properties whose change replaces the resource
 * (CloudFormation's "Update requires: Replacement"), as far as this stack can set them.
 */
const REPLACING: Record<string, (properties: any) => Record<string, unknown>> = {
  'AWS::DynamoDB::Table': (p) => {
    const keys = new Set((p.KeySchema ?? []).map((k: any) => k.AttributeName));
    return {
      TableName: p.TableName,
      KeySchema: p.KeySchema,
      // Only the key attributes' definitions: an index's may change without a replacement.
      AttributeDefinitions: (p.AttributeDefinitions ?? []).filter((a: any) => keys.has(a.AttributeName)),
      LocalSecondaryIndexes: p.LocalSecondaryIndexes,
    };
  },
  'AWS::S3::Bucket': (p) => ({ BucketName: p.BucketName, ObjectLockEnabled: p.ObjectLockEnabled }),
  'AWS::SecretsManager::Secret': (p) => ({ Name: p.Name }),
  'AWS::Cognito::UserPool': (p) => ({
    UserPoolName: p.UserPoolName,
    AliasAttributes: p.AliasAttributes,
    UsernameAttributes: p.UsernameAttributes,
    UsernameConfiguration: p.UsernameConfiguration,
    Schema: p.Schema,
  }),
};

interface StatefulResource {
  /** `<template>/<logical id>`, the template named as its file is without `.template.json`. */
  key: string;
  logicalId: string;
  type: string;
  deletionPolicy: string | null;
  updateReplacePolicy: string | null;
  replacing: Record<string, unknown>;
}

/** The stateful resources of a set of templates (file name → template), sorted by key. */
function statefulResources(templates: Map<string, Template>): StatefulResource[] {
  const found: StatefulResource[] = [];
  for (const [file, template] of templates) {
    const stack = file.replace(/(\.nested)?\.template\.json$/, '');
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      const replacing = REPLACING[resource.Type];
      if (!replacing) continue;
      found.push({
        key: `${stack}/${logicalId}`,
        logicalId,
        type: resource.Type,
        deletionPolicy: resource.DeletionPolicy ?? null,
        updateReplacePolicy: resource.UpdateReplacePolicy ?? null,
        // A property the template leaves out is null (e.g. BucketName: null, CloudFormation names it).
        replacing: Object.fromEntries(
          Object.entries(replacing(resource.Properties ?? {})).map(([name, value]) => [name, value ?? null]),
        ),
      });
    }
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * What a deploy of `current` would do to the stateful resources of `snapshot`, in words: each
 * deletion, replacement or loss of Retain, unless ALLOW_STATEFUL_CHANGE (or `allowed`) names it.
 */
function destructiveChanges(
  snapshot: StatefulResource[],
  current: StatefulResource[],
  allowed: { logicalId: string; reason: string }[] = ALLOW_STATEFUL_CHANGE,
): string[] {
  const now = new Map(current.map((r) => [r.key, r]));
  const problems: string[] = [];
  for (const before of snapshot) {
    if (allowed.some((a) => a.logicalId === before.logicalId && a.reason.trim().length > 0)) continue;
    const after = now.get(before.key);
    if (!after) {
      problems.push(
        `${before.key} (${before.type}) is gone: the deploy would delete it (or replace it, if its logical id was renamed)${before.deletionPolicy === 'Retain' ? ', leaving the old one orphaned in the account' : ' with its data'}.`,
      );
      continue;
    }
    if (after.type !== before.type) {
      problems.push(`${before.key} changed type ${before.type} → ${after.type}: the deploy would replace it.`);
    }
    for (const property of new Set([...Object.keys(before.replacing), ...Object.keys(after.replacing)])) {
      const was = JSON.stringify(before.replacing[property] ?? null);
      const is = JSON.stringify(after.replacing[property] ?? null);
      if (was !== is) {
        problems.push(
          `${before.key} (${before.type}): ${property} changed from ${was} to ${is}: the deploy would replace it.`,
        );
      }
    }
    for (const [policy, was, is] of [
      ['DeletionPolicy', before.deletionPolicy, after.deletionPolicy],
      ['UpdateReplacePolicy', before.updateReplacePolicy, after.updateReplacePolicy],
    ] as const) {
      if (was === 'Retain' && is !== 'Retain') {
        problems.push(
          `${before.key} (${before.type}): ${policy} Retain removed (now ${is ?? 'Delete'}): the resource and its data would no longer survive a deletion or replacement.`,
        );
      }
    }
  }
  return problems;
}

/** The feature flags of cdk.json, so the test synthesizes what `npm run synth` does. */
const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context;

let work: string;
let templates: Map<string, Template>;
let current: StatefulResource[];

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'portal-stateful-'));
  const outdir = path.join(work, 'cdk.out');
  const app = new App({ outdir, context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
  new PortalStack(app, 'ResellerPortal', {
    siteDist: { member: path.join(work, 'none'), admin: path.join(work, 'none') },
    mail: { from: 'Reseller Portal <no-reply@portal.example>' },
  });
  app.synth();
  templates = new Map(
    assemblyTemplates(outdir).map((file) => [path.basename(file), JSON.parse(readFileSync(file, 'utf8'))]),
  );
  current = statefulResources(templates);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function readSnapshot(): StatefulResource[] {
  return JSON.parse(readFileSync(snapshotFile, 'utf8'));
}

describe('stateful resources (snapshot)', () => {
  it('no deploy replaces or deletes a stateful resource unless the change says so', () => {
    if (process.env.UPDATE_STATEFUL_SNAPSHOT === '1') {
      writeFileSync(snapshotFile, `${JSON.stringify(current, null, 2)}\n`);
    }
    const snapshot = readSnapshot();
    expect(destructiveChanges(snapshot, current), `or, on purpose: ${updateCommand}`).toEqual([]);
    // Anything else that differs (a new bucket, a policy made stricter): the snapshot is updated too.
    expect(current, `the snapshot is out of date: ${updateCommand}`).toEqual(snapshot);
  });

  it('holds the table, every bucket and every secret, with what replaces them', () => {
    const types = current.map((r) => r.type);
    expect(types.filter((t) => t === 'AWS::DynamoDB::Table')).toHaveLength(1);
    expect(types.filter((t) => t === 'AWS::S3::Bucket').length).toBeGreaterThanOrEqual(4);
    expect(types.filter((t) => t === 'AWS::SecretsManager::Secret').length).toBeGreaterThanOrEqual(5);
    const table = current.find((r) => r.type === 'AWS::DynamoDB::Table')!;
    expect(table.replacing.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(table).toMatchObject({ deletionPolicy: 'Retain', updateReplacePolicy: 'Retain' });
  });

  it('every reason to allow a change is given', () => {
    for (const allowed of ALLOW_STATEFUL_CHANGE) {
      expect(allowed.reason.trim().length, allowed.logicalId).toBeGreaterThanOrEqual(20);
      expect(
        readSnapshot().some((r) => r.logicalId === allowed.logicalId),
        `${allowed.logicalId} is in the snapshot`,
      ).toBe(true);
    }
  });
});

describe('the comparison itself (a modified template fed to it)', () => {
  const mainName = 'ResellerPortal.template.json';
  const tableId = (t: Map<string, Template>): string =>
    Object.keys(t.get(mainName)!.Resources).find(
      (id) => t.get(mainName)!.Resources[id].Type === 'AWS::DynamoDB::Table',
    )!;
  function changed(change: (t: Map<string, Template>) => void): StatefulResource[] {
    const copy = new Map([...templates].map(([name, t]) => [name, structuredClone(t)]));
    change(copy);
    return statefulResources(copy);
  }

  it("fails when the table's logical id is renamed", () => {
    const after = changed((t) => {
      const resources = t.get(mainName)!.Resources;
      const id = tableId(t);
      resources.RenamedTable = resources[id];
      delete resources[id];
    });
    expect(destructiveChanges(current, after, [])).toEqual([
      `ResellerPortal/${tableId(templates)} (AWS::DynamoDB::Table) is gone: the deploy would delete it (or replace it, if its logical id was renamed), leaving the old one orphaned in the account.`,
    ]);
  });

  it("fails when the table's key schema changes", () => {
    const after = changed((t) => {
      const table = t.get(mainName)!.Resources[tableId(t)];
      table.Properties.KeySchema = [{ AttributeName: 'pk', KeyType: 'HASH' }];
    });
    expect(destructiveChanges(current, after, [])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ResellerPortal/${tableId(templates)} \\(AWS::DynamoDB::Table\\): KeySchema changed from .*: the deploy would replace it\\.$`,
        ),
      ),
      // The sort key's definition goes with it.
      expect.stringMatching(/: AttributeDefinitions changed from .*"sk".* to .*: the deploy would replace it\.$/),
    ]);
  });

  it('fails when a bucket is given a name, a secret a new name, or the table loses Retain', () => {
    const after = changed((t) => {
      const resources = t.get(mainName)!.Resources;
      const bucket = Object.keys(resources).find(
        (id) => id.startsWith('ImagesBucket') && resources[id].Type === 'AWS::S3::Bucket',
      )!;
      resources[bucket].Properties.BucketName = 'portal-images';
      const secret = Object.keys(resources).find((id) => resources[id].Type === 'AWS::SecretsManager::Secret')!;
      resources[secret].Properties.Name = 'portal/renamed';
      delete resources[tableId(t)].DeletionPolicy;
    });
    const problems = destructiveChanges(current, after, []);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(
      /ImagesBucket\w+ \(AWS::S3::Bucket\): BucketName changed from null to "portal-images"/,
    );
    expect(problems.join('\n')).toMatch(/\(AWS::SecretsManager::Secret\): Name changed from null to "portal\/renamed"/);
    expect(problems.join('\n')).toMatch(/\(AWS::DynamoDB::Table\): DeletionPolicy Retain removed \(now Delete\)/);
  });

  it('passes the same change when ALLOW_STATEFUL_CHANGE names it with a reason, and not without one', () => {
    const after = changed((t) => {
      t.get(mainName)!.Resources[tableId(t)].Properties.KeySchema = [{ AttributeName: 'pk', KeyType: 'HASH' }];
    });
    const id = tableId(templates);
    expect(
      destructiveChanges(current, after, [{ logicalId: id, reason: 'Moving to a new table on purpose (ADR)' }]),
    ).toEqual([]);
    expect(destructiveChanges(current, after, [{ logicalId: id, reason: ' ' }])).not.toEqual([]);
  });

  it('a change that replaces nothing is not destructive (an index added, a retention made Retain)', () => {
    const after = changed((t) => {
      const resources = t.get(mainName)!.Resources;
      const table = resources[tableId(t)];
      table.Properties.AttributeDefinitions.push({ AttributeName: 'gsi9pk', AttributeType: 'S' });
      const secret = Object.keys(resources).find((id) => resources[id].Type === 'AWS::SecretsManager::Secret')!;
      resources[secret].DeletionPolicy = 'Retain';
    });
    expect(destructiveChanges(current, after, [])).toEqual([]);
  });
});
