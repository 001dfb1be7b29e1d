import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { Order, OrderPaymentCard } from '@portal/shared/api/sales';
import { REFUND_REASONS } from '@portal/shared/api/refund-reasons';
import { formatMoney } from '@portal/shared/domain/format';
import { commissionShareOfRefund, parsePrice, youMakeCents } from '@portal/shared/domain/money';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FieldError, FormField } from '@portal/shared/ui/components/FormField';

const cents = (dollars: number) => Math.round(dollars * 100);

const REASON_LABEL: Record<(typeof REFUND_REASONS)[number], string> = {
  requested_by_customer: 'Requested by the customer',
  duplicate: 'Duplicate payment',
  fraudulent: 'Fraudulent payment',
};

/** The order's refund state in words: "Refunded", "Partially refunded ($5.00 of $49.98)", or "Not refunded". */
export function refundWords(order: Order): string {
  const pending = order.refundPending ? cents(order.refundPending) : 0;
  // Stripe holds a refund pending while the platform's balance does not cover it: the customer has not got it yet.
  const held = pending
    ? `; ${formatMoney(pending)} of it is pending at Stripe until the platform's balance covers it (add funds to the Stripe balance to release it)`
    : '';
  if (order.refundState === 'full') return pending ? `Refund pending${held}` : 'Refunded';
  if (order.refundState === 'partial') {
    return `Partially refunded (${formatMoney(cents(order.refunded))} of ${formatMoney(cents(order.totalPayed))})${held}`;
  }
  return 'Not refunded';
}

/**
 * What a refund of `amountCents` does to the seller's commission, in words: it loses its share in
 * proportion to the order (shared/src/domain/money.ts commissionShareOfRefund, as the server).
 */
export function commissionChange(
  order: Order,
  amountCents: number,
  commission?: OrderPaymentCard['commission'],
): string {
  if (!order.member || commission === null) return 'No commission changes: no member’s share link sold this order.';
  if (commission?.where === 'none') {
    return `${order.member.email}’s commission is ${formatMoney(cents(commission.amount))} already: the refund does not change it.`;
  }
  const total = cents(order.totalPayed);
  const refunded = cents(order.refunded);
  const original = commission ? cents(commission.originalAmount) : youMakeCents(cents(order.sell_price)) * order.qty;
  const before = commission ? cents(commission.amount) : original - commissionShareOfRefund(original, refunded, total);
  const after = original - commissionShareOfRefund(original, refunded + amountCents, total);
  const taken = Math.max(0, before - after);
  const lead = `${order.member.email}’s commission goes down by ${formatMoney(taken)}, from ${formatMoney(before)} to ${formatMoney(after)}`;
  // The one effect that applies: where the commission's money is now.
  if (!commission) return `${lead}.`;
  if (commission.where === 'in_stripe') return `${lead}: ${formatMoney(taken)} is reversed from their Stripe balance.`;
  if (commission.where === 'paid') {
    return `${lead}: it was paid out, so ${formatMoney(taken)} is clawed back from their next payouts.`;
  }
  return after === 0
    ? `${lead}: it was not sent to Stripe yet, so it is cancelled.`
    : `${lead}: it was not sent to Stripe yet, so it is reduced.`;
}

