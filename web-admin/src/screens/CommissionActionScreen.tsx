import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Commission } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { DataTable, type DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { useIsPhone } from '@portal/shared/ui/hooks/useIsPhone';
import { commissionColumns } from '../sales/commissionColumns';
import { useCommissions } from '../sales/queries';
import { BackLink, ListFrame, type NoticeState } from '../sales/SalesUi';
import { PayoutBatchPanel } from '../sales/PayoutBatchPanel';

const SCREENS = {
  to_stripe: {
    title: 'To Stripe',
    lead: 'Commissions ready to send to the member’s Stripe account (their order is fulfilled).',
    empty: 'No commissions to send to Stripe.',
    call: 'addCommisionToStripe',
    button: 'Send to Stripe',
    busy: 'Sending…',
    done: (row: Commission) =>
      `Sent the ${money(row)} commission for order ${row.orderID} to ${row.member.email}’s Stripe account.`,
  },
  to_be_paid: {
    title: 'To Be Payed',
    lead: 'Commissions in the member’s Stripe balance, to pay out to their debit card.',
    empty: 'No commissions to pay.',
    call: 'payCommisionToMember',
    button: 'Pay to debit card',
    busy: 'Paying…',
    done: (row: Commission) =>
      `Started the payout of ${money(row)} for order ${row.orderID} to ${row.member.email}’s debit card.`,
  },
} as const;

const money = (row: Commission) => formatMoney(Math.round(row.amount * 100));

/**
 * '/admin/payouts/to_stripe' and '/admin/payouts/to_be_payed': each row has its button (Send to
 * Stripe, Pay to debit card), disabled with the reason when the commission cannot move yet, and
 * the last payout's failure when there was one. After an action: back to /payouts with a notice.
 */
export function CommissionActionScreen({ list }: { list: keyof typeof SCREENS }) {
  const config = SCREENS[list];
  const { call } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pages = useCursorPages(useCommissions(list));
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Commission | null>(null);
  const inFlight = useRef(false);
  // A payout names the member's debit card: read when its confirmation opens.
  const paying = list === 'to_be_paid' && confirming !== null;
  const card = useQuery({
    queryKey: queryKeys.payouts.memberCard(confirming?.member.id ?? ''),
    queryFn: () => call('getMemberPayoutCard', { memberId: confirming!.member.id }),
    enabled: paying,
    staleTime: 60_000,
  });

  // The confirmed action: one at a time (a second click, or another row's, waits for the answer).
  const act = useCallback(
    async (row: Commission) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setBusyId(row.id);
      setError(null);
      try {
        await call(config.call, { id: row.id });
        await queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all });
        navigate('/payouts', { state: { notice: config.done(row) } satisfies NoticeState });
      } catch (caught) {
        const apiError = toApiError(caught);
        setError(`Order ${row.orderID} (${row.member.email}): ${apiError.message}`);
        if (apiError.status === 409 || apiError.status === 404)
          void queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all });
      } finally {
        inFlight.current = false;
        setBusyId(null);
        setConfirming(null);
      }
    },
    [call, config, navigate, queryClient],
  );

  const columns = useMemo<DataColumn<Commission>[]>(() => {
    const action: DataColumn<Commission> = {
      id: 'action',
      header: 'Action',
      minWidth: 210,
      flex: 2,
      wrap: true,
      render: (row) => {
        const reasonId = `reason-${row.id}`;
        const busy = busyId === row.id;
        return (
          <div className="row-action">
            <span className="row-action__context">
              {row.orderID} · {row.member.email}
            </span>
            <button
              type="button"
              className="button button--primary button--small"
              disabled={row.blockedReason !== null || busyId !== null}
              aria-busy={busy}
              aria-describedby={row.blockedReason || row.payoutFailure ? reasonId : undefined}
              onClick={() => {
                if (inFlight.current) return;
                setError(null);
                setConfirming(row);
              }}
            >
              {busy ? config.busy : config.button}
            </button>
            {row.blockedReason || row.payoutFailure ? (
              <span id={reasonId} className="row-action__reasons">
                {row.payoutFailure ? (
                  <span className="row-action__reason row-action__reason--failure">
                    Last payout failed: {row.payoutFailure}
                  </span>
                ) : null}
                {row.blockedReason ? <span className="row-action__reason">{row.blockedReason}</span> : null}
              </span>
            ) : null}
          </div>
        );
      },
    };
    // The row's state is what the list is; the product is in the CSV export (the table fits a desktop page).
    // On a phone: the amount and the action, which names the order and member itself.
    const shown = commissionColumns
      .filter((column) => column.id !== 'state' && column.id !== 'product')
      .map((column) => (column.id === 'member' ? { ...column, hideOnPhone: true } : column));
    return [...shown, action];
  }, [busyId, config]);

  // The action cell: the button, each reason under it, and on a phone the order and member above it.
  const phone = useIsPhone();
  const rowHeight = (row: Commission) => {
    const reasons = (row.blockedReason ? 1 : 0) + (row.payoutFailure ? 1 : 0);
    return phone ? 104 + 40 * reasons : 60 + 22 * reasons;
  };

  return (
    <Page title={config.title} description={config.lead}>
      <BackLink to="/payouts" label="Payouts" />
      <PayoutBatchPanel step={list === 'to_stripe' ? 'send' : 'pay'} />
      {error ? <ErrorBanner title="Nothing was moved" message={error} onDismiss={() => setError(null)} /> : null}
      {confirming ? (
        <ConfirmDialog
          open
          title={
            list === 'to_stripe'
              ? `Send ${money(confirming)} to ${confirming.member.email}’s Stripe balance?`
              : card.data?.card
                ? `Pay ${money(confirming)} to the card ending ${card.data.card.last4}?`
                : `Pay ${money(confirming)} to ${confirming.member.email}’s debit card?`
          }
          figures={[
            { label: 'Member', value: confirming.member.email },
            { label: 'Order', value: confirming.orderID },
            ...(list === 'to_be_paid'
              ? [
                  {
                    label: 'Card',
                    value: card.data?.card ? `${card.data.card.brand} ending ${card.data.card.last4}` : '—',
                  },
                ]
              : []),
            { label: 'Amount', value: money(confirming) },
          ]}
          confirmLabel={list === 'to_stripe' ? `Send ${money(confirming)}` : `Pay ${money(confirming)}`}
          busyLabel={config.busy}
          busy={busyId !== null}
          confirmDisabled={paying && !card.data?.card}
          onConfirm={() => void act(confirming)}
          onCancel={() => setConfirming(null)}
        >
          {list === 'to_stripe' ? (
            <p>
              The commission for order {confirming.orderID} goes to {confirming.member.email}’s Stripe balance in one
              transfer; paying it out to their debit card is the next step.
            </p>
          ) : card.isPending ? (
            <p role="status">Looking up {confirming.member.email}’s debit card…</p>
          ) : card.isError ? (
            <p role="alert">
              The member’s debit card could not be read ({toApiError(card.error).message}): nothing can be paid until it
              is. Cancel and try again.
            </p>
          ) : card.data.card ? (
            <p>
              {money(confirming)} is paid out from {confirming.member.email}’s Stripe balance to their{' '}
              {card.data.card.brand} debit card ending {card.data.card.last4}
              {card.data.card.instant ? ', instantly where their balance covers Stripe’s fee' : ''}.
            </p>
          ) : (
            <p role="alert">
              {confirming.member.email} has no debit card at Stripe to pay out to: ask them to add one.
            </p>
          )}
        </ConfirmDialog>
      ) : null}
      <ListFrame pages={pages} noun="commissions">
        <DataTable
          rows={pages.items}
          columns={columns}
          rowId={(row) => row.id}
          label={config.title}
          emptyMessage={config.empty}
          rowHeight={rowHeight}
          tableId={`admin.commissions.${list}`}
        />
      </ListFrame>
    </Page>
  );
}
