import { useEffect, useId, useRef, useState } from 'react';
import type { Order } from '@portal/shared/api/sales';
import { formatCount, formatDate, formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmailText } from '@portal/shared/ui/components/EmailText';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { CloseIcon, ExternalLinkIcon } from '@portal/shared/ui/components/icons';
import { ORDER_LISTS, nextMark, orderStatusWords } from './orderColumns';
import {
  ShipmentFields,
  shipmentBody,
  shipmentErrors,
  shipmentSummary,
  type ShipmentDraft,
  EMPTY_SHIPMENT,
} from './ShipmentFields';
import { RefundPanel, refundWords } from './RefundPanel';

const money = (dollars: number) => formatMoney(Math.round(dollars * 100));

export interface OrderCardProps {
  order: Order;
  onClose: () => void;
  /** The order was marked: the screen reloads its lists, closes the card and says so. */
  onMarked: (order: Order, done: string) => void;
  /** The order had moved on already (409): the screen reloads its lists; the card stays with the message. */
  onConflict: () => void;
  /** The order was refunded: the screen reloads its lists, closes the card and says `message`. */
  onRefunded: (order: Order, message: string) => void;
}

/** The work list an order is in now, by its title: none once fulfilled or refunded in full. */
function workListTitle(order: Order): string | null {
  if (order.refundState === 'full') return null;
  if (!order.isOrdered) return ORDER_LISTS.not_ordered.title;
  if (!order.isShipped) return ORDER_LISTS.not_shipped.title;
  if (!order.isFufilled) return ORDER_LISTS.not_fulfilled.title;
  return null;
}

/**
 * Each refund that failed at Stripe after it was made (decision 0340), one line each: what failed,
 * when and why, where the order is now, and what to do. Refunded in full again since, nothing is to do.
 */
export function failedRefundNotes(order: Order): string[] {
  const list = workListTitle(order);
  return order.failedRefunds.map((failed) => {
    const what = `A refund of ${money(failed.amount)} failed on ${formatDate(failed.at)}: ${failed.reason}.`;
    if (order.refundState === 'full') return what;
    const where =
      failed.backInList && list ? `The order is back in ${list}` : 'The customer did not get that money back';
    return `${what} ${where}; refund again or contact the customer.`;
  });
}

/** What the order's refunds and dispute mean for the admin's work, in words (null: nothing to say). */
export function orderNotes(order: Order): { closed: string | null; partial: string | null; dispute: string | null } {
  const last = order.refunds.at(-1);
  const closed =
    order.refundState !== 'full'
      ? null
      : last?.kind === 'dispute'
        ? `The customer’s bank took the payment back (a dispute lost, ${formatDate(last.at)}): nothing is left to send, so there is no step to mark.`
        : `Refunded in full${last ? ` on ${formatDate(last.at)}` : ''} (${money(order.refunded)} back to the customer): nothing is left to send, so there is no step to mark.`;
  const partial =
    order.refundState !== 'partial'
      ? null
      : `Partly refunded: ${order.refunds
          .map(
            (refund) =>
              `${money(refund.amount)} on ${formatDate(refund.at)}${refund.kind === 'dispute' ? ' (a dispute lost)' : ''}`,
          )
          .join(', ')}. Still to send: the order as placed (${formatCount(order.qty)} × ${order.product_name}); ${money(
          order.totalPayed - order.refunded,
        )} of the ${money(order.totalPayed)} paid stands.`;
  const dispute =
    order.dispute?.status !== 'open'
      ? null
      : `Dispute open since ${formatDate(order.dispute.openedAt)}: the customer’s bank disputes ${money(order.dispute.amount)} (${order.dispute.reason}). Stripe holds the money until the dispute is decided; answer it in Stripe’s dashboard. If the dispute is lost, the order closes and nothing is sent.`;
  return { closed, partial, dispute };
}

