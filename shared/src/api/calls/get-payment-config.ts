import type { Call } from '../call';
import { PaymentConfig } from '../payment-config';
import { EmptyRequest } from '../schemas';

/**
 * POST /api/getPaymentConfig (public): The publishable key and, against the local emulator, where
 * the browser reaches it. Public: the customer's checkout needs it without a login, and a
 * publishable key is public by design.
 */
export const getPaymentConfig = {
  name: 'getPaymentConfig',
  path: '/api/getPaymentConfig',
  role: 'public',
  body: 'json',
  request: EmptyRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getPaymentConfigResponse = PaymentConfig;
