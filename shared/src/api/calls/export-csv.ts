import type { Call } from '../call';
import { ExportCsv, ExportRequest } from '../sales';

/**
 * POST /api/exportCsv (admin): All orders or all commissions as formula-escaped CSV, newest first,
 * capped (see `truncated`).
 */
export const exportCsv = {
  name: 'exportCsv',
  path: '/api/exportCsv',
  role: 'admin',
  body: 'json',
  request: ExportRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const exportCsvResponse = ExportCsv;
