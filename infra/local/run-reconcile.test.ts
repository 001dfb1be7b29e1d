import { describe, expect, it } from 'vitest';
import { formatReconciliation, parseReconcileArgs } from './run-reconcile';

describe('npm run reconcile', () => {
  it('takes the period, and a deployed portal’s table and Stripe secret, as flags or flag=value', () => {
    expect(parseReconcileArgs(['--from', '2026-11-01', '--to=2026-11-25'])).toEqual({
      from: '2026-11-01',
      to: '2026-11-25',
    });
    expect(
      parseReconcileArgs([
        '--from=2026-11-01',
        '--to=2026-11-01',
        '--table',
        'ResellerPortal-Table',
        '--stripe-secret-arn',
        'arn:aws:secretsmanager:us-east-1:1:secret:stripe',
      ]),
    ).toEqual({
      from: '2026-11-01',
      to: '2026-11-01',
      table: 'ResellerPortal-Table',
      stripeSecretArn: 'arn:aws:secretsmanager:us-east-1:1:secret:stripe',
    });
  });

  it('refuses a bad period in the call’s own words, an unknown flag and half a deployment', () => {
    expect(() => parseReconcileArgs(['--from', '2026-11-20', '--to', '2026-11-01'])).toThrow(
      /--to: The period ends before it starts/,
    );
    expect(() => parseReconcileArgs(['--from', '11/01/2026', '--to', '2026-11-01'])).toThrow(
      /--from: Enter a date as YYYY-MM-DD/,
    );
    expect(() => parseReconcileArgs(['--to', '2026-11-01'])).toThrow(/--from: The start date is required\./);
    expect(() => parseReconcileArgs(['--from', '2026-01-01', '--to', '2026-12-31'])).toThrow(/at most 92 days/);
    expect(() => parseReconcileArgs(['--since', '2026-11-01'])).toThrow(/Unknown argument --since/);
    expect(() => parseReconcileArgs(['--from', '--to', '2026-11-01'])).toThrow(/--from needs a value/);
    expect(() =>
      parseReconcileArgs(['--from', '2026-11-01', '--to', '2026-11-02', '--table', 'ResellerPortal-Table']),
    ).toThrow(/needs both --table and --stripe-secret-arn/);
  });

  it('prints what was compared, then each difference on its own line, or that there is none', () => {
    const checked = {
      charges: 3,
      refunds: 1,
      transfers: 2,
      reversals: 1,
      payouts: 1,
      accounts: 1,
      orders: 3,
      commissions: 3,
    };
    expect(formatReconciliation({ from: '2026-11-01', to: '2026-11-25', checked, differences: [] })).toBe(
      [
        'Reconciliation 2026-11-01 to 2026-11-25: compared 3 charges, 1 refunds, 2 transfers with 1 reversals, 1 payouts on 1 connected accounts, 3 orders and 3 commissions.',
        'No differences: our ledger and Stripe agree.',
      ].join('\n'),
    );
    const text =
      'Transfer tr_1 of $12.00 to acct_1 (member Jane Doe) on 2026-11-20 is in Stripe but not in our ledger.';
    const report = formatReconciliation({
      from: '2026-11-01',
      to: '2026-11-25',
      checked,
      differences: [{ kind: 'missing_in_ledger', subject: 'transfer', text, stripeIds: ['tr_1'], ledgerIds: [] }],
    });
    expect(report.split('\n').slice(1)).toEqual(['1 difference:', `  - ${text}`]);
  });
});
