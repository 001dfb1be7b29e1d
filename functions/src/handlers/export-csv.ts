import { exportCsv as exportCsvCall } from '@portal/shared/api/calls/export-csv';
import { exportCommissions } from '../commissions/export';
import { apiHandler, commissionStore, sales } from '../composition';
import { clock } from '../config/clock';
import { exportOrders } from '../orders/manage';

/** All orders or all commissions as formula-escaped CSV, newest first, capped (see `truncated`). */
export const handler = apiHandler(exportCsvCall, async ({ body }) =>
  body.kind === 'orders' ? exportOrders(sales, clock.now()) : exportCommissions(commissionStore, clock.now()),
);
