import { useId } from 'react';
import {
  CARRIER_WITHOUT_NUMBER,
  NAME_THE_CARRIER,
  NUMBER_WITHOUT_CARRIER,
  CARRIERS,
  CARRIER_LABELS,
  MAX_CARRIER_NAME_LENGTH,
  MAX_TRACKING_LENGTH,
  isKnownCarrier,
  trackingExample,
  trackingProblem,
  type Carrier,
} from '@portal/shared/api/carriers';
import type { MarkAsShippedRequest } from '@portal/shared/api/order-page';
import { FieldError, FormField, fieldDescription } from '@portal/shared/ui/components/FormField';

/** What the admin chose: the carrier ('' not chosen yet, 'none' for no tracking), its name for "Other", the tracking number. */
export interface ShipmentDraft {
  carrier: Carrier | '' | 'none';
  carrierName: string;
  trackingNumber: string;
}

export const EMPTY_SHIPMENT: ShipmentDraft = { carrier: '', carrierName: '', trackingNumber: '' };

/** The fields' problems, by the server's rules (shared/src/api/carriers.ts, order-page.ts); none when it may be sent. */
export const CHOOSE_CARRIER = 'Choose the carrier, or “No tracking number” if the parcel has none.';

export function shipmentErrors(draft: ShipmentDraft): Partial<Record<keyof ShipmentDraft, string>> {
  const number = draft.trackingNumber.trim();
  if (draft.carrier === 'none') return {};
  if (!draft.carrier) return { carrier: number ? NUMBER_WITHOUT_CARRIER : CHOOSE_CARRIER };
  const errors: Partial<Record<keyof ShipmentDraft, string>> = {};
  if (!number) errors.trackingNumber = CARRIER_WITHOUT_NUMBER;
  else {
    const problem = trackingProblem(draft.carrier, number);
    if (problem) errors.trackingNumber = problem;
  }
  if (draft.carrier === 'other' && !draft.carrierName.trim()) errors.carrierName = NAME_THE_CARRIER;
  return errors;
}

/** The markAsShipped fields of a valid draft (none when no carrier was chosen: the spec's `{ id }`). */
export function shipmentBody(draft: ShipmentDraft): Omit<MarkAsShippedRequest, 'id'> {
  if (!draft.carrier || draft.carrier === 'none') return {};
  return {
    carrier: draft.carrier,
    trackingNumber: draft.trackingNumber,
    ...(draft.carrier === 'other' ? { carrierName: draft.carrierName.trim() } : {}),
  };
}

/** What marking shipped will do, in words, for the confirmation. */
export function shipmentSummary(draft: ShipmentDraft): string {
  if (draft.carrier === 'none' || !draft.carrier) {
    return 'The customer is mailed that the order has shipped without a tracking number.';
  }
  const name = draft.carrier === 'other' ? draft.carrierName.trim() : CARRIER_LABELS[draft.carrier];
  return `The customer is mailed that it has shipped with ${name}, tracking number ${draft.trackingNumber.trim()}.`;
}

/**
 * The carrier and tracking number on the "Mark as Shipped" card: the admin chooses a carrier (and
 * types its number) or says "No tracking number"; nothing is chosen for them. Checked per carrier
 * as the admin submits; the customer's shipping mail and order page show them, with the carrier's
 * tracking page for USPS, UPS, FedEx and DHL.
 */
export function ShipmentFields({
  value,
  errors,
  disabled,
  onChange,
}: {
  value: ShipmentDraft;
  errors: Partial<Record<keyof ShipmentDraft, string>>;
  disabled: boolean;
  onChange: (next: ShipmentDraft) => void;
}) {
  const id = useId();
  const carrierId = `${id}-carrier`;
  const carrierHint = 'The customer is mailed the carrier and tracking number with the shipping notice.';
  const { hintId, errorId, describedBy } = fieldDescription(carrierId, carrierHint, errors.carrier);
  const hint =
    value.carrier && isKnownCarrier(value.carrier)
      ? `For example ${trackingExample(value.carrier)}. Spaces and dashes are fine.`
      : value.carrier === 'other'
        ? 'As the carrier prints it; shown to the customer without a link.'
        : undefined;
  return (
    <fieldset className="shipment-fields" disabled={disabled}>
      <legend className="shipment-fields__legend">Carrier and tracking</legend>
      <div className={errors.carrier ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={carrierId}>
          Carrier
        </label>
        <p className="field__hint" id={hintId}>
          {carrierHint}
        </p>
        <select
          id={carrierId}
          className="field__input field__select"
          value={value.carrier}
          aria-invalid={errors.carrier ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            const carrier = event.target.value as ShipmentDraft['carrier'];
            // "No tracking number" drops what was typed: the fields it hides are not sent.
            onChange(carrier && carrier !== 'none' ? { ...value, carrier } : { ...EMPTY_SHIPMENT, carrier });
          }}
        >
          <option value="">Choose the carrier</option>
          <option value="none">No tracking number</option>
          {CARRIERS.map((carrier) => (
            <option key={carrier} value={carrier}>
              {CARRIER_LABELS[carrier]}
            </option>
          ))}
        </select>
        {errors.carrier ? <FieldError id={errorId} message={errors.carrier} /> : null}
      </div>
      {value.carrier === 'other' ? (
        <FormField
          label="Carrier name"
          value={value.carrierName}
          maxLength={MAX_CARRIER_NAME_LENGTH}
          error={errors.carrierName}
          autoComplete="off"
          onChange={(event) => onChange({ ...value, carrierName: event.target.value })}
        />
      ) : null}
      {value.carrier && value.carrier !== 'none' ? (
        <FormField
          label="Tracking number"
          value={value.trackingNumber}
          maxLength={MAX_TRACKING_LENGTH * 2}
          hint={hint}
          error={errors.trackingNumber}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onChange({ ...value, trackingNumber: event.target.value })}
        />
      ) : null}
    </fieldset>
  );
}
