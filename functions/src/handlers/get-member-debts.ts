import { getMemberDebts } from '@portal/shared/api/calls/get-member-debts';
import { apiHandler, payoutBatches } from '../composition';
import { memberDebts } from '../commissions/batches';

/** Admin: the members who still owe after clawbacks, with what they owe (commissions/batches.ts). */
export const handler = apiHandler(getMemberDebts, async ({ body }) =>
  memberDebts(payoutBatches, body.cursor, body.limit),
);
