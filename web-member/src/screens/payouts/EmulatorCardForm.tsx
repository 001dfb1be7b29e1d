import { useRef, useState, type FormEvent } from 'react';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import type { CardFormProps } from './cardTypes';
import { CardCvcField, CardExpiryField, CardNumberField } from './CardFields';
import { checkCard } from './format';

/** Stripe's test debit cards, shown only against the emulator. */
export const TEST_CARDS_HINT =
  'Test debit cards: 4000 0566 5566 5556 (Visa) or 5200 8282 8282 8210 (Mastercard), any future date, any CVC. 4242 4242 4242 4242 is a credit card and is refused.';

type CardField = 'number' | 'expiry' | 'cvc' | 'zip';

/** Stripe's error as it comes back from /v1/tokens. */
interface StripeErrorBody {
  error?: { message?: string; param?: string; code?: string };
}

/** Which of our fields a Stripe error concerns (its `param` or `code`). */
function fieldOf(error: StripeErrorBody['error']): CardField {
  const where = `${error?.param ?? ''} ${error?.code ?? ''}`;
  if (/exp/.test(where)) return 'expiry';
  if (/cvc/.test(where)) return 'cvc';
  if (/zip/.test(where)) return 'zip';
  return 'number';
}

/** Checks in the browser what Stripe would refuse anyway, in its words where it has them. */
function check(values: Record<CardField, string>, now: Date): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = checkCard(values, now);
  if (!/^\d{5}$/.test(values.zip)) errors.zip = 'Enter the 5-digit ZIP code of your billing address.';
  return errors;
}

/**
 * The card form of our own, used against the local Stripe emulator (Stripe Elements only talks to
 * Stripe itself). It makes the card token exactly as Stripe.js does: a form-encoded POST of
 * card[number], card[exp_month], card[exp_year], card[cvc], card[currency]=usd to /v1/tokens with
 * the publishable key as the bearer, here through the portal's same-origin `emulatorBase`.
 */
export function EmulatorCardForm({
  publishableKey,
  submit,
  emulatorBase,
  now = () => new Date(),
}: CardFormProps & { emulatorBase: string; now?: () => Date }) {
  const [values, setValues] = useState<Record<CardField, string>>({ number: '', expiry: '', cvc: '', zip: '' });
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const set = (field: CardField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    const found = check(values, now());
    setErrors(found);
    const first = (['number', 'expiry', 'cvc', 'zip'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`card-${first}`)?.focus();
      return;
    }
    inFlight.current = true;
    setBusy(true);
    try {
      const [month, year] = values.expiry.split('/').map((part) => part.trim());
      const form = new URLSearchParams({
        'card[number]': values.number.replace(/\D/g, ''),
        'card[exp_month]': String(Number(month)),
        'card[exp_year]': String(2000 + Number(year)),
        'card[cvc]': values.cvc,
        'card[address_zip]': values.zip,
        'card[currency]': 'usd',
      });
      const response = await fetch(`${emulatorBase}/v1/tokens`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${publishableKey}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
      });
      const body = (await response.json().catch(() => ({}))) as StripeErrorBody & { id?: string };
      if (!response.ok || !body.id) {
        const message = body.error?.message ?? 'Your card could not be checked. Try again.';
        if (response.status === 402 || response.status === 400) setErrors({ [fieldOf(body.error)]: message });
        else setFailure(message);
        return;
      }
      const refused = await submit(body.id);
      if (refused) {
        setErrors({ number: refused });
        document.getElementById('card-number')?.focus();
      }
    } catch {
      setFailure('Your card could not be checked: the connection failed. Try again.');
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <form className="form card-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={busy}>
      {failure ? <ErrorBanner message={failure} onDismiss={() => setFailure(null)} /> : null}
      <CardNumberField value={values.number} error={errors.number} onChange={(value) => set('number', value)} />
      <div className="card-form__row">
        <CardExpiryField value={values.expiry} error={errors.expiry} onChange={(value) => set('expiry', value)} />
        <CardCvcField value={values.cvc} error={errors.cvc} onChange={(value) => set('cvc', value)} />
        <FormField
          id="card-zip"
          label="ZIP"
          value={values.zip}
          error={errors.zip}
          onChange={(event) => set('zip', event.target.value.replace(/\D/g, '').slice(0, 5))}
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="12345"
          required
        />
      </div>
      <p className="field__hint card-form__test-cards" data-testid="test-cards-hint">
        {TEST_CARDS_HINT}
      </p>
      <div className="payout-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={busy ? true : undefined}>
          {busy ? (
            <>
              <span className="spinner spinner--small" aria-hidden="true" /> Adding your card…
            </>
          ) : (
            'Add debit card'
          )}
        </button>
      </div>
    </form>
  );
}
