import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { ApiError } from '@portal/shared/api/client';
import { ORDER_TOKEN_PATTERN, type OrderPage } from '@portal/shared/api/order-page';
import { formatDate, formatMoney } from '@portal/shared/domain/format';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { BoxIcon, CheckIcon, ExternalLinkIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { PRODUCT_NAME, useDocumentTitle } from '@portal/shared/ui/components/Page';
import '../shop/shop.css';
import './track.css';

const STEP_WORDS: Record<OrderPage['steps'][number]['step'], { done: string; waiting: string }> = {
  ordered: { done: 'Ordered from the supplier', waiting: 'To be ordered from the supplier' },
  shipped: { done: 'Shipped', waiting: 'Not shipped yet' },
  fulfilled: { done: 'Delivered', waiting: 'Not delivered yet' },
};

/**
 * '/track_order#<token>': the customer's order page, public (no login, no menu), reached by the
 * link in their receipt or shipping mail. The token stays in the address's fragment, which the
 * browser never sends to a server, and is posted to /api/getOrderPage. Shows the order's steps
 * with their dates and, once shipped, the carrier and tracking number (with the carrier's page).
 */
export function TrackOrderScreen() {
  const { hash } = useLocation();
  const token = decodeURIComponent(hash.replace(/^#/, ''));
  const { callPublic } = useAuth();
  const wellFormed = ORDER_TOKEN_PATTERN.test(token);
  const page = useQuery({
    queryKey: ['orderPage', token],
    queryFn: () => callPublic('getOrderPage', { token }),
    enabled: wellFormed,
    retry: (count, error) =>
      !(error instanceof ApiError && error.status !== undefined && error.status < 500) && count < 2,
  });

  let content;
  if (!wellFormed) {
    content = <UnknownLink />;
  } else if (page.isPending) {
    content = <Loading label="Loading your order…" />;
  } else if (page.isError) {
    const unknown = page.error instanceof ApiError && (page.error.status === 404 || page.error.status === 400);
    content = unknown ? (
      <UnknownLink />
    ) : (
      <ErrorBanner
        title="Your order could not be loaded"
        titleAs="h1"
        message={page.error.message}
        onRetry={() => void page.refetch()}
        retrying={page.isFetching}
      />
    );
  } else {
    content = <OrderSteps order={page.data} />;
  }

  return (
    <div className="shop">
      <header className="shop__header">
        <span className="shop__brand">{PRODUCT_NAME}</span>
        <span className="shop__secure">Order status</span>
      </header>
      <main id="main" className="shop__main track" tabIndex={-1}>
        {content}
      </main>
    </div>
  );
}

function UnknownLink() {
  useDocumentTitle('Order link not valid');
  return (
    <div className="shop-message">
      <h1 className="visually-hidden">Order link not valid</h1>
      <EmptyState icon={<BoxIcon />} title="This order link is not valid.">
        <p>
          Open the link in the e-mail we sent you after your purchase, as it is: the whole address, including everything
          after the “#”.
        </p>
      </EmptyState>
    </div>
  );
}

/** Where the order stands in one line: closed when refunded in full, else its last step done. */
function statusWords(order: OrderPage, current: OrderPage['steps'][number]['step'] | undefined): string {
  if (order.refund?.inFull) {
    return order.refund.entries.at(-1)?.kind === 'dispute'
      ? 'Closed: your bank returned your payment after a dispute. This order will not be sent.'
      : 'Refunded in full: this order is closed and will not be sent.';
  }
  if (current) return STEP_WORDS[current].done;
  return 'Received: we are ordering it from the supplier';
}

/** Each refund with its day, and what it means for the order. */
function Refunds({ refund }: { refund: NonNullable<OrderPage['refund']> }) {
  return (
    <section className="track-refunds" aria-labelledby="refunds-title" data-testid="order-refunds">
      <h2 className="track-card__heading" id="refunds-title">
        Refunds
      </h2>
      <ul className="track-refunds__list">
        {refund.entries.map((entry) => {
          const what =
            entry.amount === null
              ? entry.kind === 'dispute'
                ? 'Your whole payment was returned to you by your bank (a dispute)'
                : 'Your whole payment was refunded to your card'
              : entry.kind === 'dispute'
                ? `${formatMoney(Math.round(entry.amount * 100))} was returned to you by your bank (a dispute)`
                : `${formatMoney(Math.round(entry.amount * 100))} was refunded to your card`;
          return (
            <li key={entry.at}>
              {what} on {formatDate(entry.at)}.
            </li>
          );
        })}
      </ul>
      {refund.pending ? (
        <p className="track-refunds__note" data-testid="order-refund-pending">
          A refund of this order is pending: the shop has made it, and it is sent to your card as soon as the payment
          service releases it. You need to do nothing.
        </p>
      ) : null}
      {refund.inFull ? null : (
        <p className="track-refunds__note">The rest of your order stands: it is sent as the steps below show.</p>
      )}
    </section>
  );
}

function OrderSteps({ order }: { order: OrderPage }) {
  useDocumentTitle(`Order ${order.orderID}`);
  const current = [...order.steps].reverse().find((step) => step.done);
  return (
    <article className="card track-card" aria-labelledby="track-title">
      <h1 className="track-card__title" id="track-title">
        Order {order.orderID}
      </h1>
      <p className="track-card__product">
        {order.product_name}
        {order.qty > 1 ? ` × ${order.qty}` : ''}
      </p>
      <p className="track-card__status" data-testid="order-status">
        {statusWords(order, current?.step)}
      </p>
      {order.refund ? <Refunds refund={order.refund} /> : null}
      <h2 className="track-card__heading">Steps</h2>
      <ol className="track-steps" data-testid="order-steps">
        <li className="track-step track-step--done">
          <span className="track-step__mark" aria-hidden="true">
            <CheckIcon />
          </span>
          <span className="track-step__text">
            <span className="track-step__name">Order placed</span>
            <span className="track-step__date">{formatDate(order.placedAt)}</span>
          </span>
        </li>
        {/* A closed order (refunded in full) is not sent: only the steps it reached are shown. */}
        {order.steps
          .filter((step) => step.done || !order.refund?.inFull)
          .map((step) => (
            <li key={step.step} className={step.done ? 'track-step track-step--done' : 'track-step'}>
              <span className="track-step__mark" aria-hidden="true">
                {step.done ? <CheckIcon /> : null}
              </span>
              <span className="track-step__text">
                <span className="track-step__name">
                  {step.done ? STEP_WORDS[step.step].done : STEP_WORDS[step.step].waiting}
                  <span className="visually-hidden">{step.done ? ' (done)' : ' (waiting)'}</span>
                </span>
                {step.done ? (
                  <span className="track-step__date">{step.at ? formatDate(step.at) : 'Date not recorded'}</span>
                ) : null}
              </span>
            </li>
          ))}
      </ol>
      {order.shipment ? (
        <section className="track-shipment" aria-labelledby="shipment-title">
          <h2 className="track-card__heading" id="shipment-title">
            Shipment
          </h2>
          <dl className="track-shipment__facts">
            <div>
              <dt>Carrier</dt>
              <dd data-testid="carrier">{order.shipment.carrier}</dd>
            </div>
            <div>
              <dt>Tracking number</dt>
              <dd className="track-shipment__number" data-testid="tracking-number">
                {order.shipment.trackingNumber}
              </dd>
            </div>
          </dl>
          {order.shipment.trackingUrl ? (
            <a
              className="button button--primary track-shipment__link"
              href={order.shipment.trackingUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              Track the parcel at {order.shipment.carrier}
              <ExternalLinkIcon className="button__icon" aria-hidden="true" />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : (
            <p className="track-shipment__note">Look this tracking number up on the carrier’s own site.</p>
          )}
        </section>
      ) : null}
    </article>
  );
}