/** One order, wherever it is opened: its facts, the product (shown on request), the customer and its next step's button. */
export function OrderCard({ order, onClose, onMarked, onConflict, onRefunded }: OrderCardProps) {
  const { call } = useAuth();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const productId = useId();
  const [showProduct, setShowProduct] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const [shipment, setShipment] = useState<ShipmentDraft>(EMPTY_SHIPMENT);
  const [shipmentShown, setShipmentShown] = useState<Partial<Record<keyof ShipmentDraft, string>>>({});
  const [confirmingShipment, setConfirmingShipment] = useState(false);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (confirmingShipment) confirmRef.current?.focus();
  }, [confirmingShipment]);

  // Opening a card takes the reader there (the screens key the card by the order, so another order is a new card).
  useEffect(() => {
    const heading = headingRef.current;
    heading?.focus();
    heading?.scrollIntoView?.({ block: 'nearest' });
  }, [order.id]);

  const mark = nextMark(order);
  const notes = orderNotes(order);
  const failedRefunds = failedRefundNotes(order);

  const shipping = mark?.call === 'markAsShipped';

  /** Shipping asks for the carrier (or an explicit "No tracking number") and confirms what the customer is told. */
  const reviewShipment = () => {
    // The carrier and tracking number are checked here as the server checks them (the same rules).
    const problems = shipmentErrors(shipment);
    setShipmentShown(problems);
    if (Object.keys(problems).length === 0) setConfirmingShipment(true);
  };

  const onMark = async () => {
    if (!mark || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const result = shipping
        ? await call('markAsShipped', { id: order.id, ...shipmentBody(shipment) })
        : await call(mark.call, { id: order.id });
      onMarked(result.order, mark.done);
    } catch (caught) {
      const apiError = toApiError(caught);
      setConfirmingShipment(false);
      setError(apiError.message);
      if (apiError.fields) setShipmentShown(apiError.fields as Partial<Record<keyof ShipmentDraft, string>>);
      if (apiError.status === 409) onConflict();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const { customer } = order;
  const address = customer.address;
  return (
    <section className="card order-card" aria-labelledby={`${productId}-title`}>
      <div className="order-card__header">
        <h2 className="order-card__title" id={`${productId}-title`} ref={headingRef} tabIndex={-1}>
          Order {order.orderID}
        </h2>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          <CloseIcon className="button__icon" />
          Close
        </button>
      </div>
      {notes.closed ? (
        <p className="order-card__flag" role="note" data-testid="order-closed">
          {notes.closed}
        </p>
      ) : null}
      {notes.dispute ? (
        <p className="order-card__flag" role="note" data-testid="order-dispute">
          {notes.dispute}
        </p>
      ) : null}
      {failedRefunds.map((line, index) => (
        <p key={index} className="order-card__flag" role="note" data-testid="order-refund-failed">
          {line}
        </p>
      ))}
      {notes.partial ? (
        <p className="order-card__note" role="note" data-testid="order-partial">
          {notes.partial}
        </p>
      ) : null}
      {order.flag ? (
        <p className="order-card__flag" role="note">
          Flagged: {order.flag}. The customer paid, so the order stands; its commission is held in Payouts → Held for
          review.
        </p>
      ) : null}
      <dl className="order-card__facts">
        <div>
          <dt>Order date</dt>
          <dd>{formatDate(order.created_at)}</dd>
        </div>
        <div>
          <dt>Order ID</dt>
          <dd>{order.orderID}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{orderStatusWords(order)}</dd>
        </div>
        <div>
          <dt>Refunds</dt>
          <dd data-testid="order-refund-state">{refundWords(order)}</dd>
        </div>
        <div>
          <dt>Quantity</dt>
          <dd>{formatCount(order.qty)}</dd>
        </div>
        <div>
          <dt>Sell price</dt>
          <dd>{money(order.sell_price)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{money(order.totalPayed)}</dd>
        </div>
        <div>
          <dt>Supplier SPU number</dt>
          <dd>{order.spu_no}</dd>
        </div>
        <div>
          <dt>Product link</dt>
          <dd>
            {order.product_url ? (
              <a href={order.product_url} target="_blank" rel="noopener noreferrer">
                Open at the supplier
                <ExternalLinkIcon className="inline-icon" aria-hidden="true" />
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Sold by</dt>
          <dd>{order.member ? <EmailText email={order.member.email} /> : 'No member (no share code)'}</dd>
        </div>
        <div>
          <dt>Customer</dt>
          <dd>{customer.name}</dd>
        </div>
        <div>
          <dt>Customer e-mail</dt>
          <dd>
            <EmailText email={customer.email} />
          </dd>
        </div>
        {order.shipment ? (
          <div>
            <dt>Tracking</dt>
            <dd>
              {order.shipment.carrier}: {order.shipment.trackingNumber}
              {order.shipment.trackingUrl ? (
                <>
                  {' '}
                  <a href={order.shipment.trackingUrl} target="_blank" rel="noopener noreferrer">
                    Track
                    <ExternalLinkIcon className="inline-icon" aria-hidden="true" />
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Shipping address</dt>
          <dd>
            {address.line1}
            {address.line2 ? `, ${address.line2}` : ''}
            <br />
            {`${address.city}, ${address.state} ${address.postal_code}`}
          </dd>
        </div>
      </dl>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={showProduct}
        aria-controls={productId}
        onClick={() => setShowProduct((shown) => !shown)}
      >
        {showProduct ? 'Hide product' : 'Show product'}
      </button>
      {showProduct ? (
        <div className="order-card__product" id={productId}>
          {order.product_image ? (
            <img className="order-card__image" src={order.product_image} alt="" width={72} height={72} />
          ) : null}
          <div>
            <p className="order-card__product-name">
              <strong>{order.product_name}</strong>
            </p>
            <p className="order-card__brand">{order.brand}</p>
          </div>
        </div>
      ) : (
        <div id={productId} hidden />
      )}
      {error ? (
        <ErrorBanner title="The order was not changed" message={error} onDismiss={() => setError(null)} />
      ) : null}
      {shipping && !confirmingShipment ? (
        <ShipmentFields
          value={shipment}
          errors={shipmentShown}
          disabled={busy}
          onChange={(next) => {
            setShipment(next);
            setShipmentShown({});
          }}
        />
      ) : null}
      <RefundPanel order={order} onRefunded={onRefunded} />
      {mark && shipping && confirmingShipment ? (
        <div className="confirm" role="group" aria-labelledby={`${productId}-ship`}>
          <h3 className="confirm__title" id={`${productId}-ship`} ref={confirmRef} tabIndex={-1}>
            Mark order {order.orderID} as shipped?
          </h3>
          <p className="confirm__text" data-testid="ship-summary">
            {shipmentSummary(shipment)}
          </p>
          <div className="confirm__buttons">
            <button type="button" className="button button--primary" onClick={onMark} disabled={busy} aria-busy={busy}>
              {busy ? 'Saving…' : mark.label}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setConfirmingShipment(false)}
              disabled={busy}
            >
              Back
            </button>
          </div>
        </div>
      ) : mark ? (
        <div className="order-card__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={shipping ? reviewShipment : onMark}
            disabled={busy}
            aria-busy={busy}
          >
            {busy ? 'Saving…' : shipping ? 'Review shipping…' : mark.label}
          </button>
        </div>
      ) : null}
    </section>
  );
}
