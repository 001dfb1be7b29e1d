import { describe, expect, it } from 'vitest';
import { payoutAccountView } from './requirements';

const state = (overrides: Record<string, unknown> = {}) => ({
  transfers: 'active',
  payoutsEnabled: true,
  requirementsDue: [] as string[],
  pendingVerification: [] as string[],
  errors: [] as { requirement: string; code: string; reason: string }[],
  ...overrides,
});

describe('the payout account screen’s account status', () => {
  it('says Verifying while Stripe checks the details', () => {
    expect(
      payoutAccountView(state({ transfers: 'pending', pendingVerification: ['individual.id_number'] }), true),
    ).toEqual({ kind: 'verifying' });
  });

  it('says every verification error and requirement in words a member understands, once each', () => {
    const view = payoutAccountView(
      state({
        transfers: 'inactive',
        requirementsDue: ['individual.verification.document', 'individual.address.line1', 'external_account'],
        errors: [
          {
            requirement: 'individual.verification.document',
            code: 'verification_failed_keyed_identity',
            reason: 'The identity information you entered cannot be verified.',
          },
          {
            requirement: 'individual.address.line1',
            code: 'verification_failed_address_match',
            reason: 'The address you entered could not be verified.',
          },
        ],
      }),
      false,
    );
    expect(view).toEqual({
      kind: 'needs',
      sentences: [
        'Stripe could not confirm who you are from your name, date of birth and Social Security number. Check them for typing errors.',
        'Stripe could not confirm your address. Check it for typing errors.',
        'Add a debit card to be paid to.',
      ],
      // The keyed identity is the name, date of birth and SSN; the address has its own error.
      groups: ['name', 'dob', 'address', 'tax_id'],
    });
    expect(JSON.stringify({ ...view, groups: [] })).not.toMatch(/individual\.|verification_failed|_/);
  });

  it('asks only for the address when only the address failed', () => {
    const view = payoutAccountView(
      state({
        transfers: 'inactive',
        requirementsDue: ['individual.address.line1'],
        errors: [
          { requirement: 'individual.address.line1', code: 'verification_failed_address_match', reason: 'No match.' },
        ],
      }),
      true,
    );
    expect(view).toMatchObject({ kind: 'needs', groups: ['address'] });
  });

  it('is ready when Stripe needs nothing (a card added meanwhile does not count as missing)', () => {
    expect(payoutAccountView(state({ requirementsDue: ['external_account'] }), true)).toEqual({ kind: 'ready' });
    expect(payoutAccountView(undefined, false)).toEqual({ kind: 'ready' });
  });

  it('is not "needs attention" when the only thing Stripe still wants is a debit card (Payout Methods asks for it)', () => {
    // Stripe's state for a verified member without a card: external_account past due, transfers inactive.
    expect(payoutAccountView(state({ transfers: 'inactive', requirementsDue: ['external_account'] }), false)).toEqual({
      kind: 'ready',
    });
  });
});
