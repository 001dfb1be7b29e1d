import { US_STATES } from '@portal/shared/api/payments';
import { dayCount, MONTHS } from './format';
import { SelectField } from './SelectField';

/**
 * The fields the payout account's form and its correction form share: the state,
 * the date of birth and the tax ID, each with the same label, autofill and choices in both. Each
 * form keeps its own values, checks and ids (`idPrefix`: `payout` or `correct`).
 */

/** The state of a US address, by its 2-letter code. */
export function StateSelect({
  idPrefix,
  value,
  error,
  onChange,
  onBlur,
}: {
  idPrefix: string;
  value: string;
  error?: string;
  onChange: (state: string) => void;
  onBlur?: () => void;
}) {
  return (
    <SelectField
      id={`${idPrefix}-state`}
      name="state"
      label="State"
      autoComplete="address-level1"
      required
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    >
      <option value="">Choose…</option>
      {US_STATES.map((state) => (
        <option key={state} value={state}>
          {state}
        </option>
      ))}
    </SelectField>
  );
}

export type DobField = 'dob_month' | 'dob_day' | 'dob_year';

/** Month, day and year as three selects; the day list has as many days as the chosen month. */
export function DateOfBirthFields({
  idPrefix,
  values,
  errors,
  years,
  onChange,
  onBlur,
}: {
  idPrefix: string;
  values: Record<DobField, string>;
  errors: Partial<Record<DobField, string | undefined>>;
  years: readonly number[];
  onChange: (field: DobField, value: string) => void;
  onBlur?: (field: DobField) => void;
}) {
  const days = dayCount(Number(values.dob_month) || null, Number(values.dob_year) || null);
  const select = (
    field: DobField,
    label: string,
    autoComplete: string,
    options: { value: number; label: string }[],
  ) => (
    <SelectField
      id={`${idPrefix}-${field}`}
      name={field}
      label={label}
      autoComplete={autoComplete}
      required
      value={values[field]}
      error={errors[field]}
      onChange={(event) => onChange(field, event.target.value)}
      onBlur={onBlur ? () => onBlur(field) : undefined}
    >
      <option value="">{label}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </SelectField>
  );
  return (
    <div className="payout-form__row payout-form__row--dob">
      {select(
        'dob_month',
        'Month',
        'bday-month',
        MONTHS.map((name, index) => ({ value: index + 1, label: name })),
      )}
      {select(
        'dob_day',
        'Day',
        'bday-day',
        Array.from({ length: days }, (_, index) => ({ value: index + 1, label: String(index + 1) })),
      )}
      {select(
        'dob_year',
        'Year',
        'bday-year',
        years.map((year) => ({ value: year, label: String(year) })),
      )}
    </div>
  );
}

/** The tax ID field's words and input settings (its value goes through formatTaxId as it is typed). */
export const TAX_ID_FIELD = {
  label: 'Social Security number or ITIN',
  hint: 'Nine digits. Sent to Stripe only; we never keep it.',
  inputMode: 'numeric',
  autoComplete: 'off',
  placeholder: '123-45-6789',
  maxLength: 11,
  required: true,
} as const;
