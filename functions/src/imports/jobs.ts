import type { ImportJob } from '@portal/shared/api/products';
import { randomBytes } from 'node:crypto';
import { badRequest } from '../errors';
import type { ImportJobRecord } from './job-store';

/** Only the supplier's CSV format is accepted; the name is the first, cheap check of that. */
export function assertCsvName(fileName: string): void {
  if (!/\.csv$/i.test(fileName.trim())) {
    throw badRequest(`"${fileName}" is not a .csv file. Only the supplier's CSV format is accepted.`, {
      file: 'Choose a .csv file',
    });
  }
}

/** A job's figures before its first run, and again at the start of every run. */
export function blankRun() {
  return {
    phase: null,
    rowsDone: 0,
    rowsRead: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    banned: 0,
    warnings: 0,
    failure: null,
    finishedAt: null,
    heartbeatAt: null,
  };
}

export const IMPORT_NOT_FOUND = 'There is no import with that id.';

/** Where a job's file is stored: the import reads the job id back from the key (run-import.ts, jobIdFor). */
export const importKey = (jobId: string, fileName: string): string =>
  `imports/${jobId}/${fileName.replace(/[^\w.-]+/g, '_').slice(-120) || 'catalogue.csv'}`;

/** A job whose file never arrives (a browser upload that failed) is deleted by the table's TTL after a day. */
export const QUEUED_JOB_TTL_SECONDS = 24 * 60 * 60;

export function queuedJob(fileName: string, bucket: string, now: string): ImportJobRecord {
  const id = randomBytes(16).toString('hex');
  return {
    id,
    fileName,
    bucket,
    key: importKey(id, fileName),
    status: 'queued',
    createdAt: now,
    attempt: 0,
    ...blankRun(),
    expiresAt: Math.floor(Date.parse(now) / 1000) + QUEUED_JOB_TTL_SECONDS,
  };
}

/**
 * A run whose heartbeat is older than this is dead: the import function times out at 15 minutes
 * and a live run writes its heartbeat at least at its claim and then every second of pass 2.
 */
export const STALE_AFTER_MS = 16 * 60 * 1000;

/**
 * The job as the admin should see it. A run that ends past its deadline (Lambda's timeout) or
 * whose process dies runs no catch and leaves the job `running`: once its heartbeat is older than
 * STALE_AFTER_MS it cannot be running any more, so it is reported failed. Nothing is written: a
 * later retry of the event may still claim it (run-import.ts) and take it back to running.
 */
export function jobAsSeen(job: ImportJobRecord, now: Date): ImportJobRecord {
  if (job.status !== 'running') return job;
  const lastSign = job.heartbeatAt ?? job.createdAt;
  if (now.getTime() - Date.parse(lastSign) <= STALE_AFTER_MS) return job;
  return {
    ...job,
    status: 'failed',
    phase: null,
    failure: `The import stopped without finishing: nothing was heard from it since ${lastSign} (it ran past its 15-minute limit, or its run died). Products already written are kept; upload the file again to finish it.`,
  };
}

export function publicJob(job: ImportJobRecord): ImportJob {
  const {
    bucket: _bucket,
    key: _key,
    attempt: _attempt,
    heartbeatAt: _heartbeat,
    expiresAt: _expires,
    checkpoint: _checkpoint,
    ...rest
  } = job;
  // One part says nothing: the screen mentions the parts of a long import only.
  if (rest.parts !== undefined && rest.parts < 2) delete rest.parts;
  return rest;
}
