import { useEffect, useRef, useState } from 'react';
import { CardCvcField, CardExpiryField, CardNumberField } from '../payouts/CardFields';
import { checkCard } from '../payouts/format';
import { intentIdOf, type BillingDetails, type PaymentFieldsProps, type PayOutcome } from './payer';

/** Stripe's test cards, shown only against the emulator. */
export const TEST_PAYMENT_CARDS_HINT =
  'Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; any future date, any CVC.';

type CardField = 'number' | 'expiry' | 'cvc';

interface StripeAnswer {
  id?: string;
  status?: string;
  error?: { message?: string; param?: string; code?: string };
}

/**
 * The card fields of our own, against the local Stripe emulator (Stripe Elements talks only to
 * Stripe). Paying does what Stripe.js's confirmCardPayment does, with the publishable key through
 * the portal's same-origin `emulatorBase`: a card token (/v1/tokens), a card PaymentMethod from
 * it (/v1/payment_methods), then the intent's confirmation with its client_secret.
 */
export function EmulatorPayment({
  publishableKey,
  emulatorBase,
  register,
  error,
  disabled,
  now = () => new Date(),
}: PaymentFieldsProps & { emulatorBase: string; now?: () => Date }) {
  const [values, setValues] = useState<Record<CardField, string>>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  // What was typed, for the payer (read at submit, outside render).
  const current = useRef(values);

  useEffect(() => {
    const post = async (
      path: string,
      form: Record<string, string>,
    ): Promise<{ status: number; body: StripeAnswer }> => {
      const response = await fetch(`${emulatorBase}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as StripeAnswer };
    };
    const refused = (body: StripeAnswer): PayOutcome => ({
      ok: false,
      message: body.error?.message ?? 'Your card could not be charged. Try again.',
    });
    register({
      validate: () => {
        const found = checkCard(current.current, now());
        setErrors(found);
        return Object.keys(found).length === 0;
      },
      pay: async (clientSecret: string, billing: BillingDetails) => {
        const card = current.current;
        const [month, year] = card.expiry.split('/').map((part) => part.trim());
        try {
          const token = await post('/v1/tokens', {
            'card[number]': card.number.replace(/\D/g, ''),
            'card[exp_month]': String(Number(month)),
            'card[exp_year]': String(2000 + Number(year)),
            'card[cvc]': card.cvc,
            'card[name]': billing.name,
            'card[address_zip]': billing.address.postal_code,
          });
          if (!token.body.id) return refused(token.body);
          const method = await post('/v1/payment_methods', { type: 'card', 'card[token]': token.body.id });
          if (!method.body.id) return refused(method.body);
          const confirmed = await post(`/v1/payment_intents/${intentIdOf(clientSecret)}/confirm`, {
            payment_method: method.body.id,
            client_secret: clientSecret,
          });
          if (confirmed.body.status !== 'succeeded' || !confirmed.body.id) return refused(confirmed.body);
          return { ok: true, paymentIntentId: confirmed.body.id };
        } catch {
          return { ok: false, message: 'Your card could not be charged: the connection failed. Try again.' };
        }
      },
    });
    return () => register(null);
  }, [register, publishableKey, emulatorBase, now]);

  const set = (field: CardField, value: string) => {
    current.current = { ...current.current, [field]: value };
    setValues(current.current);
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  return (
    <div className="shop-card">
      <CardNumberField
        value={values.number}
        error={errors.number ?? error}
        onChange={(value) => set('number', value)}
        disabled={disabled}
      />
      <div className="shop-card__row">
        <CardExpiryField
          value={values.expiry}
          error={errors.expiry}
          onChange={(value) => set('expiry', value)}
          disabled={disabled}
        />
        <CardCvcField
          value={values.cvc}
          error={errors.cvc}
          onChange={(value) => set('cvc', value)}
          disabled={disabled}
        />
      </div>
      <p className="field__hint card-form__test-cards" data-testid="test-cards-hint">
        {TEST_PAYMENT_CARDS_HINT}
      </p>
    </div>
  );
}
