import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AdminDiscountCode } from '@portal/shared/api/discount-codes';
import { formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { SuccessNotice } from '../sales/SalesUi';
import './codes.css';

const CODES_KEY = ['discountCodes'] as const;

type Field = 'memberEmail' | 'code' | 'percentOff' | 'amountOff' | 'couponId' | 'expires' | 'maxRedemptions';
type Kind = 'percent' | 'amount' | 'coupon';

const dateOf = (seconds: number | null) =>
  seconds === null ? 'No end' : new Date(seconds * 1000).toISOString().slice(0, 10);

/** "12.50" → 1250 cents; undefined when it is not an amount. */
function centsOf(text: string): number | undefined {
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return undefined;
  return Math.round(Number(text) * 100);
}

/** '/admin/discount_codes': members' discount codes, made, listed with their uses and revenue, turned off (issue 39). */
export function DiscountCodesScreen() {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const codes = useQuery({ queryKey: CODES_KEY, queryFn: ({ signal }) => call('getDiscountCodes', {}, { signal }) });
  const [values, setValues] = useState<Record<Field, string>>({
    memberEmail: '',
    code: '',
    percentOff: '10',
    amountOff: '',
    couponId: '',
    expires: '',
    maxRedemptions: '',
  });
  const [kind, setKind] = useState<Kind>('percent');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [turningOff, setTurningOff] = useState<AdminDiscountCode | null>(null);
  const [offError, setOffError] = useState<string | null>(null);

  const field = (name: Field) => ({
    id: `code-${name}`,
    value: values[name],
    error: errors[name],
    disabled: busy,
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [name]: event.target.value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Partial<Record<Field, string>> = {};
    if (!values.memberEmail.trim()) found.memberEmail = 'Enter the member’s e-mail address.';
    const amountOffCents = centsOf(values.amountOff);
    if (kind === 'percent' && !(Number(values.percentOff) > 0 && Number(values.percentOff) <= 100)) {
      found.percentOff = 'Enter a percentage above 0 and at most 100.';
    }
    if (kind === 'amount' && !amountOffCents) found.amountOff = 'Enter an amount such as 5 or 4.99.';
    if (kind === 'coupon' && !values.couponId.trim()) found.couponId = 'Enter the coupon’s id from Stripe.';
    const max = values.maxRedemptions.trim();
    if (max && !/^[1-9]\d*$/.test(max)) found.maxRedemptions = 'Enter a whole number of uses, or leave it empty.';
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`code-${first}`)?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const made = await call('createDiscountCode', {
        memberEmail: values.memberEmail.trim(),
        ...(values.code.trim() ? { code: values.code.trim() } : {}),
        ...(kind === 'percent' ? { percentOff: Number(values.percentOff) } : {}),
        ...(kind === 'amount' ? { amountOffCents } : {}),
        ...(kind === 'coupon' ? { couponId: values.couponId.trim() } : {}),
        ...(values.expires ? { expiresAt: Math.floor(Date.parse(`${values.expires}T23:59:59Z`) / 1000) } : {}),
        ...(max ? { maxRedemptions: Number(max) } : {}),
      });
      setNotice(`Made ${made.code.code} (${made.code.discount}) for ${made.code.memberEmail}.`);
      setValues((current) => ({ ...current, memberEmail: '', code: '' }));
      await queryClient.invalidateQueries({ queryKey: CODES_KEY });
    } catch (caught) {
      const apiError = toApiError(caught);
      const fields: Partial<Record<Field, string>> = {};
      for (const [key, message] of Object.entries(apiError.fields ?? {})) {
        const name = (key === 'amountOffCents' ? 'amountOff' : key === 'expiresAt' ? 'expires' : key) as Field;
        fields[name] = message;
      }
      setErrors(fields);
      setFailure(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    if (!turningOff || busy) return;
    setBusy(true);
    setOffError(null);
    try {
      await call('disableDiscountCode', { code: turningOff.code });
      setNotice(`Turned off ${turningOff.code}: customers who type it are told so and pay the full price.`);
      setTurningOff(null);
      await queryClient.invalidateQueries({ queryKey: CODES_KEY });
    } catch (caught) {
      setOffError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  let list;
  if (codes.isPending) list = <Loading label="Loading the codes…" />;
  else if (codes.isError) {
    list = (
      <ErrorBanner
        title="The codes could not be loaded"
        message={codes.error.message}
        onRetry={() => void codes.refetch()}
        retrying={codes.isFetching}
      />
    );
  } else if (codes.data.items.length === 0) {
    list = (
      <p className="codes-empty">No codes yet. Make one above for a member who shares where links are not clickable.</p>
    );
  } else {
    list = (
      <ul className="codes-list" aria-label="Discount codes">
        {codes.data.items.map((code) => (
          <li key={code.code} className="card codes-item" data-testid={`code-${code.code}`}>
            <div className="codes-item__head">
              <h3 className="codes-item__code">{code.code}</h3>
              <span className={`codes-item__state codes-item__state--${code.status}`}>
                {code.status === 'active'
                  ? 'Active'
                  : code.status === 'disabled'
                    ? 'Turned off'
                    : code.status === 'expired'
                      ? 'Expired'
                      : 'Used up'}
              </span>
            </div>
            <p className="codes-item__line">
              {code.discount} · {code.memberEmail}
            </p>
            <dl className="codes-item__figures">
              <div>
                <dt>Uses</dt>
                <dd>{code.uses}</dd>
              </div>
              <div>
                <dt>Revenue</dt>
                <dd>{formatMoney(code.revenueCents)}</dd>
              </div>
              <div>
                <dt>Checkouts</dt>
                <dd>
                  {code.redeemed}
                  {code.maxRedemptions !== null ? ` of ${code.maxRedemptions}` : ''}
                </dd>
              </div>
              <div>
                <dt>Ends</dt>
                <dd>{dateOf(code.expiresAt)}</dd>
              </div>
            </dl>
            <p className="codes-item__status">{code.statusWords}</p>
            {code.orders.length > 0 ? (
              <details className="codes-item__orders">
                <summary>Orders with {code.code}</summary>
                <ul>
                  {code.orders.map((order) => (
                    <li key={order.orderId}>
                      {order.orderID}: paid {formatMoney(order.paidCents)} ({formatMoney(order.discountCents)} off)
                      {order.refundedCents > 0 ? `, refunded ${formatMoney(order.refundedCents)}` : ''}
                    </li>
                  ))}
                </ul>
              </details>
            ) : (
              <p className="codes-item__status">No paid orders with it yet.</p>
            )}
            {code.status !== 'disabled' ? (
              <button
                type="button"
                className="button button--small button--ghost"
                onClick={() => {
                  setOffError(null);
                  setTurningOff(code);
                }}
              >
                Turn off {code.code}…
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Page
      title="Discount codes"
      description="Members’ own codes for places where links are not clickable: the customer types the code, pays less, and the sale is the member’s."
    >
      <SuccessNotice message={notice} onDismiss={() => setNotice(null)} />
      <form
        className="card form codes-form"
        noValidate
        aria-labelledby="new-code-title"
        onSubmit={(event) => void create(event)}
      >
        <h2 id="new-code-title" className="codes-form__title">
          New code
        </h2>
        {failure ? <ErrorBanner message={failure} onDismiss={() => setFailure(null)} /> : null}
        <FormField {...field('memberEmail')} label="Member’s e-mail" type="email" autoComplete="off" required />
        <FormField
          {...field('code')}
          label="Code (optional: made from the member’s name)"
          autoComplete="off"
          maxLength={30}
        />
        <fieldset className="codes-form__kind">
          <legend>Discount</legend>
          {(
            [
              ['percent', 'Percentage off'],
              ['amount', 'Amount off'],
              ['coupon', 'An existing Stripe coupon'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="codes-form__choice">
              <input
                type="radio"
                name="code-kind"
                value={value}
                checked={kind === value}
                onChange={() => setKind(value)}
                disabled={busy}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        {kind === 'percent' ? (
          <FormField {...field('percentOff')} label="Percent off" inputMode="decimal" required />
        ) : null}
        {kind === 'amount' ? (
          <FormField {...field('amountOff')} label="Amount off ($)" inputMode="decimal" required />
        ) : null}
        {kind === 'coupon' ? (
          <FormField {...field('couponId')} label="Stripe coupon id" autoComplete="off" required />
        ) : null}
        <FormField {...field('expires')} label="Ends after (optional)" type="date" />
        <FormField {...field('maxRedemptions')} label="Most uses (optional)" inputMode="numeric" />
        <button type="submit" className="button button--primary" aria-disabled={busy ? true : undefined}>
          {busy ? 'Making the code…' : 'Make the code'}
        </button>
      </form>
      <h2 className="codes-heading">Codes</h2>
      {list}
      <ConfirmDialog
        open={turningOff !== null}
        title={`Turn off ${turningOff?.code ?? ''}?`}
        figures={turningOff ? [{ label: 'Member', value: turningOff.memberEmail }] : []}
        confirmLabel="Turn the code off"
        busyLabel="Turning off…"
        dismissLabel="Keep it on"
        busy={busy}
        error={offError}
        onConfirm={() => void turnOff()}
        onCancel={() => setTurningOff(null)}
      >
        <p>
          Customers who type it are told it was turned off and pay the full price. Its past orders stay the member’s.
          This cannot be undone: make a new code instead.
        </p>
      </ConfirmDialog>
    </Page>
  );
}
