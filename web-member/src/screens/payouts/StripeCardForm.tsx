import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { FieldError } from '@portal/shared/ui/components/FormField';
import type { CardFormProps } from './cardTypes';

/** One Stripe.js per publishable key for the page's life (loadStripe adds the script once). */
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string): Promise<Stripe | null> {
  let stripe = loaded.get(key);
  if (!stripe) {
    stripe = loadStripe(key);
    loaded.set(key, stripe);
  }
  return stripe;
}

/**
 * The card entry through Stripe Elements, with a real publishable key: the card details go from
 * Stripe's iframe to Stripe, never through our page's code or our server; we get a token (USD).
 * This module is its own chunk, loaded only when this form shows.
 */
export default function StripeCardForm({ publishableKey, submit }: CardFormProps) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <ElementsForm submit={submit} />
    </Elements>
  );
}

function ElementsForm({ submit }: Pick<CardFormProps, 'submit'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const result = await stripe.createToken(card, { currency: 'usd' });
      if (result.error) setError(result.error.message ?? 'Your card could not be checked. Try again.');
      else setError(await submit(result.token.id));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <form className="form card-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={busy}>
      <div className={error ? 'field field--invalid' : 'field'}>
        <span className="field__label" id="stripe-card-label">
          Debit card
        </span>
        <div className="field__input stripe-card" aria-labelledby="stripe-card-label">
          <CardElement options={{ hidePostalCode: false, style: { base: { fontSize: '16px' } } }} />
        </div>
        {error ? <FieldError id="stripe-card-error" message={error} /> : null}
      </div>
      <div className="payout-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={!stripe || busy ? true : undefined}>
          {busy ? 'Adding your card…' : 'Add debit card'}
        </button>
      </div>
    </form>
  );
}
