import { getOrderPage } from '@portal/shared/api/calls/get-order-page';
import { orderPages, publicApiHandler } from '../composition';
import { orderPage } from '../orders/order-links';

/** Public: the customer's order page by its link's token (orders/order-links.ts); an unknown token is a 404. */
export const handler = publicApiHandler(getOrderPage, async ({ body }) => orderPage(orderPages, body.token));
