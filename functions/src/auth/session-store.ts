/** A refresh token, known by its hash, belonging to a session family. */
export interface SessionRecord {
  tokenHash: string;
  userId: string;
  familyId: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** Set when this token was exchanged for a new one; presenting it again after the grace window is reuse. */
  rotatedAt?: string;
  /**
   * The token it was exchanged for, sealed with a key derived from this token (which is not
   * stored): during the grace window the same answer can be given again (sessions.ts).
   */
  successor?: string;
}

export interface SessionFamilyRecord {
  familyId: string;
  userId: string;
  expiresAt: number;
  revokedAt?: string;
  /** The user's session generation when the family started (absent: 0); another one has ended it. */
  generation?: number;
}

/** Whether a family still belongs to its user's current session generation. */
export const inGeneration = (family: { generation?: number }, user: { sessionGeneration?: number }): boolean =>
  (family.generation ?? 0) === (user.sessionGeneration ?? 0);

/** `conflict`: another write to the same items was in flight (a transaction conflict); read again. */
export type RotateResult = 'rotated' | 'already-rotated' | 'revoked' | 'conflict';

export interface SessionRepository {
  /** Stores a new family (of the user's session `generation`) with its first token. */
  start(session: SessionRecord, generation?: number): Promise<void>;
  get(tokenHash: string): Promise<SessionRecord | undefined>;
  getFamily(familyId: string): Promise<SessionFamilyRecord | undefined>;
  /**
   * Marks `old` rotated (with its sealed successor) and stores `next`, only if `old` was not rotated
   * and its family is live and of the user's session `generation` (else `revoked`).
   */
  rotate(
    old: SessionRecord,
    next: SessionRecord,
    rotation: { rotatedAt: string; successor: string },
    generation?: number,
  ): Promise<RotateResult>;
  revokeFamily(familyId: string, at: string): Promise<void>;
}
