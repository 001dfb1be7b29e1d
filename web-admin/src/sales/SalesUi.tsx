import { BackLink as SharedBackLink } from '@portal/shared/ui/components/BackLink';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { CheckIcon, DownloadIcon } from '@portal/shared/ui/components/icons';
import { LoadMore } from '@portal/shared/ui/components/LoadMore';
import type { CursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { Loading } from '@portal/shared/ui/components/Loading';
import { formatCount } from '@portal/shared/domain/format';
import { saveTextFile } from '../saveTextFile';
import './sales.css';

/** What a screen hands to the one it goes to after an action (router state). */
export interface NoticeState {
  notice?: string;
}

/** The Back link of a sub-screen: to its parent (/orders, /payouts). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return <SharedBackLink to={to} label={label} className="sales-back" />;
}

/** A success message: given, or handed over in the router state by the screen before; shown until dismissed. */
export function SuccessNotice({ message, onDismiss }: { message?: string | null; onDismiss?: () => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state as NoticeState | null)?.notice;
  const text = message ?? handed;
  if (!text) return null;
  const dismiss =
    onDismiss ??
    (() => navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null }));
  return (
    <div className="banner banner--success" role="status">
      <CheckIcon className="banner__icon" />
      <div className="banner__body">
        <p className="banner__message">{text}</p>
      </div>
      <div className="banner__actions">
        <button type="button" className="button button--ghost button--small" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** Export CSV: asks the server for the file (formula-escaped) and saves it, as the rejected-rows download does. */
export function ExportCsvButton({ kind }: { kind: 'orders' | 'commissions' }) {
  const { call } = useAuth();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const file = await call('exportCsv', { kind });
      saveTextFile(file.fileName, file.csv);
      setNote(`Saved ${file.fileName} (${file.rows === 1 ? '1 row' : `${file.rows} rows`}).`);
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sales-export">
      <button type="button" className="button button--secondary" onClick={download} disabled={busy}>
        <DownloadIcon className="button__icon" />
        {busy ? 'Preparing…' : 'Export CSV'}
      </button>
      {note ? (
        <p className="sales-export__note" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorBanner title="The export failed" message={error} onDismiss={() => setError(null)} /> : null}
    </div>
  );
}

/** A link to a sub-list with its count: 'Not shipped yet (3)'. */
export function CountLink({
  to,
  label,
  count,
  hideCount = false,
}: {
  to: string;
  label: string;
  count: number | null;
  hideCount?: boolean;
}) {
  return (
    <Link
      className="button button--secondary sales-count-link"
      to={to}
      aria-label={hideCount || count === null ? undefined : `${label}: ${formatCount(count)}`}
    >
      <span>{label}</span>
      {hideCount ? null : <span className="sales-count">{count === null ? '…' : formatCount(count)}</span>}
    </Link>
  );
}

/** The frame of a loaded list: the first load, a failed first page, the table, then 'Load more'. */
export function ListFrame<T>({ pages, noun, children }: { pages: CursorPages<T>; noun: string; children: ReactNode }) {
  if (pages.phase === 'loading') return <Loading label={`Loading the ${noun}…`} />;
  if (pages.phase === 'error')
    return (
      <ErrorBanner
        title={`The ${noun} could not be loaded`}
        message={pages.error ?? 'Something went wrong.'}
        onRetry={pages.reload}
      />
    );
  return (
    <>
      {children}
      <LoadMore pages={pages} noun={noun} auto={false} />
    </>
  );
}

/**
 * The server's refusal of a search, by field ('orderNumber': 'Enter an order number as…'), or null
 * when the list's error is not about its search (that one shows in the list's place with Retry).
 */
export function searchErrors(error: unknown, fields: readonly string[]): Record<string, string> | null {
  if (!error) return null;
  const refused = toApiError(error).fields ?? {};
  const about = Object.entries(refused).filter(([name]) => fields.includes(name));
  return about.length > 0 ? Object.fromEntries(about) : null;
}
