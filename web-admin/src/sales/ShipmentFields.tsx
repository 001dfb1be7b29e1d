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

/** What the admin typed: the carrier ('' for none), its name for "Other", the tracking number. */
export interface ShipmentDraft {
  carrier: Carrier | '';
  carrierName: string;
  trackingNumber: string;
}

export const EMPTY_SHIPMENT: ShipmentDraft = { carrier: '', carrierName: '', trackingNumber: '' };

/** The fields' problems, by the server's rules (shared/src/api/carriers.ts, order-page.ts); none when it may be sent. */
export function shipmentErrors(draft: ShipmentDraft): Partial<Record<keyof ShipmentDraft, string>> {
  const number = draft.trackingNumber.trim();
  if (!draft.carrier) return number ? { carrier: NUMBER_WITHOUT_CARRIER } : {};
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
  if (!draft.carrier) return {};
  return {
    carrier: draft.carrier,
    trackingNumber: draft.trackingNumber,
    ...(draft.carrier === 'other' ? { carrierName: draft.carrierName.trim() } : {}),
  };
}

/**
 * The carrier and tracking number on the "Mark as Shipped" card: optional (an order may ship
 * without one), checked per carrier as the admin submits; the customer's shipping mail and order
 * page show them, with the carrier's tracking page for USPS, UPS, FedEx and DHL.
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
  const carrierHint = 'Optional: the customer is mailed the tracking number with the shipping notice.';
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
            const carrier = event.target.value as Carrier | '';
            // "No tracking number" drops what was typed: the fields it hides are not sent.
            onChange(carrier ? { ...value, carrier } : EMPTY_SHIPMENT);
          }}
        >
          <option value="">No tracking number</option>
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
      {value.carrier ? (
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
