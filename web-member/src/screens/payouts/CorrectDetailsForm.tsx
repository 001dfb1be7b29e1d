import { useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@portal/shared/api/client';
import { isTestModeKey, updatePayoutAccountRequest } from '@portal/shared/api/payments';
import { fieldLabel } from '@portal/shared/api/messages';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { birthYears, formatTaxId } from './format';
import type { CorrectionGroup } from './requirements';
import { DateOfBirthFields, StateSelect, TAX_ID_FIELD } from './PayoutDetailFields';
import { usePaymentConfig } from './usePaymentConfig';

type Field =
  | 'first_name'
  | 'last_name'
  | 'street_address_1'
  | 'address_unit'
  | 'city'
  | 'state'
  | 'zipcode'
  | 'dob_day'
  | 'dob_month'
  | 'dob_year'
  | 'tax_id';

const FIELDS_OF: Record<CorrectionGroup, Field[]> = {
  name: ['first_name', 'last_name'],
  dob: ['dob_month', 'dob_day', 'dob_year'],
  address: ['street_address_1', 'address_unit', 'city', 'state', 'zipcode'],
  tax_id: ['tax_id'],
};

const LEGEND: Record<CorrectionGroup, string> = {
  name: 'Your legal name',
  dob: 'Date of birth',
  address: 'Home address',
  tax_id: 'Tax ID',
};

/**
 * "Needs attention": the details Stripe could not verify, as fields to correct (only the groups
 * its requirements name, prefilled with what the portal keeps: the name and address; never the
 * date of birth or tax ID), sent to Stripe by /api/updatePayoutAccount, which checks them again.
 */
export function CorrectDetailsForm({
  groups,
  today = () => new Date(),
}: {
  groups: CorrectionGroup[];
  today?: () => Date;
}) {
  const auth = useAuth();
  const profile = auth.userProfile;
  const config = usePaymentConfig();
  const testMode = isTestModeKey(config.data?.publishableKey);
  const years = useMemo(() => birthYears(today(), testMode), [today, testMode]);
  const schema = useMemo(() => updatePayoutAccountRequest(today), [today]);
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    first_name: profile?.first_name ?? '',
    last_name: profile?.last_name ?? '',
    street_address_1: profile?.street_address_1 ?? '',
    address_unit: profile?.address_unit ?? '',
    city: profile?.city ?? '',
    state: profile?.state ?? '',
    zipcode: profile?.zipcode ?? '',
    dob_day: '',
    dob_month: '',
    dob_year: '',
    tax_id: '',
  }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const fields = groups.flatMap((group) => FIELDS_OF[group]);

  const bodyOf = (): Record<string, unknown> =>
    Object.fromEntries(
      fields.flatMap((field): [Field, string | number | undefined][] => {
        const value = values[field].trim();
        if (field === 'address_unit') return value ? [[field, value]] : [];
        return [[field, field.startsWith('dob_') ? (value ? Number(value) : undefined) : values[field]]];
      }),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    const parsed = schema.safeParse(bodyOf());
    // Every field of a group shown is needed (the groups are sent whole).
    const missing = fields.filter((field) => field !== 'address_unit' && !values[field].trim());
    if (!parsed.success || missing.length) {
      const found: Partial<Record<Field, string>> = Object.fromEntries(
        missing.map((field) => [field, `The ${fieldLabel([field])} is required.`]),
      );
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field = issue.path[0] as Field | undefined;
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      const first = fields.find((field) => found[field]);
      if (first) document.getElementById(`correct-${first}`)?.focus();
      return;
    }
    setErrors({});
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await auth.call('updatePayoutAccount', bodyOf() as never);
      auth.setUserProfile(answer.user);
    } catch (error) {
      const named = error instanceof ApiError && error.fields ? error.fields : undefined;
      const mine = named ? fields.filter((field) => named[field]) : [];
      if (named && mine.length) setErrors(Object.fromEntries(mine.map((field) => [field, named[field]])));
      else setFailure(error instanceof Error ? error.message : 'Something went wrong. Try again.');
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const text = (field: Field, label: string, extra: Record<string, unknown> = {}) => (
    <FormField
      id={`correct-${field}`}
      name={field}
      label={label}
      value={values[field]}
      error={errors[field]}
      onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
      {...extra}
    />
  );

  return (
    <form className="form payout-form card" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <h3 className="section-title">Correct your details</h3>
      {failure ? (
        <ErrorBanner title="Your details were not sent" message={failure} onDismiss={() => setFailure(null)} />
      ) : null}
      {groups.map((group) => (
        <fieldset className="payout-form__group" key={group}>
          <legend className="payout-form__legend">{LEGEND[group]}</legend>
          {group === 'name' ? (
            <div className="payout-form__row">
              {text('first_name', 'First name', { autoComplete: 'given-name', required: true })}
              {text('last_name', 'Last name', { autoComplete: 'family-name', required: true })}
            </div>
          ) : null}
          {group === 'address' ? (
            <>
              {text('street_address_1', 'Street address', { autoComplete: 'address-line1', required: true })}
              {text('address_unit', 'Apartment, unit (optional)', { autoComplete: 'address-line2' })}
              <div className="payout-form__row payout-form__row--address">
                {text('city', 'City', { autoComplete: 'address-level2', required: true })}
                <StateSelect
                  idPrefix="correct"
                  value={values.state}
                  error={errors.state}
                  onChange={(state) => setValues((current) => ({ ...current, state }))}
                />
                {text('zipcode', 'ZIP code', { autoComplete: 'postal-code', inputMode: 'numeric', required: true })}
              </div>
            </>
          ) : null}
          {group === 'dob' ? (
            <DateOfBirthFields
              idPrefix="correct"
              values={values}
              errors={errors}
              years={years}
              onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
            />
          ) : null}
          {group === 'tax_id'
            ? text('tax_id', TAX_ID_FIELD.label, {
                ...TAX_ID_FIELD,
                onChange: (event: { target: { value: string } }) =>
                  setValues((current) => ({ ...current, tax_id: formatTaxId(event.target.value) })),
              })
            : null}
        </fieldset>
      ))}
      <div className="payout-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={busy ? true : undefined}>
          {busy ? (
            <>
              <span className="spinner spinner--small" aria-hidden="true" /> Sending to Stripe…
            </>
          ) : (
            'Send to Stripe for checking'
          )}
        </button>
      </div>
    </form>
  );
}
