import { getSharedProduct } from '@portal/shared/api/calls/get-shared-product';
import { publicApiHandler, products, sales } from '../composition';
import { sharedProduct } from '../orders/shared-product';

/** Public: the product a member's share link shows the customer; banned or unknown is a 404. */
export const handler = publicApiHandler(getSharedProduct, async ({ body }) =>
  sharedProduct({ products, sales }, body.id, body.ref),
);
