import { getCheckoutCancels } from '@portal/shared/api/calls/get-checkout-cancels';
import { apiHandler, checkoutCancels } from '../composition';

/** How far a banned or withdrawn product's cancelling has come; none recorded: nothing to cancel. */
export const handler = apiHandler(
  getCheckoutCancels,
  async ({ body }) =>
    (await checkoutCancels.progress.get(body.id)) ?? { total: 0, cancelled: 0, paid: 0, notCancelled: 0, done: true },
);
