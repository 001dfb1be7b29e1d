import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FieldError } from '@portal/shared/ui/components/FormField';
import type { PaymentFieldsProps } from './payer';

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
 * The card through Stripe Elements, with a real publishable key: the card goes from Stripe's
 * iframe to Stripe and `confirmCardPayment` pays the intent; our code never sees the number.
 * Its own chunk, loaded only when a real key is in use.
 */
export default function StripePayment(props: PaymentFieldsProps) {
  const stripe = useMemo(() => stripeFor(props.publishableKey), [props.publishableKey]);
  return (
    <Elements stripe={stripe}>
      <ElementsPayment {...props} />
    </Elements>
  );
}

function ElementsPayment({ register, error, disabled }: PaymentFieldsProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [shown, setShown] = useState<string | null>(null);
  const state = useRef<{ complete: boolean; message: string | null }>({ complete: false, message: null });

  useEffect(() => {
    if (!stripe || !elements) return;
    register({
      validate: () => {
        const { complete, message } = state.current;
        if (complete) return true;
        setShown(message ?? 'Enter your card details.');
        return false;
      },
      pay: async (clientSecret, billing) => {
        const card = elements.getElement(CardElement);
        if (!card) return { ok: false, message: 'The card form is not ready. Try again.' };
        const result = await stripe.confirmCardPayment(clientSecret, {
          payment_method: { card, billing_details: billing },
        });
        if (result.error) return { ok: false, message: result.error.message ?? 'Your card could not be charged.' };
        if (result.paymentIntent.status !== 'succeeded') {
          return { ok: false, message: 'Your payment did not go through. Try again.' };
        }
        return { ok: true, paymentIntentId: result.paymentIntent.id };
      },
    });
    return () => register(null);
  }, [stripe, elements, register]);

  const message = shown ?? error;
  return (
    <div className={message ? 'field field--invalid' : 'field'}>
      <span className="field__label" id="stripe-card-label">
        Card
      </span>
      <div className="field__input stripe-card" aria-labelledby="stripe-card-label">
        <CardElement
          options={{ hidePostalCode: true, disabled, style: { base: { fontSize: '16px' } } }}
          onChange={(event) => {
            state.current = { complete: event.complete, message: event.error?.message ?? null };
            setShown(event.error?.message ?? null);
          }}
        />
      </div>
      {message ? <FieldError id="stripe-card-error" message={message} /> : null}
    </div>
  );
}
