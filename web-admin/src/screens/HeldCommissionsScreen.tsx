import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Commission } from '@portal/shared/api/sales';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { ConfirmDialog } from '@portal/shared/ui/components/ConfirmDialog';
import { DataTable, type DataColumn } from '@portal/shared/ui/components/LazyDataTable';
import { Page } from '@portal/shared/ui/components/Page';
import { useIsPhone } from '@portal/shared/ui/hooks/useIsPhone';
import { commissionColumns } from '../sales/commissionColumns';
import { SALES_PAGE_SIZE } from '../sales/pageSize';
import { BackLink, ListFrame, SuccessNotice } from '../sales/SalesUi';

type Decision = 'release' | 'cancel';

const money = (row: Commission) => formatMoney(Math.round(row.amount * 100));

const WORDS: Record<
  Decision,
  { button: string; title: string; confirm: string; busy: string; keep: string; done: (row: Commission) => string }
> = {
  release: {
    button: 'Release…',
    title: 'Release this commission?',
    confirm: 'Release the commission',
    busy: 'Releasing…',
    keep: 'Keep it held',
    done: (row) => `Released the ${money(row)} commission of ${row.member.email} on order ${row.orderID}.`,
  },
  cancel: {
    button: 'Cancel commission…',
    title: 'Cancel this commission?',
    confirm: 'Cancel the commission',
    busy: 'Cancelling…',
    keep: 'Keep it held',
    done: (row) => `Cancelled the ${money(row)} commission of ${row.member.email} on order ${row.orderID}.`,
  },
};

/** '/admin/payouts/held': the commissions held for review at their sale, each released or cancelled after a confirmation. */
export function HeldCommissionsScreen() {
  const { call } = useAuth();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: queryKeys.payouts.list('held'),
      queryFn: ({ pageParam, signal }) =>
        call('getHeldCommissions', { cursor: pageParam, limit: SALES_PAGE_SIZE }, { signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
    }),
  );
  const pages = useCursorPages(query);
  const [asked, setAsked] = useState<{ row: Commission; decision: Decision } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const decide = async () => {
    if (!asked || busy) return;
    setBusy(true);
    setError(null);
    try {
      await call('reviewHeldCommission', { id: asked.row.id, decision: asked.decision });
      setNotice(WORDS[asked.decision].done(asked.row));
      setAsked(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all });
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError.message);
      if (apiError.status === 409 || apiError.status === 404)
        void queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all });
    } finally {
      setBusy(false);
    }
  };

  const columns = useMemo<DataColumn<Commission>[]>(() => {
    const action: DataColumn<Commission> = {
      id: 'action',
      header: 'Decision',
      // Wide enough for the reason on two lines and both buttons on one.
      minWidth: 340,
      flex: 3,
      wrap: true,
      render: (row) => (
        <div className="row-action">
          <span className="row-action__context">
            {row.orderID} · {row.member.email}
          </span>
          <span className="row-action__reasons">
            <span className="row-action__reason">{row.blockedReason}</span>
          </span>
          <span className="held-actions">
            {(['release', 'cancel'] as const).map((decision) => (
              <button
                key={decision}
                type="button"
                className={`button button--small ${decision === 'release' ? 'button--primary' : 'button--ghost'}`}
                aria-label={`${WORDS[decision].button.replace('…', '')} ${money(row)} of ${row.member.email} (order ${row.orderID})…`}
                onClick={() => {
                  setError(null);
                  setAsked({ row, decision });
                }}
              >
                {WORDS[decision].button}
              </button>
            ))}
          </span>
        </div>
      ),
    };
    // The reason is in the action cell; the product and the date are the order's (the order ID names it).
    const shown = commissionColumns
      .filter((column) => column.id !== 'state' && column.id !== 'product' && column.id !== 'created_at')
      .map((column) => (column.id === 'member' ? { ...column, hideOnPhone: true } : column));
    return [...shown, action];
  }, []);

  const phone = useIsPhone();
  const words = asked ? WORDS[asked.decision] : WORDS.release;
  return (
    <Page
      title="Held for review"
      description="Commissions held at their sale: bought through the member’s own link, or paid for a product banned before the payment."
    >
      <BackLink to="/payouts" label="Payouts" />
      <SuccessNotice message={notice} onDismiss={() => setNotice(null)} />
      <ListFrame pages={pages} noun="held commissions">
        <DataTable
          rows={pages.items}
          columns={columns}
          rowId={(row) => row.id}
          label="Held for review"
          emptyMessage="No commissions are held for review."
          rowHeight={() => (phone ? 190 : 140)}
          tableId="admin.commissions.held"
        />
      </ListFrame>
      <ConfirmDialog
        open={asked !== null}
        title={words.title}
        figures={asked ? [{ label: 'Commission', value: money(asked.row) }] : []}
        confirmLabel={words.confirm}
        busyLabel={words.busy}
        dismissLabel={words.keep}
        busy={busy}
        error={error}
        onConfirm={() => void decide()}
        onCancel={() => setAsked(null)}
      >
        {asked ? (
          <p>
            {asked.decision === 'release'
              ? `${asked.row.member.email} gets this commission on order ${asked.row.orderID}: it moves on as any other, once the order is fulfilled and its hold ends.`
              : `${asked.row.member.email} earns nothing on order ${asked.row.orderID}. This cannot be undone.`}{' '}
            {asked.row.blockedReason}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}
