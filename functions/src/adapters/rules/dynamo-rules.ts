import { GetCommand, QueryCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { GROUP_PREFIX, RULE_AUDIT_PARTITION, keys } from '@portal/shared/db/table';
import type { CommissionRule } from '@portal/shared/domain/commission-rules';
import type { AuditRecord, GroupMemberRecord, RuleStore, StoredGroup, StoredProgramme } from '../../rules/rule-store';
import { db, decodeCursor, encodeCursor, tableName, transact } from '../dynamo-client';

/**
 * The commission rules on the table (rules/rule-store.ts; decision 0420): the programme item
 * (`PROGRAMME` / `COMMISSION_RULES`: `version`, `rules`, `groups` by id), each member's groups
 * (`USER#<id>` / `RULE_GROUPS`), a group's members (`GROUP#<id>` / `MEMBER#<id>`) and the audit log
 * (`AUDIT#COMMISSION_RULES` / `<time>#<id>`). Every write is one transaction with its audit entry;
 * every change of the rules or of the groups also puts the programme's version item (`PROGRAMME` /
 * `VERSION`, decision 0480). A member put in a group or taken out moves a group's `memberCount`
 * only, which no sale reads (a sale reads the member's own groups item each time): no version.
 */

/** `rules`, `version` and `groups` named by placeholders (DynamoDB reserves some such words). */
const NAMES = { '#rules': 'rules', '#version': 'version', '#groups': 'groups' };

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

/** Without the attributes that are undefined (DynamoDB stores no undefined). */
const stored = (rule: CommissionRule): Record<string, unknown> =>
  Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined));

function fromRule(item: Record<string, unknown>): CommissionRule {
  const rate = item.rate as CommissionRule['rate'];
  return {
    id: String(item.id),
    scope: item.scope as CommissionRule['scope'],
    value: String(item.value ?? ''),
    rate:
      rate.kind === 'percent'
        ? { kind: 'percent', basisPoints: Number(rate.basisPoints) }
        : { kind: 'fixed', cents: Number(rate.cents) },
    ...(typeof item.minCents === 'number' ? { minCents: item.minCents } : {}),
    ...(typeof item.maxCents === 'number' ? { maxCents: item.maxCents } : {}),
    createdAt: String(item.createdAt),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
  };
}

/**
 * The programme's version item, put in the transaction of every change of the rules or the groups
 * (with the programme's own `version`, which the change's condition checks): decision 0480.
 */
const versionPut = (version: number): TransactItems[number] => ({
  Put: { TableName: tableName(), Item: { ...keys.programmeVersion(), entity: 'programme-version', version } },
});

