import { upgradeTable } from '../../composition';
import { loadLogger } from '../../config/logger';

/**
 * Run by the stack after each deploy that changes it (a CDK trigger, infra/lib/portal-stack.ts):
 * brings items stored by an earlier version to what the code reads — orders and commissions under a
 * list's old name move to its right name and orders get their search keys
 * (adapters/dynamo-sales-upgrade.ts), and products stored
 * before the catalogue lists get their list keys (adapters/dynamo-products.ts). Every write is
 * conditional, so a second run changes nothing; an error fails the deploy, which CloudFormation then
 * rolls back, rather than leaving lists short. `npm start` runs the same upgrades on the local table.
 */
export const handler = async (): Promise<{ moved: number; searchable: number; catalogueKeys: number }> => {
  const result = await upgradeTable();
  (await loadLogger()).info('table upgraded', result);
  return result;
};
