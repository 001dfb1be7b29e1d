import { describe, expect, it } from 'vitest';
import { hashCost, hashPassword, LOG2_N, verifyPassword } from './passwords';

describe('password hashing cost', () => {
  it('is 2^17 wherever the code runs outside Vitest, whatever the environment asks', () => {
    expect(LOG2_N).toBe(17);
    expect(hashCost({})).toBe(17);
    expect(hashCost({ PASSWORD_HASH_LOG2_N_IN_TESTS: '10' })).toBe(17);
    expect(hashCost({ PASSWORD_HASH_LOG2_N_IN_TESTS: '10', VITEST: '1' })).toBe(17);
  });

  it('may be lowered inside Vitest, never under 2^10 nor over 2^17', () => {
    expect(hashCost({ VITEST: 'true' })).toBe(17);
    expect(hashCost({ VITEST: 'true', PASSWORD_HASH_LOG2_N_IN_TESTS: '12' })).toBe(12);
    expect(hashCost({ VITEST: 'true', PASSWORD_HASH_LOG2_N_IN_TESTS: '4' })).toBe(17);
    expect(hashCost({ VITEST: 'true', PASSWORD_HASH_LOG2_N_IN_TESTS: '20' })).toBe(17);
    expect(hashCost({ VITEST: 'true', PASSWORD_HASH_LOG2_N_IN_TESTS: 'low' })).toBe(17);
  });

  it('stores the cost in the hash, so a hash of either cost verifies', async () => {
    const previous = process.env.PASSWORD_HASH_LOG2_N_IN_TESTS;
    try {
      delete process.env.PASSWORD_HASH_LOG2_N_IN_TESTS;
      const strong = await hashPassword('correct horse battery staple');
      expect(strong.split('$').slice(0, 4)).toEqual(['scrypt', '17', '8', '1']);
      process.env.PASSWORD_HASH_LOG2_N_IN_TESTS = '11';
      const cheap = await hashPassword('correct horse battery staple');
      expect(cheap.split('$')[1]).toBe('11');
      for (const stored of [strong, cheap]) {
        expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
        expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
      }
    } finally {
      if (previous === undefined) delete process.env.PASSWORD_HASH_LOG2_N_IN_TESTS;
      else process.env.PASSWORD_HASH_LOG2_N_IN_TESTS = previous;
    }
  }, 30_000);
});
