import { useQuery } from '@tanstack/react-query';
import type { ImportJob } from '@portal/shared/api/products';
import { importJobQuery } from '@portal/shared/query/catalogue';
import { isTransientError } from '@portal/shared/query/client';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';

/** How often the screen asks for the job while it runs. One object so tests can shorten it. */
export const importPolling = { intervalMs: 1000, maxFailures: 3 };

export const isFinished = (job: ImportJob) =>
  job.status === 'completed' || job.status === 'rejected' || job.status === 'failed';

export interface ImportJobView {
  job: ImportJob | null;
  /** The last poll failed (the job may still be running). */
  error: string | null;
  /** Polling stopped on errors; `checkAgain` resumes it. */
  stalled: boolean;
  checkAgain: () => void;
}

/**
 * Follows an import job: asks for it about once a second (the query's refetchInterval) until it
 * is completed, rejected or failed. A poll that fails for a passing reason is retried a couple of
 * times before the screen offers 'Check again'; a refusal (a 404, say) offers it at once.
 * 'failed' stops the polling too (the server retries the import by itself; 'Check again' looks).
 * The uploaded job is put in the cache by the upload (setQueryData), so it shows at once.
 */
export function useImportJob(jobId: string | null): ImportJobView {
  const { call } = useAuth();
  const query = useQuery({
    ...importJobQuery(call, jobId ?? ''),
    enabled: jobId !== null && jobId !== '',
    // A running job is never fresh: opening the screen again asks at once.
    staleTime: 0,
    retry: (failureCount, error) => failureCount < importPolling.maxFailures - 1 && isTransientError(error),
    retryDelay: () => importPolling.intervalMs * 2,
    refetchInterval: (current) => {
      if (current.state.status === 'error') return false;
      const job = current.state.data;
      if (!job || !isFinished(job)) return importPolling.intervalMs;
      // After the import, its pictures are hosted through the queue (issue 38): followed until settled.
      const pictures = job.pictures;
      return pictures && pictures.hosted + pictures.failed < pictures.total ? importPolling.intervalMs * 2 : false;
    },
  });

  const reason = query.error ?? query.failureReason;
  return {
    job: jobId ? (query.data ?? null) : null,
    error: jobId && reason ? toApiError(reason).message : null,
    stalled: query.isError,
    checkAgain: () => void query.refetch(),
  };
}
