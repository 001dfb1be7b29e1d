import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatMoney } from '../../shared/src/domain/format';
import { ruleCommissionCents } from '../../shared/src/domain/commission-rules';
import {
  DESKTOP,
  PHONE_390,
  api,
  at,
  ensureApprovedProduct,
  expectAccessible,
  logIn,
  openBrowser,
  pageErrors,
  type BrowserSession,
} from './browser';

/**
 * Commission rules (issue 39) in a real browser, at 390 and 1280 px: the admin makes a member group,
 * puts a new member in it, writes a group rule of 25 %, previews it (the products and members that
 * change, an example) and saves it, and sees the change in the log; that member then sees You Make
 * at 25 % on their product cards and on the detail page. Other browser files share this portal: the
 * rule is for a group only this test's member is in, so nobody else's You Make moves.
 */
const VIEWPORTS = [PHONE_390, DESKTOP] as const;

describe('Commission rules, at 390 and 1280 px', () => {
  beforeAll(async () => {
    await ensureApprovedProduct();
  });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} px`, () => {
      const tag = `${viewport.width}-${randomBytes(3).toString('hex')}`;
      const account = { email: `e2e-rules-${tag}@example.com`, password: 'e2e-rules-password-41' };
      const groupName = `Top sellers ${tag}`;
      let admin: BrowserSession;
      let member: BrowserSession;

      beforeAll(async () => {
        await api('signup', account);
        admin = await openBrowser({ viewport });
        await logIn(admin.page, inject('accounts').admin);
        member = await openBrowser({ viewport });
      });
      afterAll(async () => {
        await admin?.close();
        await member?.close();
      });

      it('the admin makes a group, puts a member in it, previews a group rule, saves it and sees it in the log', async () => {
        const { page } = admin;
        await page.goto(at('/admin/rules'));
        await page.getByRole('heading', { level: 1, name: 'Commission rules' }).waitFor();
        await page.getByText('Everyone (the default)').waitFor();
        await expectAccessible(page);

        await page.getByLabel('New group’s name').fill(groupName);
        await page.getByRole('button', { name: 'Make the group' }).click();
        const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: groupName }) });
        await card.getByText('(0 members)').waitFor();
        await card.getByLabel(`Add a member to ${groupName} (e-mail address)`).fill(account.email);
        await card.getByLabel(`Add a member to ${groupName} (e-mail address)`).press('Enter');
        await card.getByText(account.email).waitFor();
        await card.getByText('(1 member)').waitFor();

        await page.getByLabel('For', { exact: true }).selectOption('group');
        await page.getByLabel('Group', { exact: true }).selectOption({ label: groupName });
        await page.getByLabel('Percentage', { exact: true }).fill('25');
        await page.getByRole('button', { name: 'Preview the change' }).click();
        const preview = page.getByRole('status').filter({ hasText: 'Preview:' });
        await preview.waitFor();
        expect(await preview.textContent()).toMatch(
          /changes? for 1 member of groups\. For example .+: You Make \$[\d.,]+ → \$[\d.,]+/,
        );
        await expectAccessible(page);
        await admin.screenshot(`rules-preview-${viewport.width}`);

        await page.getByRole('button', { name: 'Save the rule' }).click();
        await page.getByText('The rule is added.').waitFor();
        await page.getByText(`Group ${groupName}`, { exact: true }).first().waitFor();
        const entry = page.getByRole('listitem').filter({ hasText: `After: 25 % for group ${groupName}` });
        await entry.getByText('Rule created').waitFor();
        expect(await entry.textContent()).toContain(inject('accounts').admin.email);
        await expectAccessible(page);
        await admin.screenshot(`rules-saved-${viewport.width}`);
        expect(pageErrors(admin)).toEqual([]);
      });

      it('the member in the group sees You Make at the rule’s 25 % on the cards and the detail page', async () => {
        const { page } = member;
        const token = (await api<{ access_token: string }>('login', account)).access_token;
        const { items } = await api<{ items: { id: string; product_name: string; dropshipping_price_us: string }[] }>(
          'getApprovedProducts',
          { limit: 1 },
          token,
        );
        const product = items[0]!;
        const cents = Math.round(Number(product.dropshipping_price_us) * 100);
        const youMake = `You Make: ${formatMoney(ruleCommissionCents({ rate: { kind: 'percent', basisPoints: 2500 } }, cents, 1))}`;
        await logIn(page, account);
        const card = page.getByTestId('product-card').filter({ hasText: product.product_name }).first();
        await card.waitFor();
        await card.getByText(youMake).waitFor();
        await expectAccessible(page);
        await member.screenshot(`rules-member-cards-${viewport.width}`);
        await card.click();
        await page.getByRole('heading', { level: 1, name: product.product_name }).waitFor();
        await page.getByText(youMake).first().waitFor();
        await expectAccessible(page);
        expect(pageErrors(member)).toEqual([]);
      });
    });
  }
});
