import { useMemo } from 'react';
import { DISPLAY_NAME_MAX, UpdateProfileRequest, displayNameOf } from '@portal/shared/api/account';
import { US_STATES } from '@portal/shared/api/payments';
import type { UserProfile } from '@portal/shared/api/schemas';
import { ADDRESS_SEARCH_HINT } from '@portal/shared/api/address';
import { AddressAutocomplete, type SearchAddresses } from '@portal/shared/ui/components/AddressAutocomplete';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { SelectField } from '../payouts/SelectField';
import { useSchemaForm } from './useSchemaForm';

type Field =
  | 'first_name'
  | 'last_name'
  | 'display_name'
  | 'phone'
  | 'street_address_1'
  | 'address_unit'
  | 'city'
  | 'state'
  | 'zipcode';

const valuesOf = (profile: UserProfile | null): Record<Field, string> => ({
  first_name: profile?.first_name ?? '',
  last_name: profile?.last_name ?? '',
  display_name: profile?.display_name ?? '',
  phone: profile?.phone ?? '',
  street_address_1: profile?.street_address_1 ?? '',
  address_unit: profile?.address_unit ?? '',
  city: profile?.city ?? '',
  state: profile?.state ?? '',
  zipcode: profile?.zipcode ?? '',
});

/** The profile's own fields (names, display name, phone, address): /api/updateProfile. */
export function ProfileForm({
  onDone,
  onCancel,
  search,
}: {
  onDone: () => void;
  onCancel: () => void;
  search?: SearchAddresses;
}) {
  const { call, userProfile, setUserProfile } = useAuth();
  const searchAddresses = useMemo<SearchAddresses>(
    () =>
      search ?? ((text, signal) => call('searchAddress', { text }, { signal }).then((answer) => answer.ResultItems)),
    [search, call],
  );
  const form = useSchemaForm<Field>(
    UpdateProfileRequest,
    valuesOf(userProfile),
    async (values) => {
      const answer = await call('updateProfile', values);
      setUserProfile(answer.userProfile);
      onDone();
    },
    'profile',
  );
  const fallback = displayNameOf({ ...form.values, display_name: '' });

  return (
    <form className="form payout-form" noValidate onSubmit={(event) => void form.submit(event)} aria-busy={form.busy}>
      {form.failure ? (
        <ErrorBanner title="Your profile was not saved" message={form.failure} onDismiss={form.dismissFailure} />
      ) : null}
      <fieldset className="payout-form__group">
        <legend className="payout-form__legend">Your name</legend>
        <div className="payout-form__row">
          <FormField {...form.field('first_name')} label="First name" autoComplete="given-name" required />
          <FormField {...form.field('last_name')} label="Last name" autoComplete="family-name" required />
        </div>
        <FormField
          {...form.field('display_name')}
          label="Display name (optional)"
          hint={`What customers see on the products you share: “Recommended by ${
            form.values.display_name.trim() || fallback || 'your name'
          }”. Leave it empty for your first name and last initial${fallback ? ` (${fallback})` : ''}.`}
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="nickname"
        />
        <FormField
          {...form.field('phone')}
          label="Phone (optional)"
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
        />
      </fieldset>
      <fieldset className="payout-form__group">
        <legend className="payout-form__legend">Address (optional)</legend>
        <AddressAutocomplete
          id="profile-street_address_1"
          name="street_address_1"
          label="Street address"
          hint={ADDRESS_SEARCH_HINT}
          search={searchAddresses}
          value={form.values.street_address_1}
          error={form.errors.street_address_1}
          onChange={(street) => form.change({ street_address_1: street })}
          onBlur={() => form.blur('street_address_1')}
          onSelect={(parts) => {
            const state = (US_STATES as readonly string[]).includes(parts.state) ? parts.state : form.values.state;
            form.change({
              street_address_1: parts.street || form.values.street_address_1,
              city: parts.city || form.values.city,
              state,
              zipcode: parts.zip || form.values.zipcode,
            });
          }}
        />
        <FormField {...form.field('address_unit')} label="Apartment, unit (optional)" autoComplete="address-line2" />
        <div className="payout-form__row payout-form__row--address">
          <FormField {...form.field('city')} label="City" autoComplete="address-level2" />
          <SelectField
            id="profile-state"
            name="state"
            label="State"
            autoComplete="address-level1"
            value={form.values.state}
            error={form.errors.state}
            onChange={(event) => form.change({ state: event.target.value })}
            onBlur={() => form.blur('state')}
          >
            <option value="">Choose…</option>
            {US_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </SelectField>
          <FormField {...form.field('zipcode')} label="ZIP code" autoComplete="postal-code" inputMode="numeric" />
        </div>
      </fieldset>
      <div className="profile-form__actions">
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
          Save profile
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
