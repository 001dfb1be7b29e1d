import { exportCsv as exportCsvCall } from '@portal/shared/api/calls/export-csv';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { exportCsv } from '../orders/manage';

/** All orders or all commissions as formula-escaped CSV, newest first, capped (see `truncated`). */
export const handler = apiHandler(exportCsvCall, async ({ body }) => exportCsv(sales, body.kind, clock.now()));
