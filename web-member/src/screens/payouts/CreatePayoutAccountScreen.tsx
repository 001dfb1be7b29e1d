import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { CreatePayoutAccountRequest, isTestModeKey, US_STATES, withHttps } from '@portal/shared/api/payments';
import { ApiError } from '@portal/shared/api/client';
import { ADDRESS_SEARCH_HINT } from '@portal/shared/api/address';
import { AddressAutocomplete, type SearchAddresses } from '@portal/shared/ui/components/AddressAutocomplete';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FieldError, FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon, ExternalLinkIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';
import { BackLink } from '@portal/shared/ui/components/BackLink';
import { birthYears, dayCount, formatTaxId } from './format';
import { DateOfBirthFields, StateSelect, TAX_ID_FIELD } from './PayoutDetailFields';
import { usePaymentConfig } from './usePaymentConfig';
import './payouts.css';

/** Stripe's Connected Account Agreement: what the member accepts with 'I agree to the Terms of Service'. */
export const STRIPE_CONNECT_TERMS = 'https://stripe.com/connect-account/legal';
export const PAYOUT_METHODS_PATH = '/my_account/payout_methods';
export const ACCOUNT_CREATED_NOTICE = 'Your payout account is created. Now add a debit card to get paid.';

type Field = Exclude<keyof CreatePayoutAccountRequest, 'refresh_token'>;

interface Values {
  social_profile: string;
  first_name: string;
  last_name: string;
  phone: string;
  street_address_1: string;
  address_unit: string;
  city: string;
  state: string;
  zipcode: string;
  dob_day: string;
  dob_month: string;
  dob_year: string;
  tax_id: string;
  tos_accepted: boolean;
}

const empty: Values = {
  social_profile: '',
  first_name: '',
  last_name: '',
  phone: '',
  street_address_1: '',
  address_unit: '',
  city: '',
  state: '',
  zipcode: '',
  dob_day: '',
  dob_month: '',
  dob_year: '',
  tax_id: '',
  tos_accepted: false,
};

const optionalNumber = (value: string): number | undefined => (value ? Number(value) : undefined);

/** The request body: what the shared schema checks here and the server checks again. */
function bodyOf(values: Values): Record<string, unknown> {
  return {
    social_profile: values.social_profile,
    first_name: values.first_name,
    last_name: values.last_name,
    phone: values.phone,
    street_address_1: values.street_address_1,
    ...(values.address_unit.trim() ? { address_unit: values.address_unit } : {}),
    city: values.city,
    state: values.state,
    zipcode: values.zipcode,
    dob_day: optionalNumber(values.dob_day),
    dob_month: optionalNumber(values.dob_month),
    dob_year: optionalNumber(values.dob_year),
    tax_id: values.tax_id,
    tos_accepted: values.tos_accepted,
  };
}

type Errors = Partial<Record<Field, string>>;

