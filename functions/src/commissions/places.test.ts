import { describe, expect, it } from 'vitest';
import { refreshPlaces } from './places';

describe('refreshPlaces', () => {
  const changes = [
    { memberId: 'a', sequenceNumber: '1' },
    { memberId: 'b', sequenceNumber: '2' },
    { memberId: 'a', sequenceNumber: '3' },
    { memberId: 'c', sequenceNumber: '4' },
    { memberId: 'b', sequenceNumber: '5' },
  ];

  it('refreshes each member of a batch once, whatever number of changes they have in it', async () => {
    const refreshed: string[] = [];
    const outcome = await refreshPlaces({ refreshPlace: async (id) => void refreshed.push(id) }, changes);
    expect(refreshed.sort()).toEqual(['a', 'b', 'c']);
    expect(outcome).toEqual({ refreshed: 3, errors: [] });
  });

  it('answers the first change of the earliest member whose refresh failed: the batch comes again from there', async () => {
    const failing = new Set(['c', 'b']);
    const outcome = await refreshPlaces(
      {
        refreshPlace: async (id) => {
          if (failing.has(id)) throw new Error(`no place for ${id}`);
        },
      },
      changes,
    );
    expect(outcome.refreshed).toBe(1);
    expect(outcome.retryFrom).toBe('2');
    expect(outcome.errors).toHaveLength(2);
  });

  it('answers nothing to retry for an empty batch', async () => {
    expect(await refreshPlaces({ refreshPlace: async () => undefined }, [])).toEqual({ refreshed: 0, errors: [] });
  });
});
