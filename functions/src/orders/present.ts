import type { Order } from '@portal/shared/api/sales';
import { carrierName, trackingUrl } from '@portal/shared/api/carriers';
import { orderFlags } from '@portal/shared/domain/sales-status';
import { disputeWords } from '@portal/shared/domain/disputes';
import { dollars } from '@portal/shared/domain/money';
import type { OrderRecord } from './sales-store';

export function toOrder(order: OrderRecord): Order {
  return {
    id: order.id,
    orderID: order.orderID,
    qty: order.qty,
    product_id: order.product_id,
    product_name: order.product_name,
    brand: order.brand,
    product_image: order.product_image,
    spu_no: order.spu_no,
    product_url: order.product_url,
    sell_price: dollars(order.unitCents),
    totalPayed: dollars(order.totalCents),
    customer: order.customer,
    member: order.memberId ? { id: order.memberId, email: order.memberEmail ?? '' } : null,
    source: order.source,
    ...orderFlags(order.status),
    created_at: order.createdAt,
    ...(order.shipment
      ? {
          shipment: {
            carrier: carrierName(order.shipment.carrier, order.shipment.carrierName),
            trackingNumber: order.shipment.trackingNumber,
            trackingUrl: trackingUrl(order.shipment.carrier, order.shipment.trackingNumber),
          },
        }
      : {}),
    refunded: dollars(order.refundedCents ?? 0),
    refundPending: dollars(Math.max(0, order.pendingRefundCents ?? 0)),
    refundState: !order.refundedCents ? 'none' : order.refundedCents >= order.totalCents ? 'full' : 'partial',
    refundable: Boolean(order.paymentIntentId),
    ...(order.flag ? { flag: order.flag } : {}),
    refunds: (order.refunds ?? []).map((refund) => ({
      amount: dollars(refund.amountCents),
      at: refund.at,
      kind: refund.kind,
    })),
    dispute: order.dispute
      ? {
          status: order.dispute.status,
          reason: disputeWords(order.dispute.reason),
          amount: dollars(order.dispute.amountCents),
          openedAt: order.dispute.openedAt,
          closedAt: order.dispute.closedAt ?? null,
        }
      : null,
  };
}