/** Each field's first message from the shared schema. */
function validate(values: Values): { errors: Errors; body?: CreatePayoutAccountRequest } {
  const parsed = CreatePayoutAccountRequest.safeParse(bodyOf(values));
  if (parsed.success) return { errors: {}, body: bodyOf(values) as CreatePayoutAccountRequest };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

const DOB_FIELDS: readonly Field[] = ['dob_day', 'dob_month', 'dob_year'];

/** '/my_account/create_payout_account': the payout account form (spec section 2). */
export function CreatePayoutAccountScreen({
  search,
  today = () => new Date(),
}: {
  /** The address search (tests pass their own); defaults to /api/searchAddress. */
  search?: SearchAddresses;
  today?: () => Date;
}) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const [addedHttps, setAddedHttps] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const config = usePaymentConfig();
  const testMode = isTestModeKey(config.data?.publishableKey);
  const years = useMemo(() => birthYears(today(), testMode), [today, testMode]);
  const call = auth.call;
  const searchAddresses = useMemo<SearchAddresses>(
    () =>
      search ?? ((text, signal) => call('searchAddress', { text }, { signal }).then((answer) => answer.ResultItems)),
    [search, call],
  );

  if (auth.userProfile?.isAccountCreated === 1) {
    return (
      <Page title="Create payout account" actions={<BackLink to="/my_account" />}>
        <div className="callout callout--done" role="status">
          <span className="checklist__icon checklist__icon--done" aria-hidden="true">
            <CheckIcon />
          </span>
          <div className="callout__text">
            <p className="callout__title">Your payout account is already created.</p>
            <p className="callout__body">
              {auth.userProfile.isPayoutMethodAdded === 1
                ? 'Your debit card is added too: commissions are paid to it.'
                : 'Add a debit card to get paid.'}
            </p>
          </div>
          <Link className="button button--primary" to={PAYOUT_METHODS_PATH}>
            {auth.userProfile.isPayoutMethodAdded === 1 ? 'See your payout methods' : 'Add a debit card'}
          </Link>
        </div>
      </Page>
    );
  }

  /** Updates values; a field already checked is checked again as it changes. */
  const change = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    const fresh = validate(next).errors;
    const fields = Object.keys(patch) as Field[];
    // The day list and the age depend on all three parts of the date.
    if (fields.some((field) => DOB_FIELDS.includes(field))) fields.push(...DOB_FIELDS);
    setErrors((shown) => {
      const updated: Errors = { ...shown };
      for (const field of fields) if (touched.has(field) || shown[field]) updated[field] = fresh[field];
      return updated;
    });
  };

  const blur = (field: Field) => {
    setTouched((current) => new Set(current).add(field));
    // A link typed without https:// gets it (as the server would add it), and the field says so.
    const linked = field === 'social_profile' ? withHttps(values.social_profile) : values.social_profile;
    if (linked !== values.social_profile.trim()) {
      setAddedHttps(true);
      setValues((current) => ({ ...current, social_profile: linked }));
    }
    setErrors((shown) => ({ ...shown, [field]: validate({ ...values, social_profile: linked }).errors[field] }));
  };

  /** A month or year change keeps the chosen day if the month has it, else the month's last day. */
  const changeDate = (patch: Partial<Pick<Values, 'dob_month' | 'dob_year'>>) => {
    const month = Number(patch.dob_month ?? values.dob_month) || null;
    const year = Number(patch.dob_year ?? values.dob_year) || null;
    const last = dayCount(month, year);
    const day = values.dob_day && Number(values.dob_day) > last ? String(last) : values.dob_day;
    change({ ...patch, dob_day: day });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    const checked = validate(values);
    setTouched(new Set(Object.keys(empty) as Field[]));
    setErrors(checked.errors);
    if (!checked.body) {
      const first = (Object.keys(empty) as Field[]).find((field) => checked.errors[field]);
      if (first) document.getElementById(`payout-${first}`)?.focus();
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    try {
      const answer = await call('createPayoutAccount', checked.body);
      auth.setUserProfile(answer.user);
      setValues(empty);
      void navigate(PAYOUT_METHODS_PATH, { state: { notice: ACCOUNT_CREATED_NOTICE } });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      const named = fields ? (Object.keys(fields) as Field[]).filter((field) => field in empty) : [];
      if (fields && named.length > 0) {
        setErrors((shown) => ({ ...shown, ...Object.fromEntries(named.map((field) => [field, fields[field]])) }));
        document.getElementById(`payout-${named[0]}`)?.focus();
      } else {
        setFailure(error instanceof Error ? error.message : 'Something went wrong. Try again.');
      }
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  const text = (field: Exclude<Field, 'tos_accepted' | 'dob_day' | 'dob_month' | 'dob_year'>) => ({
    id: `payout-${field}`,
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => change({ [field]: event.target.value }),
    onBlur: () => blur(field),
  });

  return (
    <Page
      title="Create payout account"
      description="We pay your commissions through Stripe. Stripe needs these details to verify who you are; your tax ID goes to Stripe only."
      actions={<BackLink to="/my_account" />}
    >
      <form
        className="form payout-form card"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-busy={submitting}
      >
        {failure ? (
          <ErrorBanner
            title="Your payout account was not created"
            message={failure}
            onDismiss={() => setFailure(null)}
          />
        ) : null}
        <fieldset className="payout-form__group">
          <legend className="payout-form__legend">About you</legend>
          <FormField
            {...text('social_profile')}
            label="Social profile link"
            hint={
              addedHttps
                ? 'We added https:// to your link. Where you share products: your Instagram, Facebook, TikTok or website.'
                : 'Where you share products: your Instagram, Facebook, TikTok or website.'
            }
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="instagram.com/yourname"
            required
          />
          <div className="payout-form__row">
            <FormField {...text('first_name')} label="First name" autoComplete="given-name" required />
            <FormField {...text('last_name')} label="Last name" autoComplete="family-name" required />
          </div>
          <FormField {...text('phone')} label="Phone" type="tel" autoComplete="tel-national" inputMode="tel" required />
        </fieldset>

        <fieldset className="payout-form__group">
          <legend className="payout-form__legend">Address</legend>
          <AddressAutocomplete
            id="payout-street_address_1"
            name="street_address_1"
            label="Street address"
            hint={ADDRESS_SEARCH_HINT}
            search={searchAddresses}
            value={values.street_address_1}
            error={errors.street_address_1}
            required
            onChange={(street) => change({ street_address_1: street })}
            onBlur={() => blur('street_address_1')}
            onSelect={(parts) => {
              const state = (US_STATES as readonly string[]).includes(parts.state) ? parts.state : values.state;
              change({
                street_address_1: parts.street || values.street_address_1,
                city: parts.city || values.city,
                state,
                zipcode: parts.zip || values.zipcode,
              });
            }}
          />
          <FormField {...text('address_unit')} label="Apartment, unit (optional)" autoComplete="address-line2" />
          <div className="payout-form__row payout-form__row--address">
            <FormField {...text('city')} label="City" autoComplete="address-level2" required />
            <StateSelect
              idPrefix="payout"
              value={values.state}
              error={errors.state}
              onChange={(state) => change({ state })}
              onBlur={() => blur('state')}
            />
            <FormField {...text('zipcode')} label="ZIP code" autoComplete="postal-code" inputMode="numeric" required />
          </div>
        </fieldset>

        <fieldset className="payout-form__group">
          <legend className="payout-form__legend">Date of birth</legend>
          <DateOfBirthFields
            idPrefix="payout"
            values={values}
            errors={errors}
            years={years}
            onChange={(field, value) =>
              field === 'dob_day' ? change({ dob_day: value }) : changeDate({ [field]: value })
            }
            onBlur={blur}
          />
        </fieldset>

        <fieldset className="payout-form__group">
          <legend className="payout-form__legend">Tax ID</legend>
          <FormField
            {...text('tax_id')}
            {...TAX_ID_FIELD}
            onChange={(event) => change({ tax_id: formatTaxId(event.target.value) })}
          />
        </fieldset>

        <div className={errors.tos_accepted ? 'field field--invalid' : 'field'}>
          <div className="checkbox-row">
            <input
              id="payout-tos_accepted"
              type="checkbox"
              className="checkbox-row__input"
              checked={values.tos_accepted}
              aria-invalid={errors.tos_accepted ? true : undefined}
              aria-describedby={errors.tos_accepted ? 'payout-tos_accepted-error' : undefined}
              onChange={(event) => {
                const accepted = event.target.checked;
                change({ tos_accepted: accepted });
                if (accepted) setErrors((shown) => ({ ...shown, tos_accepted: undefined }));
              }}
            />
            <label htmlFor="payout-tos_accepted" className="checkbox-row__label">
              I agree to the{' '}
              <a className="link" href={STRIPE_CONNECT_TERMS} target="_blank" rel="noopener noreferrer">
                Terms of Service
                <ExternalLinkIcon className="link__icon" aria-hidden="true" />
                <span className="visually-hidden"> (Stripe Connected Account Agreement, opens in a new tab)</span>
              </a>
            </label>
          </div>
          {errors.tos_accepted ? <FieldError id="payout-tos_accepted-error" message={errors.tos_accepted} /> : null}
        </div>

        <div className="payout-form__actions">
          <button
            type="submit"
            className="button button--primary payout-form__submit"
            // Not `disabled`: a disabled button cannot say why. Clicked before the terms are
            // accepted, it shows the reason by the checkbox and sends nothing.
            aria-disabled={!values.tos_accepted || submitting ? true : undefined}
            onClick={(event) => {
              if (submitting) {
                event.preventDefault();
                return;
              }
              if (!values.tos_accepted) {
                event.preventDefault();
                setTouched((current) => new Set(current).add('tos_accepted'));
                setErrors((shown) => ({ ...shown, tos_accepted: 'Accept the Terms of Service to continue' }));
                document.getElementById('payout-tos_accepted')?.focus();
              }
            }}
          >
            {submitting ? (
              <>
                <span className="spinner spinner--small" aria-hidden="true" /> Creating your payout account…
              </>
            ) : (
              'Create Payout Account'
            )}
          </button>
        </div>
      </form>
    </Page>
  );
}
