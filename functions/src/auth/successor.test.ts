import { describe, expect, it } from 'vitest';
import { openSuccessor, sealSuccessor } from './successor';
import { newRefreshToken } from './tokens';

describe('a sealed successor token', () => {
  const presented = newRefreshToken();
  const successor = newRefreshToken();
  const sealed = sealSuccessor(presented, successor);

  it('opens only with the token it was sealed for', () => {
    expect(openSuccessor(presented, sealed)).toBe(successor);
    expect(openSuccessor(newRefreshToken(), sealed)).toBeUndefined();
  });

  it('does not hold the successor in clear, nor in any of its encodings', () => {
    expect(sealed).not.toContain(successor);
    expect(sealed).not.toContain(Buffer.from(successor, 'base64url').toString('hex'));
    expect(sealSuccessor(presented, successor)).not.toBe(sealed);
  });

  it('is refused when tampered with or malformed', () => {
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    parts[3] = flipped.toString('base64url');
    expect(openSuccessor(presented, parts.join('.'))).toBeUndefined();
    expect(openSuccessor(presented, 'v2.a.b.c.d')).toBeUndefined();
    expect(openSuccessor(presented, 'garbage')).toBeUndefined();
  });
});
