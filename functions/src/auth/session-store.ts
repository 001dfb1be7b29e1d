/** A refresh token, known by its hash, belonging to a session family. */
export interface SessionRecord {
  tokenHash: string;
  userId: string;
  familyId: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** Set when this token was exchanged for a new one; presenting it again is reuse. */
  rotatedAt?: string;
}

export interface SessionFamilyRecord {
  familyId: string;
  userId: string;
  expiresAt: number;
  revokedAt?: string;
}

export type RotateResult = 'rotated' | 'already-rotated' | 'revoked';

export interface SessionRepository {
  start(session: SessionRecord): Promise<void>;
  get(tokenHash: string): Promise<SessionRecord | undefined>;
  getFamily(familyId: string): Promise<SessionFamilyRecord | undefined>;
  /** Marks `old` rotated and stores `next`, only if `old` was not rotated and its family is live. */
  rotate(old: SessionRecord, next: SessionRecord): Promise<RotateResult>;
  revokeFamily(familyId: string): Promise<void>;
}
