import { useState } from 'react';
import type { ImportJob } from '@portal/shared/api/products';
import { formatCount } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useImportIssues } from '@portal/shared/ui/hooks/catalogueQueries';
import { LoadMore } from '@portal/shared/ui/components/LoadMore';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { AlertIcon, CheckIcon, DownloadIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { isFinished } from './useImportJob';
import { saveTextFile } from '../saveTextFile';
import '@portal/shared/ui/styles/imports.css';

export interface ImportJobReportProps {
  job: ImportJob;
  /** The last poll failed. */
  pollError: string | null;
  /** Polling has stopped on errors, or after 'failed'. */
  stalled: boolean;
  onCheckAgain: () => void;
}

const STATUS_TEXT: Record<ImportJob['status'], { label: string; tone: string }> = {
  queued: { label: 'Waiting to start', tone: 'pill--info' },
  running: { label: 'Running', tone: 'pill--info' },
  completed: { label: 'Completed', tone: 'pill--success' },
  rejected: { label: 'File refused', tone: 'pill--danger' },
  failed: { label: 'Stopped', tone: 'pill--warning' },
};

/** The import of one file: live progress while it runs, then the counts, the issues and the download. */
export function ImportJobReport({ job, pollError, stalled, onCheckAgain }: ImportJobReportProps) {
  const status = STATUS_TEXT[job.status];
  const finished = isFinished(job);
  // A file refused as a whole may still have row issues found before it broke; without any, the
  // refusal says all there is to say.
  const showIssues = finished && (job.rejected > 0 || job.warnings > 0 || (job.pictures?.failed ?? 0) > 0);
  return (
    <section className="card panel" aria-labelledby="import-job-title" data-testid="import-job">
      <div className="panel__header">
        <h2 className="panel__title" id="import-job-title">
          Import of {job.fileName}
        </h2>
        <span className={`pill ${status.tone}`} data-testid="import-status">
          {status.label}
        </span>
      </div>

      {/* Announced when the state changes, not on every row count. */}
      <p className="visually-hidden" role="status">
        {announcement(job)}
      </p>
      <JobProgress job={job} />
      {job.status === 'completed' ? (
        <p className="banner banner--success">
          <CheckIcon className="banner__icon" />
          {/* The counts are in the grid below; the banner says what follows from them. */}
          <span className="banner__message" data-testid="import-next-step">
            {completedNextStep(job)}
          </span>
        </p>
      ) : null}

      {job.status === 'rejected' || job.status === 'failed' ? (
        <div className={job.status === 'rejected' ? 'banner banner--error' : 'banner banner--warning'} role="alert">
          <AlertIcon className="banner__icon" />
          <div className="banner__body">
            {/* A refusal is said once: the status says "File refused", the server's message says
                why and that no rows were imported. */}
            {job.status === 'failed' ? <p className="banner__title">The import stopped before the end</p> : null}
            <p className="banner__message" data-testid="import-failure">
              {job.failure ??
                (job.status === 'rejected' ? 'The file was refused. No rows were imported.' : 'No reason was given.')}
            </p>
          </div>
          {job.status === 'failed' ? (
            <div className="banner__actions">
              <button type="button" className="button button--secondary button--small" onClick={onCheckAgain}>
                Check again
              </button>
            </div>
          ) : null}
        </div>
      ) : null}

      {pollError ? (
        <ErrorBanner
          title={stalled ? 'The import’s progress could not be read' : 'Reading the progress failed; trying again…'}
          message={pollError}
          onRetry={stalled ? onCheckAgain : undefined}
        />
      ) : null}

      {/* A refused file imported nothing: its message says so, zero counts would say it again. */}
      {(finished || job.rowsRead > 0) && job.status !== 'rejected' ? <JobCounts job={job} /> : null}
      {job.pictures && job.pictures.total > 0 ? (
        <PicturesProgress job={job} pictures={job.pictures} onRetried={onCheckAgain} />
      ) : null}
      {showIssues ? <IssuesList job={job} /> : null}
    </section>
  );
}

function announcement(job: ImportJob): string {
  if (job.status === 'queued') return `The import of ${job.fileName} is waiting to start.`;
  if (job.status === 'running') {
    if (job.phase === 'waiting') return `The import of ${job.fileName} waits for another import to finish.`;
    return job.phase === 'importing' ? 'Importing products.' : 'Checking the file.';
  }
  if (job.status === 'completed') return completedSummary(job);
  // Refused or stopped: the alert below says it (an alert is announced by itself).
  return '';
}

function completedSummary(job: ImportJob): string {
  const parts = [
    `${formatCount(job.created)} new`,
    `${formatCount(job.updated)} updated`,
    `${formatCount(job.unchanged)} unchanged`,
    job.rejected ? `${formatCount(job.rejected)} rejected` : null,
    job.banned ? `${formatCount(job.banned)} banned and left as they are` : null,
  ].filter(Boolean);
  return `Imported: ${parts.join(', ')}. New and updated products wait for review below.`;
}

function completedNextStep(job: ImportJob): string {
  const toReview = job.created + job.updated;
  const complete = `The import is complete${partsNote(job)}.`;
  if (toReview === 0) return `${complete} Nothing new to review.`;
  return `${complete} ${formatCount(toReview)} ${toReview === 1 ? 'product waits' : 'products wait'} for review below.`;
}

/**
 * A file too long for one run of the import goes on from where the last run stopped (run-import.ts):
 * said so, with the reassurance the admin needs (nothing was written twice).
 */
function partsNote(job: ImportJob): string {
  if (!job.parts || job.parts < 2) return '';
  return ` (continued in ${formatCount(job.parts)} parts: the file was too long for one run, and each part went on where the last stopped, so no row was written or counted twice)`;
}

function JobProgress({ job }: { job: ImportJob }) {
  if (job.status === 'queued')
    return <Loading label="The file is stored; the import starts in a moment…" block={false} />;
  if (job.status !== 'running') return null;
  if (job.phase === 'waiting') {
    // One import writes to the catalogue at a time (functions/src/imports/run-import.ts).
    return <Loading label="Another import is writing to the catalogue; this one starts when it ends…" block={false} />;
  }
  if (job.phase !== 'importing') {
    return <Loading label="Checking every row of the file…" block={false} />;
  }
  const total = Math.max(job.rowsRead - job.rejected, 0);
  const done = Math.min(job.rowsDone, total);
  return (
    <div className="progress">
      <p className="progress__label" id="import-progress-label">
        <span>Importing products…{job.parts && job.parts > 1 ? ` (part ${formatCount(job.parts)})` : null}</span>
        <span>{total > 0 ? `${formatCount(done)} of ${formatCount(total)} rows` : null}</span>
      </p>
      <progress
        className="progress__bar"
        aria-labelledby="import-progress-label"
        max={total || undefined}
        value={total ? done : undefined}
      />
    </div>
  );
}

type PictureCounts = NonNullable<ImportJob['pictures']>;

/** True while some of the import's pictures are neither hosted nor failed yet. */
export const picturesPending = (job: ImportJob): boolean =>
  job.pictures !== undefined && job.pictures.hosted + job.pictures.failed < job.pictures.total;

/**
 * The pictures of the import's products, hosted through the picture queue after the import
 * (issue 38): how many are hosted and failed, what that means for the products, and one action to
 * try the failed ones again.
 */
function PicturesProgress({
  job,
  pictures,
  onRetried,
}: {
  job: ImportJob;
  pictures: PictureCounts;
  onRetried: () => void;
}) {
  const { call } = useAuth();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pending = picturesPending(job);
  const summary = `${formatCount(pictures.hosted)} of ${formatCount(pictures.total)} hosted, ${formatCount(pictures.failed)} failed`;

  const retry = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const answer = await call('retryImportPictures', { id: job.id });
      setNote(answer.message);
      onRetried();
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="pictures-progress" aria-labelledby="import-pictures-title" data-testid="import-pictures">
      <div className="progress">
        <p className="progress__label" id="import-pictures-title">
          <span>Pictures</span>
          <span data-testid="import-pictures-summary">{summary}</span>
        </p>
        <progress
          className="progress__bar"
          aria-labelledby="import-pictures-title"
          max={pictures.total}
          value={pictures.hosted + pictures.failed}
        />
      </div>
      {pending ? (
        <p className="notice">
          The pictures are being fetched from the supplier’s hosts. Until a product’s pictures are hosted its card shows
          a placeholder; you can approve it meanwhile, and its pictures appear by themselves.
        </p>
      ) : null}
      {!pending && pictures.failed > 0 ? (
        <div className="banner banner--warning">
          <AlertIcon className="banner__icon" />
          <div className="banner__body">
            <p className="banner__message">
              {pictures.failed === 1 ? 'One picture' : `${formatCount(pictures.failed)} pictures`} could not be hosted;
              their products are shown without them. The reasons are in the warnings below. Try them again once the
              supplier’s host answers.
            </p>
          </div>
          <div className="banner__actions">
            <button type="button" className="button button--secondary button--small" onClick={retry} disabled={busy}>
              {busy ? 'Sending…' : 'Try the failed pictures again'}
            </button>
          </div>
        </div>
      ) : null}
      {note ? (
        <p className="notice" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorBanner message={error} onDismiss={() => setError(null)} /> : null}
    </section>
  );
}

function JobCounts({ job }: { job: ImportJob }) {
  const counts: { label: string; value: number; tone?: 'good' | 'bad' }[] = [
    { label: 'Rows read', value: job.rowsRead },
    { label: 'Created', value: job.created, tone: job.created ? 'good' : undefined },
    { label: 'Updated', value: job.updated, tone: job.updated ? 'good' : undefined },
    { label: 'Unchanged', value: job.unchanged },
    { label: 'Rejected', value: job.rejected, tone: job.rejected ? 'bad' : undefined },
    { label: 'Banned', value: job.banned },
    { label: 'Warnings', value: job.warnings },
  ];
  return (
    <dl className="stat-grid" data-testid="import-counts">
      {counts.map((count) => (
        <div key={count.label} className={count.tone ? `stat stat--${count.tone}` : 'stat'}>
          <dt>{count.label}</dt>
          <dd>{formatCount(count.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The rejected rows and warnings of a finished import, 100 at a time, and those rows as a file
 * (each whole, as uploaded, to fix and upload again); offered for warnings alone too.
 */
function IssuesList({ job }: { job: ImportJob }) {
  const pages = useCursorPages(useImportIssues(job.id));

  return (
    <section className="issues" aria-labelledby="import-issues-title">
      <div className="issues__header">
        <h3 className="issues__title" id="import-issues-title">
          Rejected rows and warnings
        </h3>
        {job.rejected > 0 || job.warnings > 0 ? <DownloadRejectedRows job={job} /> : null}
      </div>
      {pages.phase === 'loading' ? <Loading label="Loading the issues…" block={false} /> : null}
      {pages.phase === 'error' ? (
        <ErrorBanner title="The issues could not be loaded" message={pages.error ?? ''} onRetry={pages.reload} />
      ) : null}
      {pages.phase !== 'loading' && pages.phase !== 'error' && pages.items.length === 0 ? (
        <p className="notice">No row-level issues were recorded.</p>
      ) : null}
      {pages.items.length > 0 ? (
        <div className="table-scroll">
          {/* Below 560px each row is a card whose cells carry their column's name (data-label);
              the explicit roles keep it a table for assistive technology when CSS re-lays it. */}
          <table className="issues-table issues-table--cards" role="table">
            <caption className="visually-hidden">Issues found in {job.fileName}</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  Row
                </th>
                <th scope="col" role="columnheader">
                  Column
                </th>
                <th scope="col" role="columnheader">
                  Kind
                </th>
                <th scope="col" role="columnheader">
                  Problem
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {pages.items.map((issue) => (
                <tr key={issue.id} role="row">
                  <td role="cell" data-label="Row">
                    {issue.row ?? '—'}
                  </td>
                  <td role="cell" data-label="Column" className="issues-table__column">
                    {issue.column ?? '—'}
                  </td>
                  <td role="cell" data-label="Kind">
                    <span className={issue.severity === 'error' ? 'pill pill--danger' : 'pill pill--warning'}>
                      {issue.severity === 'error' ? 'Rejected' : 'Warning'}
                    </span>
                  </td>
                  <td role="cell" data-label="Problem" className="issues-table__message">
                    {issue.message}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore pages={pages} noun="issues" auto={false} />
    </section>
  );
}

function DownloadRejectedRows({ job }: { job: ImportJob }) {
  const { call } = useAuth();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const file = await call('getRejectedRowsCsv', { id: job.id });
      saveTextFile(file.fileName, file.csv);
      setNote(
        `Saved ${file.fileName}.` +
          (file.truncated
            ? ' It holds the first rows only: the download keeps at most 1,000 rejected rows and 1,000 rows with warnings.'
            : '') +
          ' Fix the cells and upload the file as it is: its last three columns, the outcome, the row and the problem, are ignored.' +
          ' Pictures that could not be hosted are not in it: they are on the picture progress, with the retry.',
      );
    } catch (caught) {
      setError(toApiError(caught).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="issues__download">
      <button type="button" className="button button--secondary button--small" onClick={download} disabled={busy}>
        <DownloadIcon className="button__icon" />
        {busy ? 'Preparing…' : job.rejected > 0 ? 'Download rejected rows' : 'Download rows with warnings'}
      </button>
      {note ? (
        <p className="notice" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorBanner message={error} onDismiss={() => setError(null)} /> : null}
    </div>
  );
}
