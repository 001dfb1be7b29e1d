import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoRules } from '../../functions/src/adapters/rules/dynamo-rules';
import { keys } from '../../shared/src/db/table';
import { item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { addedOrder, member, product as storedProduct, type Member } from './sales-helpers';

/**
 * Commission rules (issue 39): precedence (product over brand over group over the default, the
 * oldest of a tie), a rule changed between two sales (the first keeps its rate), the member's You
 * Make on cards, the preview, the audit log, and the version every change is conditional on (and
 * by which a sale's container keeps the rules it read: decision 0480). The
 * sales are an admin's hand-entered orders (/api/addOrder): recorded by the same record-sale.ts as
 * a card checkout, without Stripe.
 */
const { handler: getCommissionRules } = await import('../../functions/src/handlers/get-commission-rules');
const { handler: changeCommissionRule } = await import('../../functions/src/handlers/change-commission-rule');
const { handler: previewCommissionRule } = await import('../../functions/src/handlers/preview-commission-rule');
const { handler: changeMemberGroup } = await import('../../functions/src/handlers/change-member-group');
const { handler: getGroupMembers } = await import('../../functions/src/handlers/get-group-members');
const { handler: getRuleAudit } = await import('../../functions/src/handlers/get-rule-audit');
const { handler: getApprovedProduct } = await import('../../functions/src/handlers/get-approved-product');
const { handler: getApprovedProducts } = await import('../../functions/src/handlers/get-approved-products');

let admin: string;
beforeAll(async () => {
  admin = await tokenFor(true);
});

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>): Promise<CallResult> =>
  call(handler, { body, headers: auth(admin) });

/** An approved product of a brand, as the import and an admin leave it. */
const product = (name: string, brand: string, priceCents: number): Promise<string> =>
  storedProduct(priceCents, 'approved', name, brand);

interface Programme {
  version: number;
  rules: { id: string; scope: string; value: string; for: string; rateText: string }[];
  groups: { id: string; name: string; memberCount: number }[];
}

const programme = async (): Promise<Programme> => {
  const result = await adminCall(getCommissionRules, {});
  expect(result.status).toBe(200);
  return result.body as unknown as Programme;
};

