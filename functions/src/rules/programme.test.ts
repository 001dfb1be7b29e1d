import { describe, expect, it } from 'vitest';
import type { CommissionRule } from '@portal/shared/domain/commission-rules';
import { saleRulesOf } from './programme';
import type { RuleStore, StoredProgramme } from './rule-store';

const brandRule = (percent: number): CommissionRule => ({
  id: 'brand-lumo',
  scope: 'brand',
  value: 'Lumo',
  rate: { kind: 'percent', basisPoints: percent * 100 },
  createdAt: '2026-12-01T00:00:00.000Z',
});

/** A store in memory that counts its reads; `version` may lag the programme (a change between two reads). */
function countingStore(programme: StoredProgramme) {
  const state = { programme, version: programme.version, programmeReads: 0, versionReads: 0 };
  const store = {
    programme: async () => {
      state.programmeReads++;
      return state.programme;
    },
    programmeVersion: async () => {
      state.versionReads++;
      return state.version;
    },
    groupsOf: async () => [],
  } as unknown as RuleStore;
  return { store, state };
}

const rateOf = async (rules: ReturnType<typeof saleRulesOf>) =>
  (await (await rules.inForce())('member', 'product', 'Lumo')).rate;

describe('saleRulesOf: the rules a container keeps by the programme version (decision 0480)', () => {
  it('reads the programme at the first sale and after a change of version only', async () => {
    const { store, state } = countingStore({ version: 3, rules: [brandRule(12)], groups: [] });
    const rules = saleRulesOf(store);
    expect(await rateOf(rules)).toEqual({ kind: 'percent', basisPoints: 1200 });
    expect(await rateOf(rules)).toEqual({ kind: 'percent', basisPoints: 1200 });
    expect(state).toMatchObject({ versionReads: 2, programmeReads: 1 });

    state.programme = { version: 4, rules: [brandRule(15)], groups: [] };
    state.version = 4;
    expect(await rateOf(rules)).toEqual({ kind: 'percent', basisPoints: 1500 });
    expect(state).toMatchObject({ versionReads: 3, programmeReads: 2 });
  });

  it("keeps the programme under its own version, so a change between the two reads is read again, not kept as the older one's", async () => {
    const { store, state } = countingStore({ version: 5, rules: [brandRule(15)], groups: [] });
    // The version item read says 4, the programme read after it is already at 5.
    state.version = 4;
    const rules = saleRulesOf(store);
    expect(await rateOf(rules)).toEqual({ kind: 'percent', basisPoints: 1500 });
    state.version = 5;
    expect(await rateOf(rules)).toEqual({ kind: 'percent', basisPoints: 1500 });
    expect(state.programmeReads).toBe(1);
  });

  it('reads the whole programme at each sale while no version item exists for a stored programme', async () => {
    const { store, state } = countingStore({ version: 2, rules: [brandRule(15)], groups: [] });
    state.version = 0;
    const rules = saleRulesOf(store);
    await rateOf(rules);
    await rateOf(rules);
    expect(state.programmeReads).toBe(2);
  });

  it('keeps one container apart from another', async () => {
    const { store, state } = countingStore({ version: 1, rules: [brandRule(15)], groups: [] });
    await rateOf(saleRulesOf(store));
    await rateOf(saleRulesOf(store));
    expect(state.programmeReads).toBe(2);
  });
});
