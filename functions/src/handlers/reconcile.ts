import { reconcile as reconcileCall } from '@portal/shared/api/calls/reconcile';
import { apiHandler, reconciliation } from '../composition';
import { reconcile } from '../reconciliation/reconcile';

/** Admin: our ledger against Stripe's over a period, every difference in words (reconciliation/reconcile.ts). */
export const handler = apiHandler(reconcileCall, async ({ body }) => reconcile(reconciliation, body.from, body.to));