/** Creates a rule at the current version; answers the new rule's id. */
async function rule(scope: string, value: string, rate: Record<string, string>, limits: Record<string, string> = {}) {
  const before = await programme();
  const result = await adminCall(changeCommissionRule, {
    action: 'create',
    version: before.version,
    rule: { scope, value, rate, ...limits },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  const after = result.body as unknown as Programme;
  expect(after.version).toBe(before.version + 1);
  const made = after.rules.find((r) => !before.rules.some((old) => old.id === r.id));
  return made!.id;
}

async function group(name: string, ...members: Member[]): Promise<string> {
  const created = await adminCall(changeMemberGroup, { action: 'create', name });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = (created.body as unknown as Programme).groups.find((g) => g.name === name)!.id;
  for (const who of members) {
    const added = await adminCall(changeMemberGroup, { action: 'add', groupId: id, email: who.email });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return id;
}

/** An admin's order of one unit through the member's link: the stored commission. */
async function sold(who: Member, productId: string, qty = 1) {
  const { commission } = await addedOrder(admin, who, productId, qty);
  return {
    id: commission.id,
    ...((await item(keys.commission(commission.id))) as {
      amountCents: number;
      rule: { id: string; text: string; rate: unknown };
    }),
  };
}

/**
 * A sale, with how many times it read the whole programme and the programme's version (the rules
 * are kept by version in the container, composition.ts: decision 0480).
 */
async function soldCounting(who: Member, productId: string, qty = 1) {
  const programmeReads = vi.spyOn(dynamoRules, 'programme');
  const versionReads = vi.spyOn(dynamoRules, 'programmeVersion');
  try {
    const sale = await sold(who, productId, qty);
    return { ...sale, programmeReads: programmeReads.mock.calls.length, versionReads: versionReads.mock.calls.length };
  } finally {
    programmeReads.mockRestore();
    versionReads.mockRestore();
  }
}

const youMake = async (who: Member, id: string) => {
  const result = await call(getApprovedProduct, { body: { id }, headers: auth(who.token) });
  expect(result.status).toBe(200);
  return result.body.you_make;
};

describe('commission rules', () => {
  it('pays by the most specific rule: product over brand over group over the default; between two group rules the oldest', async () => {
    const lamp = await product('Desk Lamp Pro', 'Lumo', 2420);
    const shade = await product('Lumo Shade', 'Lumo', 2420);
    const kettle = await product('Steel Kettle', 'Brewco', 2420);
    const top = await member();
    const plain = await member();
    // Two groups; the member is in both. The rule of the second group is made first: it is the oldest.
    const first = await group('Top sellers', top);
    const second = await group('Early members', top);
    const older = await rule('group', second, { kind: 'percent', percent: '20' });
    await rule('group', first, { kind: 'percent', percent: '30' });
    await rule('brand', 'lumo ', { kind: 'fixed', amount: '3.00' });
    const productRule = await rule('product', lamp, { kind: 'percent', percent: '15' });

    // Product rule: 15 % of $24.20 = $3.63 (for everyone, the group's member too).
    expect((await sold(top, lamp)).amountCents).toBe(363);
    expect((await sold(plain, lamp)).amountCents).toBe(363);
    // Brand rule (the brand matched without case or spaces): $3.00 per unit, over the group rules.
    expect((await sold(top, shade)).amountCents).toBe(300);
    expect((await sold(top, shade, 2)).amountCents).toBe(600);
    // Group rules, both apply: the oldest (20 %) wins, not the one of the older group.
    const grouped = await sold(top, kettle);
    expect(grouped.amountCents).toBe(484);
    expect(grouped.rule).toMatchObject({ id: older, text: '20 % for group Early members' });
    // No group, no product or brand rule: the spec's 10 %.
    const plainSale = await sold(plain, kettle);
    expect(plainSale.amountCents).toBe(242);
    expect(plainSale.rule).toMatchObject({ id: 'default', text: '10 % for everyone (the default)' });
    expect((await sold(top, lamp)).rule).toMatchObject({ id: productRule, text: '15 % for product Desk Lamp Pro' });

    // The member sees their own rate on the cards and the detail page.
    expect(await youMake(top, lamp)).toBe('3.63');
    expect(await youMake(top, shade)).toBe('3.00');
    expect(await youMake(top, kettle)).toBe('4.84');
    expect(await youMake(plain, kettle)).toBe('2.42');
    const cards = await call(getApprovedProducts, { body: { limit: 100 }, headers: auth(top.token) });
    const card = (cards.body.items as { id: string; you_make: string }[]).find((c) => c.id === kettle);
    expect(card?.you_make).toBe('4.84');

    // The group's members, as the admin lists them.
    const members = await adminCall(getGroupMembers, { groupId: first });
    expect((members.body.items as { email: string }[]).map((m) => m.email)).toEqual([top.email]);
  });

  it('applies a changed rule to sales after the change, never to the ones recorded before', async () => {
    const vase = await product('Glass Vase', 'Vitra Glass', 2420);
    const seller = await member();
    const brandRule = await rule('brand', 'Vitra Glass', { kind: 'percent', percent: '10' });
    const first = await soldCounting(seller, vase);
    expect(first.amountCents).toBe(242);
    // The rule was made since this container's last sale: the sale read the version, then the programme.
    expect(first).toMatchObject({ versionReads: 1, programmeReads: 1 });
    // The version unchanged: the next sale reads only the version.
    expect(await soldCounting(seller, vase)).toMatchObject({ amountCents: 242, versionReads: 1, programmeReads: 0 });

    const before = await programme();
    const changed = await adminCall(changeCommissionRule, {
      action: 'update',
      version: before.version,
      id: brandRule,
      rule: { scope: 'brand', value: 'Vitra Glass', rate: { kind: 'percent', percent: '12.5' }, max: '5.00' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // The very next sale pays the new rate: the change moved the version, so it reads the programme.
    const second = await soldCounting(seller, vase);
    expect(second).toMatchObject({ versionReads: 1, programmeReads: 1 });
    // 12.5 % of $24.20 = $3.025, half up: $3.03.
    expect(second.amountCents).toBe(303);
    expect(second.rule.text).toBe('12.5 %, at most $5.00 a sale for brand Vitra Glass');
    // Three units: 3 × $3.03 = $9.09, held to the maximum of $5.00 a sale; the rules kept, not read.
    expect(await soldCounting(seller, vase, 3)).toMatchObject({ amountCents: 500, programmeReads: 0 });
    // The first sale keeps its amount and its rule as they were.
    const firstNow = (await item(keys.commission(first.id))) as typeof first;
    expect(firstNow.amountCents).toBe(242);
    expect(firstNow.rule.text).toBe('10 % for brand Vitra Glass');
  });

  it('moves the version on a group made, not on a member put in one: the member is paid by the group rule from their next sale', async () => {
    const bowl = await product('Stone Bowl', 'Stonecraft', 2000);
    const seller = await member();
    const potters = await group('Potters');
    const groupRule = await rule('group', potters, { kind: 'percent', percent: '20' });
    // The group and its rule moved the version: the sale reads the programme; the seller is in no group.
    const outside = await soldCounting(seller, bowl);
    expect(outside).toMatchObject({ programmeReads: 1 });
    expect(outside.rule.id).not.toBe(groupRule);
    const added = await adminCall(changeMemberGroup, { action: 'add', groupId: potters, email: seller.email });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // Putting a member in a group changes no rule (the member's groups are read at each sale, never
    // kept): the version stays, the rules are not read again, and the group's 20 % pays: $4.00.
    const inside = await soldCounting(seller, bowl);
    expect(inside).toMatchObject({ programmeReads: 0, versionReads: 1, amountCents: 400 });
    expect(inside.rule).toMatchObject({ id: groupRule, text: '20 % for group Potters' });
    // Another group made moves the version: the next sale reads the programme again.
    await group('Glaziers');
    expect(await soldCounting(seller, bowl)).toMatchObject({ programmeReads: 1, amountCents: 400 });
  });

  it('previews a change before it is saved: products and members that change, and an example', async () => {
    const lamp = await product('Desk Lamp Pro', 'Previewco', 2420);
    await product('Previewco Stand', 'Previewco', 1000);
    const before = await programme();
    const body = {
      action: 'create',
      version: before.version,
      rule: { scope: 'brand', value: 'Previewco', rate: { kind: 'percent', percent: '15' } },
    };
    const preview = await adminCall(previewCommissionRule, body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ productsChanged: 2, everyoneElse: true, partial: false });
    expect(String(preview.body.example)).toMatch(
      /^(Desk Lamp Pro: You Make \$2\.42 → \$3\.63|Previewco Stand: You Make \$1\.00 → \$1\.50)/,
    );
    // Nothing was saved by the preview.
    expect((await programme()).version).toBe(before.version);
    const productOnly = await adminCall(previewCommissionRule, {
      ...body,
      rule: { scope: 'product', value: lamp, rate: { kind: 'percent', percent: '15' } },
    });
    expect(productOnly.body).toMatchObject({
      productsChanged: 1,
      productsCounted: 1,
      example: 'Desk Lamp Pro: You Make $2.42 → $3.63',
    });
  });

  it('keeps every change in the audit log with who, when, before and after; a stale version is a 409 and changes nothing', async () => {
    const before = await programme();
    const defaultChange = await adminCall(changeCommissionRule, {
      action: 'update',
      version: before.version,
      id: 'default',
      rule: { scope: 'default', value: '', rate: { kind: 'percent', percent: '10' }, min: '0.50' },
    });
    expect(defaultChange.status, JSON.stringify(defaultChange.body)).toBe(200);
    // A second admin still on the old version.
    const stale = await adminCall(changeCommissionRule, {
      action: 'update',
      version: before.version,
      id: 'default',
      rule: { scope: 'default', value: '', rate: { kind: 'percent', percent: '50' } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^Another admin changed the commission rules since you opened them/);
    const now = await programme();
    expect(now.version).toBe(before.version + 1);
    expect(now.rules.find((r) => r.id === 'default')?.rateText).toBe('10 %, at least $0.50 a sale');

    const audit = await adminCall(getRuleAudit, { limit: 100 });
    expect(audit.status).toBe(200);
    const entries = audit.body.items as { action: string; who: string; at: string; before: string; after: string }[];
    expect(entries[0]).toMatchObject({
      action: 'Rule changed',
      before: '10 % for everyone (the default)',
      after: '10 %, at least $0.50 a sale for everyone (the default)',
      who: expect.stringMatching(/^admin-.*@example\.com$/),
    });
    expect(entries.some((entry) => entry.action === 'Member added')).toBe(true);
    expect(entries.some((entry) => entry.action === 'Group created')).toBe(true);
    // Newest first.
    expect([...entries.map((e) => e.at)].sort().reverse()).toEqual(entries.map((e) => e.at));
    // Put back: the other tests' sales expect no minimum.
    const back = await adminCall(changeCommissionRule, {
      action: 'update',
      version: now.version,
      id: 'default',
      rule: { scope: 'default', value: '', rate: { kind: 'percent', percent: '10' } },
    });
    expect(back.status).toBe(200);
  });

  it('refuses a bad rule in words at its field, storing nothing', async () => {
    const before = await programme();
    const bad = async (rule: Record<string, unknown>, action = 'create', extra: Record<string, unknown> = {}) => {
      const result = await adminCall(changeCommissionRule, { action, version: before.version, rule, ...extra });
      expect(result.status).toBe(400);
      return result.body;
    };
    expect(
      (await bad({ scope: 'product', value: 'no-such-product', rate: { kind: 'percent', percent: '5' } })).message,
    ).toBe('There is no product with this id. Copy the id from the product in the Catalogue.');
    expect(
      (await bad({ scope: 'brand', value: 'Lumo', rate: { kind: 'fixed', amount: '1' }, min: '5', max: '2' })).fields,
    ).toEqual({ min: 'The minimum ($5.00) is more than the maximum ($2.00).' });
    expect((await bad({ scope: 'brand', value: 'Lumo', rate: { kind: 'percent', percent: '120' } })).message).toBe(
      'A percentage is at most 100.',
    );
    expect((await bad({ scope: 'group', value: 'nope', rate: { kind: 'percent', percent: '5' } })).message).toBe(
      'There is no member group with this id. Reload the groups.',
    );
    expect((await bad({ scope: 'default', value: '', rate: { kind: 'percent', percent: '5' } })).message).toMatch(
      /^There is one default rule/,
    );
    const deleteDefault = await adminCall(changeCommissionRule, {
      action: 'delete',
      version: before.version,
      id: 'default',
    });
    expect(deleteDefault.status).toBe(400);
    expect((await programme()).version).toBe(before.version);
    const notAdmin = await call(getCommissionRules, { body: {}, headers: auth((await member()).token) });
    expect(notAdmin.status).toBe(403);
  });
});
