import { lazy, Suspense, useCallback, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MAX_QTY, MIN_QTY, ShareCode } from '@portal/shared/api/checkout';
import { ApiError } from '@portal/shared/api/client';
import { US_STATES } from '@portal/shared/api/payments';
import { Customer, type ConfirmCheckoutResponse } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { Loading } from '@portal/shared/ui/components/Loading';
import { SelectField } from '../payouts/SelectField';
import { EmulatorPayment } from './EmulatorPayment';
import type { Payer } from './payer';
import type * as z from 'zod';
import '../payouts/payouts.css';

/** Stripe.js and Elements: their own chunk, only with a real publishable key. */
const StripePayment = lazy(() => import('./StripePayment'));

type Field = 'qty' | 'name' | 'email' | 'line1' | 'line2' | 'city' | 'state' | 'postal_code';
type Values = Record<Field, string>;
const EMPTY: Values = { qty: '1', name: '', email: '', line1: '', line2: '', city: '', state: '', postal_code: '' };
const ORDER: readonly Field[] = ['qty', 'name', 'email', 'line1', 'line2', 'city', 'state', 'postal_code'];
const QTY_MESSAGE = `Choose a quantity from ${MIN_QTY} to ${MAX_QTY}`;

/** What the thank-you shows; `paymentIntentId` lets the page read it back after a reload. */
export type Receipt = z.infer<typeof ConfirmCheckoutResponse> & {
  recorded: boolean;
  totalCents: number;
  paymentIntentId?: string;
};

function qtyOf(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const qty = Number(text);
  return qty >= MIN_QTY && qty <= MAX_QTY ? qty : null;
}

function customerOf(values: Values) {
  return {
    name: values.name,
    email: values.email,
    address: {
      line1: values.line1,
      ...(values.line2.trim() ? { line2: values.line2 } : {}),
      city: values.city,
      state: values.state,
      postal_code: values.postal_code,
    },
  };
}

/** The Customer schema's words for each field (address fields by their own names). */
function check(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (qtyOf(values.qty) === null) errors.qty = QTY_MESSAGE;
  const parsed = Customer.safeParse(customerOf(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[issue.path.length - 1] as Field;
      errors[field] ??= issue.message;
    }
  }
  return errors;
}

