import { ExportRequest } from '@portal/shared/api/sales';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { exportCsv } from '../orders/manage';

/** All orders or all commissions as formula-escaped CSV, newest first, capped (see `truncated`). */
export const handler = apiHandler('exportCsv', async ({ body }) => exportCsv(sales, body.kind, clock.now()), {
  request: ExportRequest,
});