/** The order card's refund: amount (all that is left by default) and reason, then a confirmation naming the amounts. */
export function RefundPanel({ order, onRefunded }: { order: Order; onRefunded: (order: Order, done: string) => void }) {
  const { call } = useAuth();
  const id = useId();
  const left = cents(order.totalPayed) - cents(order.refunded);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState((left / 100).toFixed(2));
  const [reason, setReason] = useState<(typeof REFUND_REASONS)[number] | ''>('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  // The confirmation names the card the money goes back to: read when it opens.
  const card = useQuery({
    queryKey: ['orders', 'paymentCard', order.id],
    queryFn: () => call('getOrderPaymentCard', { id: order.id }),
    enabled: confirming !== null,
    staleTime: 5 * 60_000,
  });
  const cardWords = card.data?.card ? `card ending ${card.data.card.last4}` : 'card';

  useEffect(() => {
    if (confirming !== null) confirmRef.current?.focus();
  }, [confirming]);

  if (!order.refundable) {
    return <p className="order-card__note">Entered by hand: there is no card payment to refund.</p>;
  }
  if (left <= 0) return null;

  const review = () => {
    const parsed = parsePrice(amount);
    let bad = false;
    if (!parsed.ok) {
      setAmountError(`Enter the amount in dollars and cents, e.g. ${(left / 100).toFixed(2)}`);
      bad = true;
    } else if (parsed.cents > left) {
      setAmountError(`At most ${formatMoney(left)} is left to refund of this order.`);
      bad = true;
    } else setAmountError(null);
    if (!reason) {
      setReasonError('Choose why the order is refunded');
      bad = true;
    } else setReasonError(null);
    if (!bad && parsed.ok) setConfirming(parsed.cents);
  };

  const refund = async () => {
    if (confirming === null || !reason || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await call('refundOrder', {
        id: order.id,
        ...(confirming === left ? {} : { amountCents: confirming }),
        reason,
      });
      onRefunded(result.order, `Refunded ${formatMoney(confirming)} of order ${order.orderID}.`);
    } catch (caught) {
      setError(toApiError(caught).message);
      setConfirming(null);
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div className="order-card__actions">
        <button type="button" className="button button--danger-outline" onClick={() => setOpen(true)}>
          Refund…
        </button>
      </div>
    );
  }
  return (
    <section className="refund" aria-labelledby={`${id}-title`}>
      <h3 className="refund__title" id={`${id}-title`}>
        Refund to the customer’s card
      </h3>
      {error ? <ErrorBanner title="Nothing was refunded" message={error} onDismiss={() => setError(null)} /> : null}
      {confirming === null ? (
        <>
          <FormField
            label="Amount to refund (USD)"
            hint={`Up to ${formatMoney(left)} of the ${formatMoney(cents(order.totalPayed))} paid.`}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            error={amountError}
          />
          <div className={reasonError ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={`${id}-reason`}>
              Reason
            </label>
            <select
              id={`${id}-reason`}
              className="field__input"
              value={reason}
              onChange={(event) => setReason(event.target.value as typeof reason)}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            >
              <option value="">Choose a reason</option>
              {REFUND_REASONS.map((value) => (
                <option key={value} value={value}>
                  {REASON_LABEL[value]}
                </option>
              ))}
            </select>
            {reasonError ? <FieldError id={`${id}-reason-error`} message={reasonError} /> : null}
          </div>
          <div className="confirm__buttons">
            <button type="button" className="button button--primary" onClick={review}>
              Review the refund
            </button>
            <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <div className="confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <h4 className="confirm__title" id={`${id}-confirm`} ref={confirmRef} tabIndex={-1}>
            Refund {formatMoney(confirming)} of order {order.orderID}?
          </h4>
          <p className="confirm__text" data-testid="refund-summary">
            {formatMoney(confirming)} goes back to {order.customer.name || 'the customer'}’s {cardWords} (
            {confirming === left ? 'all that is left' : `of ${formatMoney(left)} left`} of the{' '}
            {formatMoney(cents(order.totalPayed))} paid).{' '}
            {card.data ? commissionChange(order, confirming, card.data.commission) : null}
          </p>
          {card.isPending ? <p role="status">Looking up the card it was paid with…</p> : null}
          {card.isError ? (
            <p role="alert">The card it was paid with could not be read ({toApiError(card.error).message}).</p>
          ) : null}
          <div className="confirm__buttons">
            <button
              type="button"
              className="button button--danger"
              onClick={refund}
              disabled={busy || card.isPending}
              aria-busy={busy}
            >
              {busy ? 'Refunding…' : `Refund ${formatMoney(confirming)}`}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setConfirming(null)}>
              Back
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
