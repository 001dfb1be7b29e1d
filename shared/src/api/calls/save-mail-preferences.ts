import type { Call } from '../call';
import { MailPreferences, MailPreferencesResult } from '../order-page';

/**
 * POST /api/saveMailPreferences (member): the member turns their optional mails on or off ("you
 * made a sale", "your payout is on its way"). Answers the preferences as stored.
 */
export const saveMailPreferences = {
  name: 'saveMailPreferences',
  path: '/api/saveMailPreferences',
  role: 'member',
  body: 'json',
  request: MailPreferences,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const saveMailPreferencesResponse = MailPreferencesResult;
