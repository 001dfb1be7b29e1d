import type { Call } from '../call';
import { OrderPaymentCard, OrderPaymentCardRequest } from '../sales';

/**
 * POST /api/getOrderPaymentCard (admin): the card an order was paid with (its last four and
 * brand), so a refund's confirmation can name where the money goes back to.
 */
export const getOrderPaymentCard = {
  name: 'getOrderPaymentCard',
  path: '/api/getOrderPaymentCard',
  role: 'admin',
  body: 'json',
  request: OrderPaymentCardRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrderPaymentCardResponse = OrderPaymentCard;
