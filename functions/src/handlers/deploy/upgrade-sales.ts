import { upgradeSales } from '../../composition';
import { loadLogger } from '../../config/logger';

/**
 * Run by the stack after each deploy that changes it (a CDK trigger, infra/lib/portal-stack.ts):
 * moves the orders and commissions stored under a list's old name to its right name
 * (adapters/dynamo-sales-upgrade.ts). Each move is conditional, so a second run moves nothing; an
 * error fails the deploy, which CloudFormation then rolls back, rather than leaving lists short.
 * `npm start` runs the same upgrade on the local table.
 */
export const handler = async (): Promise<{ moved: number }> => {
  const result = await upgradeSales();
  (await loadLogger()).info('sales items upgraded', result);
  return result;
};
