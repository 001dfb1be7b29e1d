import { reviewHeldCommission as reviewHeldCommissionCall } from '@portal/shared/api/calls/review-held-commission';
import { apiHandler, commissionReview } from '../composition';
import { reviewHeldCommission } from '../commissions/review';
import { toCommission } from '../commissions/present';

/** Admin: releases or cancels a commission held for review at its sale (a self-purchase, a product banned before payment). */
export const handler = apiHandler(reviewHeldCommissionCall, async ({ body }) => ({
  commission: toCommission(await reviewHeldCommission(commissionReview, body.id, body.decision)),
}));
