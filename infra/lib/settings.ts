import { moneySettings } from '../../functions/src/config/money-settings';

/** The CDK contexts of the money rules' settings and the environment variable each becomes. */
export const MONEY_SETTING_CONTEXTS = {
  commissionHoldDays: 'COMMISSION_HOLD_DAYS',
  payoutMinimumCents: 'PAYOUT_MINIMUM_CENTS',
  instantFeePaidBy: 'INSTANT_FEE_PAID_BY',
  selfPurchase: 'SELF_PURCHASE',
} as const;

/**
 * The money settings given as contexts (`cdk deploy -c commissionHoldDays=30 …`), as the functions'
 * environment. Checked here with the functions' own parser, so a value out of range stops the synth
 * with the setting's name and what it accepts instead of every function at its first call.
 */
export function moneySettingsFromContext(context: (key: string) => unknown): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, name] of Object.entries(MONEY_SETTING_CONTEXTS)) {
    const value = context(key);
    if (value !== undefined && value !== null && value !== '') environment[name] = String(value);
  }
  try {
    moneySettings(environment);
  } catch (error) {
    const names = Object.entries(MONEY_SETTING_CONTEXTS)
      .map(([key, name]) => `${name} is the context ${key}`)
      .join('; ');
    throw new Error(`${(error as Error).message} (${names})`);
  }
  return environment;
}
