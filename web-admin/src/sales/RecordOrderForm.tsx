import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { ProductPicker, type PickedProduct } from '../catalogue/ProductPicker';
import { reloadSales } from './queries';

const EMPTY = {
  product_id: '',
  qty: '1',
  ref: '',
  name: '',
  email: '',
  line1: '',
  line2: '',
  city: '',
  state: '',
  postal_code: '',
};
type Values = typeof EMPTY;
type FieldName = keyof Values;

/** The request's field paths (as a 400 names them) → the form's fields. */
const FIELD_OF: Record<string, FieldName> = {
  product_id: 'product_id',
  qty: 'qty',
  ref: 'ref',
  'customer.name': 'name',
  'customer.email': 'email',
  'customer.address.line1': 'line1',
  'customer.address.line2': 'line2',
  'customer.address.city': 'city',
  'customer.address.state': 'state',
  'customer.address.postal_code': 'postal_code',
};

/**
 * 'Record an order': a sale made by phone or e-mail. The price comes from the approved product;
 * the member's share code names who earns the commission; the customer is optional. A 400 shows
 * each problem under its field.
 */
export function RecordOrderForm({ onRecorded }: { onRecorded: (message: string) => void }) {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(EMPTY);
  const [picked, setPicked] = useState<PickedProduct | null>(null);
  /** Moves on after each recorded order, so the product picker starts empty. */
  const [recorded, setRecorded] = useState(0);
  const [withCustomer, setWithCustomer] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = (name: FieldName) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!picked) {
      setErrors({ product_id: 'Pick the product: type the start of its name or its SPU, then choose it in the list.' });
      formRef.current?.querySelector<HTMLInputElement>('[name="product_id"]')?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    setErrors({});
    const qty = Number(values.qty);
    try {
      const result = await call('addOrder', {
        product_id: picked?.id ?? '',
        qty: Number.isFinite(qty) && values.qty.trim() !== '' ? qty : Number.NaN,
        ref: values.ref.trim(),
        customer: withCustomer
          ? {
              name: values.name,
              email: values.email,
              address: {
                line1: values.line1,
                ...(values.line2.trim() ? { line2: values.line2 } : {}),
                city: values.city,
                state: values.state,
                postal_code: values.postal_code,
              },
            }
          : undefined,
      });
      setValues(EMPTY);
      setPicked(null);
      setRecorded((count) => count + 1);
      setWithCustomer(false);
      void reloadSales(queryClient);
      const commission = result.commission;
      onRecorded(
        `Order ${result.order.orderID} recorded` +
          (commission
            ? `, with a ${formatMoney(Math.round(commission.amount * 100))} commission for ${commission.member.email}.`
            : '.'),
      );
    } catch (caught) {
      const apiError = toApiError(caught);
      const byField: Partial<Record<FieldName, string>> = {};
      const unplaced: string[] = [];
      for (const [path, message] of Object.entries(apiError.fields ?? {})) {
        const field = FIELD_OF[path];
        if (field) byField[field] = message;
        else unplaced.push(message);
      }
      setErrors(byField);
      if (Object.keys(byField).length === 0 || unplaced.length > 0) setProblem(unplaced.join(' ') || apiError.message);
      // The first field with a problem gets the focus.
      const first = Object.keys(byField)[0];
      if (first) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="card record-order">
      <summary>Record an order</summary>
      <p className="field__hint">For a sale made by phone or e-mail: the price is the product’s sell price.</p>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-label="Record an order">
        <div className="record-order__grid">
          <ProductPicker
            key={recorded}
            value={picked}
            onChange={(product) => {
              setPicked(product);
              setErrors((current) => ({ ...current, product_id: undefined }));
            }}
            error={errors.product_id}
          />
          <FormField
            label="Quantity"
            name="qty"
            type="number"
            inputMode="numeric"
            min={1}
            value={values.qty}
            onChange={set('qty')}
            error={errors.qty}
          />
          <FormField
            label="Member share code"
            name="ref"
            value={values.ref}
            onChange={set('ref')}
            error={errors.ref}
            autoComplete="off"
          />
        </div>
        <label className="record-order__check">
          <input type="checkbox" checked={withCustomer} onChange={(event) => setWithCustomer(event.target.checked)} />{' '}
          Add the customer
        </label>
        {withCustomer ? (
          <fieldset className="record-order__customer">
            <legend>Customer</legend>
            <div className="record-order__grid">
              <FormField
                label="Name"
                name="name"
                value={values.name}
                onChange={set('name')}
                error={errors.name}
                autoComplete="off"
              />
              <FormField
                label="E-mail"
                name="email"
                type="email"
                value={values.email}
                onChange={set('email')}
                error={errors.email}
                autoComplete="off"
              />
              <FormField
                label="Address"
                name="line1"
                value={values.line1}
                onChange={set('line1')}
                error={errors.line1}
                autoComplete="off"
              />
              <FormField
                label="Apartment, suite (optional)"
                name="line2"
                value={values.line2}
                onChange={set('line2')}
                error={errors.line2}
                autoComplete="off"
              />
              <FormField
                label="City"
                name="city"
                value={values.city}
                onChange={set('city')}
                error={errors.city}
                autoComplete="off"
              />
              <FormField
                label="State"
                name="state"
                value={values.state}
                onChange={set('state')}
                error={errors.state}
                autoComplete="off"
                maxLength={2}
              />
              <FormField
                label="ZIP code"
                name="postal_code"
                value={values.postal_code}
                onChange={set('postal_code')}
                error={errors.postal_code}
                autoComplete="off"
              />
            </div>
          </fieldset>
        ) : null}
        {problem ? (
          <ErrorBanner title="The order was not recorded" message={problem} onDismiss={() => setProblem(null)} />
        ) : null}
        <div>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Recording…' : 'Record the order'}
          </button>
        </div>
      </form>
    </details>
  );
}
