import { useEffect, useState } from 'react';
import type { ImportJob } from '@portal/shared/api/products';
import { toApiError, useAuth } from '@portal/shared/ui/AuthProvider';

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

interface Polled {
  id: string;
  job: ImportJob | null;
  error: string | null;
  stalled: boolean;
}

/**
 * Follows an import job: asks for it about once a second until it is completed, rejected or
 * failed. A poll that fails is retried a couple of times before the screen offers 'Check again'.
 * 'failed' stops the polling too (the server retries the import by itself; 'Check again' looks).
 */
export function useImportJob(jobId: string | null, seed: ImportJob | null = null): ImportJobView {
  const { call } = useAuth();
  const [polled, setPolled] = useState<Polled | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!jobId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const poll = async () => {
      try {
        const job = await call('getImportJob', { id: jobId }, { signal: controller.signal });
        if (controller.signal.aborted) return;
        failures = 0;
        setPolled({ id: jobId, job, error: null, stalled: false });
        if (!isFinished(job)) timer = setTimeout(poll, importPolling.intervalMs);
      } catch (error) {
        if (controller.signal.aborted) return;
        failures += 1;
        const stalled = failures >= importPolling.maxFailures;
        const message = toApiError(error).message;
        setPolled((current) => ({
          id: jobId,
          job: current?.id === jobId ? current.job : null,
          error: message,
          stalled,
        }));
        if (!stalled) timer = setTimeout(poll, importPolling.intervalMs * 2);
      }
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [call, jobId, round]);

  const current = polled?.id === jobId ? polled : null;
  return {
    job: current?.job ?? (seed && seed.id === jobId ? seed : null),
    error: current?.error ?? null,
    stalled: current?.stalled ?? false,
    checkAgain: () => {
      setPolled((value) => (value ? { ...value, error: null, stalled: false } : value));
      setRound((value) => value + 1);
    },
  };
}
