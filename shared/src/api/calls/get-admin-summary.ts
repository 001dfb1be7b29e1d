import type { Call } from '../call';
import { AdminSummary } from '../admin';
import { EmptyRequest } from '../schemas';

/**
 * POST /api/getAdminSummary (admin): The admin home's figures: orders to order, ship and fulfil;
 * commissions to send and to pay; failed payouts; products waiting for review.
 */
export const getAdminSummary = {
  name: 'getAdminSummary',
  path: '/api/getAdminSummary',
  role: 'admin',
  body: 'json',
  request: EmptyRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getAdminSummaryResponse = AdminSummary;
