import { describe, expect, it } from 'vitest';
import { INVALID_VERIFICATION_LINK, VerifyEmailRequest } from './email';

const token = 'a'.repeat(21) + '-_' + 'Z'.repeat(20);

describe('VerifyEmailRequest', () => {
  it('reads {} and { action: "send" } as a send, { token } and { action: "verify", token } as a verify', () => {
    expect(VerifyEmailRequest.parse({})).toEqual({ action: 'send' });
    expect(VerifyEmailRequest.parse({ action: 'send' })).toEqual({ action: 'send' });
    expect(VerifyEmailRequest.parse({ token })).toEqual({ action: 'verify', token });
    expect(VerifyEmailRequest.parse({ action: 'verify', token })).toEqual({ action: 'verify', token });
  });

  it('refuses a token that is not 43 base64url characters, a verify without one, a send with one, and unknown fields', () => {
    for (const body of [
      { token: token.slice(1) },
      { token: `${token}x` },
      { token: `${token.slice(1)}=` },
      { token: `${token.slice(1)}+` },
      { action: 'verify' },
    ]) {
      const result = VerifyEmailRequest.safeParse(body);
      expect(result.success, JSON.stringify(body)).toBe(false);
      expect(result.error?.issues[0]?.message, JSON.stringify(body)).toBe(INVALID_VERIFICATION_LINK);
    }
    expect(VerifyEmailRequest.safeParse({ action: 'send', token }).success).toBe(false);
    expect(VerifyEmailRequest.safeParse({ action: 'resend' }).success).toBe(false);
    expect(VerifyEmailRequest.safeParse({ email: 'a@b.c' }).success).toBe(false);
  });
});
