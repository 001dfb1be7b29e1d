import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import { commissionRules, users } from '../../functions/src/composition';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { changeGroup, changeRule } from '../../functions/src/rules/programme';

/**
 * The demo of the commission rules (issue 39), seeded once per data folder after the demo sales
 * (which stay at the spec's 10 %, as recorded): a brand rule (Soundfold, 15 %), a product rule
 * (Desk Lamp Pro, 20 %), and a "Top sellers" group (12.5 %) with the demo member in it, each made
 * by the demo admin as the screen makes them, so the audit log has its first entries. The member
 * sees the rules' You Make on their cards; the admin sees the rules, the group and the changes.
 */
export const DEMO_RULES_MARKER = { pk: 'DEMO#rules', sk: 'DEMO' };
/** Desk Lamp Pro (demo-catalogue.ts: the lamp in the third style). */
export const DEMO_RULE_PRODUCT_SPU = 'DEMO-026';
export const DEMO_RULE_BRAND = 'Soundfold';
export const DEMO_GROUP = 'Top sellers';

export type DemoRules = { seeded: true } | { seeded: false; reason: 'seeded-before' | 'no-accounts' };

export async function seedDemoRules(options: { adminEmail: string; memberEmail: string }): Promise<DemoRules> {
  const marker = await db().send(
    new GetCommand({ TableName: tableName(), Key: DEMO_RULES_MARKER, ConsistentRead: true }),
  );
  if (marker.Item) return { seeded: false, reason: 'seeded-before' };
  const [admin, member] = await Promise.all([
    users.findByEmail(options.adminEmail),
    users.findByEmail(options.memberEmail),
  ]);
  if (!admin || !member) return { seeded: false, reason: 'no-accounts' };
  const by = { id: admin.id, email: admin.email };
  let programme = await commissionRules.store.programme();
  const has = (scope: string, value: string) => programme.rules.some((r) => r.scope === scope && r.value === value);
  if (!has('brand', DEMO_RULE_BRAND)) {
    await changeRule(commissionRules, by, {
      action: 'create',
      version: programme.version,
      rule: { scope: 'brand', value: DEMO_RULE_BRAND, rate: { kind: 'percent', percent: '15' } },
    });
    programme = await commissionRules.store.programme();
  }
  const productId = productIdFromSpuNo(DEMO_RULE_PRODUCT_SPU);
  if (!has('product', productId)) {
    await changeRule(commissionRules, by, {
      action: 'create',
      version: programme.version,
      rule: { scope: 'product', value: productId, rate: { kind: 'percent', percent: '20' } },
    });
    programme = await commissionRules.store.programme();
  }
  let group = programme.groups.find((g) => g.name === DEMO_GROUP);
  if (!group) {
    await changeGroup(commissionRules, by, { action: 'create', name: DEMO_GROUP });
    programme = await commissionRules.store.programme();
    group = programme.groups.find((g) => g.name === DEMO_GROUP)!;
    await changeGroup(commissionRules, by, { action: 'add', groupId: group.id, email: member.email });
    programme = await commissionRules.store.programme();
  }
  if (!has('group', group.id)) {
    await changeRule(commissionRules, by, {
      action: 'create',
      version: programme.version,
      rule: { scope: 'group', value: group.id, rate: { kind: 'percent', percent: '12.5' } },
    });
  }
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_RULES_MARKER, entity: 'demo-marker' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return { seeded: true };
}

export const describeDemoRules = (seeded: DemoRules): string | undefined =>
  seeded.seeded
    ? `Seeded the commission rules: ${DEMO_RULE_BRAND} 15 %, Desk Lamp Pro 20 %, and the group ${DEMO_GROUP} (12.5 %) with the demo member.`
    : undefined;
