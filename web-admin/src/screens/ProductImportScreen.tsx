import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { ImportedProductCard, ImportJob } from '@portal/shared/api/products';
import { queryKeys } from '@portal/shared/query/keys';
import { formatBytes } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import {
  usePrefetchImportedProduct,
  useRefreshReviewList,
  useReviewList,
} from '@portal/shared/ui/hooks/catalogueQueries';
import { LoadMore } from '@portal/shared/ui/components/LoadMore';
import { useCursorPages, type CursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { CheckIcon, FileIcon, UploadIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { usePreloadWhenIdle } from '@portal/shared/ui/hooks/preload';
import { ProductCard } from '@portal/shared/ui/components/ProductCard';
import { ImportJobReport } from '../import/ImportJobReport';
import { checkFile, SUPPLIER_COLUMNS, uploadCsv, type UploadProgress } from '../import/upload';
import { isFinished, useImportJob } from '../import/useImportJob';
import { LazyProductImportDetailScreen } from './lazyScreens';
import { importDetailPath, type ImportScreenState } from '../import/routes';
import { CheckoutCancelsNote } from '../catalogue/CheckoutCancelsNote';
import '@portal/shared/ui/styles/imports.css';

/**
 * '/admin/product_import': upload a supplier CSV, follow its import (the job id is kept in the
 * address as ?job=, so a reload shows the same import), read the rejected rows, and review the
 * products waiting for approval, a page at a time.
 */
export function ProductImportScreen() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const tracked = useImportJob(jobId);
  const reload = useRefreshReviewList();
  const review = useCursorPages(useReviewList(), reload);

  // When an import this screen saw running finishes, the review list shows what it brought in.
  const job = tracked.job;
  const watching = useRef<string | null>(null);
  useEffect(() => {
    if (!job) return;
    if (!isFinished(job)) watching.current = job.id;
    else if (watching.current === job.id) {
      watching.current = null;
      reload();
    }
  }, [job, reload]);

  const onStarted = (started: ImportJob) => {
    // The upload's answer is the job's first state: shown at once, then polled.
    queryClient.setQueryData(queryKeys.importJobs.detail(started.id), started);
    setParams({ job: started.id }, { replace: true });
  };

  return (
    <Page
      title="Product Import"
      description="Import the supplier’s catalogue from a CSV file, then approve or ban each product before members see it."
    >
      <Notice />
      <UploadPanel onStarted={onStarted} />
      {jobId && job ? (
        <ImportJobReport
          job={job}
          pollError={tracked.error}
          stalled={tracked.stalled || job.status === 'failed'}
          onCheckAgain={tracked.checkAgain}
        />
      ) : null}
      {jobId && !job ? (
        tracked.error ? (
          <ErrorBanner
            title="The import could not be found"
            message={tracked.error}
            onRetry={tracked.stalled ? tracked.checkAgain : undefined}
          />
        ) : (
          <Loading label="Loading the import…" block={false} />
        )
      ) : null}
      <ReviewList review={review} />
    </Page>
  );
}

/** A message handed over by the detail screen ("Approved …"), shown once. */
function Notice() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as ImportScreenState | null;
  const notice = state?.notice;
  if (!notice) return null;
  return (
    <div className="banner banner--success" role="status">
      <CheckIcon className="banner__icon" />
      <div className="banner__body">
        <p className="banner__message">{notice}</p>
        {state.cancels ? <CheckoutCancelsNote {...state.cancels} /> : null}
      </div>
      <div className="banner__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => navigate({ pathname: location.pathname, search: location.search }, { replace: true })}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}

type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; progress: UploadProgress }
  | { phase: 'stored'; fileName: string }
  | { phase: 'error'; message: string };

function UploadPanel({ onStarted }: { onStarted: (job: ImportJob) => void }) {
  const { call } = useAuth();
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState>({ phase: 'idle' });
  const uploading = upload.phase === 'uploading';

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setProblem(chosen ? checkFile(chosen) : null);
    setUpload({ phase: 'idle' });
  };

  const clear = () => {
    if (inputRef.current) inputRef.current.value = '';
    choose(null);
    inputRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setProblem('Choose the supplier’s CSV file first.');
      inputRef.current?.focus();
      return;
    }
    const invalid = checkFile(file);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setUpload({ phase: 'uploading', progress: { route: 'api', fraction: null } });
    try {
      const job = await uploadCsv(call, file, {
        onProgress: (progress) => setUpload({ phase: 'uploading', progress }),
      });
      setUpload({ phase: 'stored', fileName: file.name });
      if (inputRef.current) inputRef.current.value = '';
      setFile(null);
      onStarted(job);
    } catch (error) {
      setUpload({ phase: 'error', message: toApiError(error).message });
    }
  };

  const describedBy = [hintId, problem ? `${inputId}-problem` : null].filter(Boolean).join(' ');

  return (
    <section className="card panel" aria-labelledby="upload-title">
      <div className="panel__header">
        <h2 className="panel__title" id="upload-title">
          Upload a supplier CSV
        </h2>
      </div>
      <div className="panel__text" id={hintId}>
        <p>
          Only the supplier’s CSV format is accepted: a comma-separated UTF-8 file up to 100 MB whose first row names
          these columns:
        </p>
      </div>
      <ul className="column-list" aria-label="Columns of the supplier’s CSV format">
        {SUPPLIER_COLUMNS.map((column) => (
          <li key={column}>
            <code>{column}</code>
          </li>
        ))}
      </ul>
      <form className="form" onSubmit={submit} noValidate>
        <div className={problem ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={inputId}>
            Supplier CSV file
          </label>
          <div className="file-picker">
            <input
              ref={inputRef}
              id={inputId}
              className="file-picker__input"
              type="file"
              accept=".csv,text/csv"
              aria-describedby={describedBy}
              aria-invalid={problem ? true : undefined}
              disabled={uploading}
              onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
            />
            <div className="file-picker__actions">
              <button type="submit" className="button button--primary" disabled={uploading || !file || !!problem}>
                <UploadIcon className="button__icon" />
                {uploading ? 'Uploading…' : 'Upload and import'}
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={clear}
                disabled={uploading || (!file && !problem)}
              >
                Clear
              </button>
            </div>
          </div>
          {file && !problem ? (
            <p className="file-chosen">
              <FileIcon />
              <span className="file-chosen__name">{file.name}</span>
              <span className="file-chosen__size">{formatBytes(file.size)}</span>
            </p>
          ) : null}
          {problem ? (
            <p className="field__error" id={`${inputId}-problem`}>
              {problem}
            </p>
          ) : null}
        </div>
      </form>
      {upload.phase === 'uploading' ? <UploadProgressBar progress={upload.progress} /> : null}
      {/* Announced once per state, not on every progress event. */}
      <p className={upload.phase === 'stored' ? 'notice' : 'visually-hidden'} role="status">
        {upload.phase === 'uploading' ? 'Uploading the file…' : null}
        {upload.phase === 'stored' ? `${upload.fileName} is uploaded; its import is shown below.` : null}
      </p>
      {upload.phase === 'error' ? <ErrorBanner title="The file was not uploaded" message={upload.message} /> : null}
    </section>
  );
}

