import { getOrderPaymentCard } from '@portal/shared/api/calls/get-order-payment-card';
import { apiHandler, refundReads } from '../composition';
import { orderPaymentCard } from '../commissions/refunds';

/** Admin: the card an order was paid with, named by the refund's confirmation (commissions/refunds.ts). */
export const handler = apiHandler(getOrderPaymentCard, async ({ body }) => orderPaymentCard(refundReads, body.id));
