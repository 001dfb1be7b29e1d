import { createHash, randomBytes } from 'node:crypto';
import { NO_SUCH_ORDER_LINK, type OrderPage } from '@portal/shared/api/order-page';
import { carrierName, trackingUrl } from '@portal/shared/api/carriers';
import { orderFlags } from '@portal/shared/domain/sales-status';
import { DomainError } from '../errors';
import { isRefundedInFull, type OrderRecord, type SalesStore } from './sales-store';

/**
 * The customer's order page is reached by a link that names no order: 32 random bytes (256 bits,
 * base64url), of which the table keeps only the SHA-256 (`ORDER_LINK#<hash>` → the order id), as
 * it does for refresh tokens and e-mail links. Each mail that carries a link makes its own (the
 * receipt, the shipping mail; a mail sent again after a crash makes another), so no token is ever
 * kept to be mailed twice; every link of an order stays valid. The token travels in the address's
 * fragment (`/track_order#<token>`): browsers never send a fragment to a server or in a Referer,
 * so it appears in no access log; the page posts it to /api/getOrderPage.
 */
export const ORDER_PAGE_PATH = '/track_order';

export interface OrderLinkStore {
  /** Keeps a link's hash → the order (conditional: a hash never overwrites another link). */
  save(tokenHash: string, orderId: string, createdAt: string): Promise<void>;
  /** The order a link's hash names, if any. */
  orderOf(tokenHash: string): Promise<string | undefined>;
}

export const hashOrderToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new link to the order's page: the token is made, its hash kept, the address answered. */
export async function newOrderLink(
  deps: { links: OrderLinkStore; siteUrl: () => string; now: () => number },
  orderId: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await deps.links.save(hashOrderToken(token), orderId, new Date(deps.now()).toISOString());
  const url = new URL(ORDER_PAGE_PATH, deps.siteUrl());
  url.hash = token;
  return url.href;
}

/** What the page of an order shows: its steps with their dates, the shipment and its refunds; nothing else. */
export function toOrderPage(order: OrderRecord): OrderPage {
  const flags = orderFlags(order.status);
  const shipment = order.shipment;
  return {
    orderID: order.orderID,
    product_name: order.product_name,
    qty: order.qty,
    placedAt: order.createdAt,
    steps: [
      { step: 'ordered', done: flags.isOrdered === 1, at: flags.isOrdered ? (order.orderedAt ?? null) : null },
      { step: 'shipped', done: flags.isShipped === 1, at: flags.isShipped ? (order.shippedAt ?? null) : null },
      { step: 'fulfilled', done: flags.isFufilled === 1, at: flags.isFufilled ? (order.fulfilledAt ?? null) : null },
    ],
    shipment:
      shipment && flags.isShipped
        ? {
            carrier: carrierName(shipment.carrier, shipment.carrierName),
            trackingNumber: shipment.trackingNumber,
            trackingUrl: trackingUrl(shipment.carrier, shipment.trackingNumber),
          }
        : null,
    ...(order.refunds?.length
      ? {
          refund: {
            inFull: isRefundedInFull(order),
            pending: (order.pendingRefundCents ?? 0) > 0,
            entries: order.refunds.map((refund) => ({
              at: refund.at,
              kind: refund.kind,
              amount: isRefundedInFull(order) ? null : refund.amountCents / 100,
            })),
          },
        }
      : {}),
  };
}

/** /api/getOrderPage: the order a link's token names, as its page shows it; 404 in words for any other token. */
export async function orderPage(
  deps: { links: OrderLinkStore; sales: Pick<SalesStore, 'getOrder'> },
  token: string,
): Promise<OrderPage> {
  const orderId = await deps.links.orderOf(hashOrderToken(token));
  const order = orderId ? await deps.sales.getOrder(orderId) : undefined;
  if (!order) throw new DomainError('not-found', NO_SUCH_ORDER_LINK, { fields: { token: NO_SUCH_ORDER_LINK } });
  return toOrderPage(order);
}
