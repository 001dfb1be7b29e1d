import { refundOrder as refundOrderCall } from '@portal/shared/api/calls/refund-order';
import { apiHandler, refunds } from '../composition';
import { refundOrder } from '../commissions/refunds';

/** Admin: refunds a card order in full or in part; the commission follows in proportion. */
export const handler = apiHandler(refundOrderCall, async ({ body }) => refundOrder(refunds, body));