const auditPut = (entry: AuditRecord): TransactItems[number] => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.ruleAudit(entry.at, entry.id), entity: 'rule-audit', ...entry },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const dynamoRules: RuleStore = {
  async programme() {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.programme(), ConsistentRead: true }),
    );
    if (!Item) return { version: 0, rules: [], groups: [] };
    const groups = Object.entries((Item.groups ?? {}) as Record<string, Record<string, unknown>>).map(
      ([id, group]): StoredGroup => ({
        id,
        name: String(group.name),
        memberCount: Number(group.memberCount ?? 0),
        createdAt: String(group.createdAt),
      }),
    );
    groups.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return {
      version: Number(Item.version ?? 0),
      rules: ((Item.rules ?? []) as Record<string, unknown>[]).map(fromRule),
      groups,
    } satisfies StoredProgramme;
  },

  async programmeVersion() {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.programmeVersion(), ConsistentRead: true }),
    );
    return Number(Item?.version ?? 0);
  },

  async groupsOf(memberId) {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.memberGroups(memberId), ConsistentRead: true }),
    );
    const ids = Item?.groupIds as Set<string> | undefined;
    return ids ? [...ids].sort() : [];
  },

  async saveRules(expectedVersion, rules, entry) {
    const outcome = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: keys.programme(),
          UpdateExpression:
            'SET #rules = :rules, #version = :next, entity = :entity, #groups = if_not_exists(#groups, :none)',
          ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : '#version = :version',
          ExpressionAttributeNames: NAMES,
          ExpressionAttributeValues: {
            ':rules': rules.map(stored),
            ':next': expectedVersion + 1,
            ':entity': 'programme',
            ':none': {},
            ...(expectedVersion === 0 ? {} : { ':version': expectedVersion }),
          },
        },
      },
      versionPut(expectedVersion + 1),
      auditPut(entry),
    ]);
    return outcome.ok;
  },

  async createGroup(expectedVersion, group, entry) {
    const value = { name: group.name, memberCount: 0, createdAt: group.createdAt };
    const write: TransactItems[number] =
      expectedVersion === 0
        ? {
            Put: {
              TableName: tableName(),
              Item: { ...keys.programme(), entity: 'programme', version: 1, rules: [], groups: { [group.id]: value } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          }
        : {
            Update: {
              TableName: tableName(),
              Key: keys.programme(),
              UpdateExpression: 'SET #groups.#group = :group, #version = :next',
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#groups': 'groups', '#version': 'version', '#group': group.id },
              ExpressionAttributeValues: { ':group': value, ':next': expectedVersion + 1, ':version': expectedVersion },
            },
          };
    return (await transact([write, versionPut(expectedVersion + 1), auditPut(entry)])).ok;
  },

  async addMember(groupId, member, entry) {
    const outcome = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.groupMember(groupId, member.id), entity: 'group-member', groupId, ...member },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.programme(),
          UpdateExpression: 'ADD #groups.#group.memberCount :one',
          ConditionExpression: 'attribute_exists(#groups.#group)',
          ExpressionAttributeNames: { '#groups': 'groups', '#group': groupId },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.memberGroups(member.id),
          UpdateExpression: 'ADD groupIds :group SET entity = :entity',
          ExpressionAttributeValues: { ':group': new Set([groupId]), ':entity': 'member-groups' },
        },
      },
      auditPut(entry),
    ]);
    if (outcome.ok) return 'added';
    return outcome.failedAt.includes(1) ? 'no-group' : 'already';
  },

  async removeMember(groupId, memberId, entry) {
    const outcome = await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.groupMember(groupId, memberId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.programme(),
          UpdateExpression: 'ADD #groups.#group.memberCount :less',
          ConditionExpression: 'attribute_exists(#groups.#group)',
          ExpressionAttributeNames: { '#groups': 'groups', '#group': groupId },
          ExpressionAttributeValues: { ':less': -1 },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.memberGroups(memberId),
          UpdateExpression: 'DELETE groupIds :group',
          ExpressionAttributeValues: { ':group': new Set([groupId]) },
        },
      },
      auditPut(entry),
    ]);
    return outcome.ok ? 'removed' : 'not-member';
  },

  async members(groupId, cursor, limit) {
    const partition = `${GROUP_PREFIX}${groupId}`;
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :partition',
        ExpressionAttributeValues: { ':partition': partition },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          attributes: ['pk', 'sk'],
          equals: { pk: partition },
          startsWith: { sk: 'MEMBER#' },
        }),
      }),
    );
    return {
      items: (page.Items ?? []).map((item): GroupMemberRecord => ({
        id: String(item.id),
        email: String(item.email),
        addedAt: String(item.addedAt),
      })),
      nextCursor: encodeCursor(page.LastEvaluatedKey),
    };
  },

  async audit(cursor, limit) {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :partition',
        ExpressionAttributeValues: { ':partition': RULE_AUDIT_PARTITION },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, { attributes: ['pk', 'sk'], equals: { pk: RULE_AUDIT_PARTITION } }),
      }),
    );
    return {
      items: (page.Items ?? []).map((item): AuditRecord => ({
        id: String(item.id),
        at: String(item.at),
        whoId: String(item.whoId),
        whoEmail: String(item.whoEmail),
        action: String(item.action),
        before: typeof item.before === 'string' ? item.before : null,
        after: typeof item.after === 'string' ? item.after : null,
      })),
      nextCursor: encodeCursor(page.LastEvaluatedKey),
    };
  },
};