function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  const percent = progress.fraction === null ? null : Math.round(progress.fraction * 100);
  return (
    <div className="progress">
      <p className="progress__label" id="upload-progress-label">
        <span>{progress.route === 'presigned' ? 'Uploading the file to storage…' : 'Uploading the file…'}</span>
        <span>{percent === null ? null : `${percent} %`}</span>
      </p>
      <progress
        className="progress__bar"
        aria-labelledby="upload-progress-label"
        max={100}
        value={percent ?? undefined}
      />
    </div>
  );
}

function ReviewList({ review }: { review: CursorPages<ImportedProductCard> }) {
  const prefetchProduct = usePrefetchImportedProduct();

  // Once the list shows, the detail screen's code loads while the browser has nothing else to do.
  usePreloadWhenIdle(LazyProductImportDetailScreen, review.items.length > 0);

  let content;
  if (review.phase === 'loading') {
    content = <Loading label="Loading the products waiting for review…" />;
  } else if (review.phase === 'error') {
    content = (
      <ErrorBanner
        title="The products waiting for review could not be loaded"
        message={review.error ?? ''}
        onRetry={review.reload}
      />
    );
  } else if (review.items.length === 0) {
    content = (
      <EmptyState icon={<UploadIcon />} title="No products are waiting for review.">
        <p>Products from an imported CSV appear here until you approve or ban them.</p>
      </EmptyState>
    );
  } else {
    content = (
      <>
        <ul className="product-grid" aria-busy={review.phase === 'loading-more' || review.phase === 'refreshing'}>
          {review.items.map((product) => (
            <ProductCard
              key={product.id}
              product={product}
              to={importDetailPath(product.id)}
              onIntent={() => {
                void LazyProductImportDetailScreen.preload().catch(() => undefined);
                prefetchProduct(product.id);
              }}
              badge={
                product.hasApprovedVersion ? (
                  <span className="pill pill--warning">Update to an approved product</span>
                ) : undefined
              }
            />
          ))}
        </ul>
        <LoadMore pages={review} noun="products" />
      </>
    );
  }
  return (
    <section aria-labelledby="review-title">
      <div className="list-header">
        <h2 className="section-title" id="review-title">
          Waiting for review
        </h2>
        {review.phase === 'refreshing' ? (
          <div className="list-header__note">
            <Loading label="Refreshing…" block={false} />
          </div>
        ) : null}
      </div>
      {content}
    </section>
  );
}