/** A random id for this checkout (one per page load), so a retried request answers the same payment intent. */
function newCheckoutId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}-checkout`;
}

/**
 * The Buy form: quantity, the buyer and their US shipping address (checked with the contract's
 * Customer schema on blur and on submit), the total, and the card. Paying asks the server for a
 * payment intent of the shown total, pays it in the browser, then reports it (confirmCheckout).
 */
export function CheckoutForm({
  productId,
  unitAmountCents,
  shareCode,
  visitId = null,
  onPaid,
}: {
  productId: string;
  unitAmountCents: number;
  shareCode: string | null;
  /** The share page's counted visit (countVisit): the payment's metadata carries it to the sale. */
  visitId?: string | null;
  onPaid: (receipt: Receipt) => void;
}) {
  const { callPublic } = useAuth();
  const config = useQuery({
    queryKey: ['paymentConfig'],
    queryFn: () => callPublic('getPaymentConfig', {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [cardError, setCardError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const payer = useRef<Payer | null>(null);
  // One checkout id per page load; a new one only when the amount changed after an intent was made.
  const checkout = useRef<{ id: string; amount: number | null }>({ id: newCheckoutId(), amount: null });
  const register = useCallback((next: Payer | null) => {
    payer.current = next;
  }, []);

  const qty = qtyOf(values.qty);
  const listCents = qty === null ? null : unitAmountCents * qty;
  // A member's discount code (issue 39): priced by the server for this quantity before paying.
  const [codeInput, setCodeInput] = useState('');
  const [appliedCode, setAppliedCode] = useState<string | null>(null);
  const priced = useQuery({
    queryKey: ['discountCode', productId, appliedCode, qty],
    queryFn: () => callPublic('checkDiscountCode', { id: productId, qty: qty ?? 1, code: appliedCode ?? '' }),
    enabled: appliedCode !== null && qty !== null,
    retry: false,
  });
  const coded = appliedCode !== null && priced.isSuccess ? priced.data : null;
  const codeError = appliedCode !== null && priced.isError ? priced.error.message : undefined;
  const totalCents = listCents === null ? null : (coded?.totalCents ?? listCents);
  const applyCode = () => {
    const text = codeInput.trim();
    setAppliedCode(text ? text.toUpperCase() : null);
  };
  const removeCode = () => {
    setAppliedCode(null);
    setCodeInput('');
  };

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const blur = (field: Field) => {
    const found = check(values)[field];
    setErrors((current) => ({ ...current, [field]: found }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    setCardError(null);
    const found = check(values);
    setErrors(found);
    const cardOk = payer.current?.validate() ?? false;
    const first = ORDER.find((field) => found[field]);
    if (first) {
      document.getElementById(`shop-${first}`)?.focus();
      return;
    }
    if (appliedCode !== null && !coded) {
      // A code that cannot be used (or is still being checked): the customer removes it or waits.
      document.getElementById('shop-code')?.focus();
      return;
    }
    if (!cardOk || !payer.current || qty === null || totalCents === null) {
      document.getElementById('card-number')?.focus();
      return;
    }
    const customer = Customer.parse(customerOf(values));
    if (checkout.current.amount !== null && checkout.current.amount !== totalCents) {
      checkout.current = { id: newCheckoutId(), amount: null };
    }
    inFlight.current = true;
    setBusy(true);
    try {
      const validRef = shareCode && ShareCode.safeParse(shareCode).success ? shareCode : undefined;
      const intent = await callPublic('getPaymentIntent', {
        id: productId,
        amount: totalCents,
        qty,
        ...(validRef ? { ref: validRef } : {}),
        ...(coded ? { code: coded.code } : {}),
        checkoutId: checkout.current.id,
        customer,
        ...(visitId ? { visitId } : {}),
      });
      checkout.current.amount = totalCents;
      const paid = await payer.current.pay(intent.clientSecret, {
        name: customer.name,
        email: customer.email,
        address: { ...customer.address, country: 'US' },
      });
      if (!paid.ok) {
        setCardError(paid.message);
        document.getElementById('card-number')?.focus();
        return;
      }
      try {
        const receipt = await callPublic('confirmCheckout', { paymentIntentId: paid.paymentIntentId });
        onPaid({ ...receipt, recorded: true, totalCents, paymentIntentId: paid.paymentIntentId });
      } catch {
        // The payment went through; the webhook records the order even if this report failed.
        onPaid({
          orderID: '',
          qty,
          totalPayed: totalCents / 100,
          recorded: false,
          totalCents,
          paymentIntentId: paid.paymentIntentId,
        });
      }
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        const fieldErrors: Partial<Record<Field, string>> = {};
        for (const [key, message] of Object.entries(error.fields)) {
          const field = key.split('.').pop() as Field;
          if (ORDER.includes(field)) fieldErrors[field] = message;
        }
        setErrors(fieldErrors);
      }
      setFailure(error instanceof Error ? error.message : 'The payment could not start. Try again.');
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const field = (name: Field) => ({
    id: `shop-${name}`,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
    onBlur: () => blur(name),
    disabled: busy,
  });

  let payment;
  if (config.isPending) payment = <Loading label="Preparing the card form…" block={false} />;
  else if (config.isError) {
    payment = (
      <ErrorBanner
        title="The card form could not be prepared"
        message={config.error.message}
        onRetry={() => void config.refetch()}
        retrying={config.isFetching}
      />
    );
  } else if (config.data.emulatorBase) {
    payment = (
      <EmulatorPayment
        publishableKey={config.data.publishableKey}
        emulatorBase={config.data.emulatorBase}
        register={register}
        error={cardError}
        disabled={busy}
      />
    );
  } else {
    payment = (
      <Suspense fallback={<Loading label="Loading the secure card form…" block={false} />}>
        <StripePayment
          publishableKey={config.data.publishableKey}
          register={register}
          error={cardError}
          disabled={busy}
        />
      </Suspense>
    );
  }

  return (
    <form
      className="card shop-form form"
      noValidate
      aria-labelledby="buy-title"
      aria-busy={busy}
      onSubmit={(event) => void onSubmit(event)}
    >
      <h2 className="shop-form__title" id="buy-title">
        Buy
      </h2>
      {failure ? <ErrorBanner message={failure} onDismiss={() => setFailure(null)} /> : null}
      <FormField
        {...field('qty')}
        label="Quantity"
        type="number"
        inputMode="numeric"
        min={MIN_QTY}
        max={MAX_QTY}
        className="shop-form__qty"
        required
      />
      <fieldset className="shop-form__group">
        <legend className="shop-form__legend">Your details</legend>
        <FormField {...field('name')} label="Full name" autoComplete="name" required />
        <FormField {...field('email')} label="E-mail" type="email" autoComplete="email" inputMode="email" required />
      </fieldset>
      <fieldset className="shop-form__group">
        <legend className="shop-form__legend">Shipping address (US)</legend>
        <FormField {...field('line1')} label="Street address" autoComplete="shipping address-line1" required />
        <FormField {...field('line2')} label="Apartment, suite (optional)" autoComplete="shipping address-line2" />
        <div className="shop-form__row">
          <FormField {...field('city')} label="City" autoComplete="shipping address-level2" required />
          <SelectField
            id="shop-state"
            label="State"
            value={values.state}
            error={errors.state}
            onChange={(event) => change('state', event.target.value)}
            onBlur={() => blur('state')}
            autoComplete="shipping address-level1"
            disabled={busy}
            required
          >
            <option value="">Choose…</option>
            {US_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </SelectField>
          <FormField
            {...field('postal_code')}
            label="ZIP code"
            inputMode="numeric"
            autoComplete="shipping postal-code"
            maxLength={10}
            required
          />
        </div>
      </fieldset>
      <fieldset className="shop-form__group">
        <legend className="shop-form__legend">Payment</legend>
        {payment}
      </fieldset>
      <fieldset className="shop-form__group">
        <legend className="shop-form__legend">Discount code (optional)</legend>
        <div className="shop-form__code">
          <FormField
            id="shop-code"
            label="Code from a member"
            value={codeInput}
            error={codeError ? `${codeError}` : undefined}
            onChange={(event) => setCodeInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyCode();
              }
            }}
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={30}
            disabled={busy}
          />
          {appliedCode === null ? (
            <button type="button" className="button" onClick={applyCode} disabled={busy || !codeInput.trim()}>
              Apply
            </button>
          ) : (
            <button type="button" className="button" onClick={removeCode} disabled={busy}>
              Remove
            </button>
          )}
        </div>
        <p className="shop-form__code-status" aria-live="polite" data-testid="checkout-discount">
          {appliedCode !== null && priced.isFetching ? 'Checking the code…' : null}
          {coded
            ? `${coded.code}: ${coded.discount}, −${formatMoney(coded.discountCents)} on ${formatMoney(coded.listCents)}. The price below is what you pay.`
            : null}
          {codeError ? 'Remove the code to pay the full price.' : null}
        </p>
      </fieldset>
      <div className="shop-form__total">
        <span>Total</span>
        <output data-testid="checkout-total" aria-live="polite">
          {totalCents === null ? '—' : formatMoney(totalCents)}
        </output>
      </div>
      <button
        type="submit"
        className="button button--primary button--block"
        aria-disabled={busy || !config.isSuccess ? true : undefined}
      >
        {busy ? (
          <>
            <span className="spinner spinner--small" aria-hidden="true" /> Paying…
          </>
        ) : totalCents === null ? (
          'Pay'
        ) : (
          `Pay ${formatMoney(totalCents)}`
        )}
      </button>
    </form>
  );
}
