import { FormField } from '@portal/shared/ui/components/FormField';
import { formatCardNumber, formatExpiry } from './format';

/**
 * The card fields both emulator card forms show (the payout card and the customer's checkout):
 * number in groups, expiry as "MM / YY" and CVC, each formatted as it is typed. The forms lay
 * them out and check them (`checkCard` in ./format).
 */
interface CardFieldProps {
  value: string;
  error?: string | null | undefined;
  /** The formatted value. */
  onChange: (value: string) => void;
  disabled?: boolean;
}

export function CardNumberField({ value, error, onChange, disabled }: CardFieldProps) {
  return (
    <FormField
      id="card-number"
      label="Card number"
      value={value}
      error={error}
      onChange={(event) => onChange(formatCardNumber(event.target.value))}
      inputMode="numeric"
      autoComplete="cc-number"
      placeholder="1234 1234 1234 1234"
      maxLength={23}
      disabled={disabled}
      required
    />
  );
}

export function CardExpiryField({ value, error, onChange, disabled }: CardFieldProps) {
  return (
    <FormField
      id="card-expiry"
      label="Expiry"
      value={value}
      error={error}
      onChange={(event) => onChange(formatExpiry(event.target.value))}
      inputMode="numeric"
      autoComplete="cc-exp"
      placeholder="MM / YY"
      maxLength={7}
      disabled={disabled}
      required
    />
  );
}

export function CardCvcField({ value, error, onChange, disabled }: CardFieldProps) {
  return (
    <FormField
      id="card-cvc"
      label="CVC"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 4))}
      inputMode="numeric"
      autoComplete="cc-csc"
      placeholder="123"
      disabled={disabled}
      required
    />
  );
}
