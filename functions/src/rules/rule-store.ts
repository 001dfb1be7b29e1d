import type { CommissionRule } from '@portal/shared/domain/commission-rules';

/**
 * The commission rules' store (issue 39; docs/programme.md). The programme (every rule, every
 * group with its member count, a version) is one item that each sale reads; each member's groups
 * are a small item of their own, read with it; a group's members and the audit log are partitions
 * of their own. The programme's version is also an item of its own, which a sale reads instead of
 * the programme while its container holds that version's rules (decision 0480). Every change of the programme is conditional on the version the admin saw, with
 * its audit entry in the same transaction (decision 0420).
 */

export interface StoredGroup {
  id: string;
  name: string;
  memberCount: number;
  createdAt: string;
}

export interface StoredProgramme {
  /** 0 before any change (the spec's 10 % for everyone). */
  version: number;
  rules: CommissionRule[];
  groups: StoredGroup[];
}

/** One entry of the audit log: who, when, what, before and after in words. */
export interface AuditRecord {
  id: string;
  at: string;
  whoId: string;
  whoEmail: string;
  action: string;
  before: string | null;
  after: string | null;
}

export interface GroupMemberRecord {
  id: string;
  email: string;
  addedAt: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface RuleStore {
  /** The programme as it is now (strongly consistent: a sale paid after a change reads the change). */
  programme(): Promise<StoredProgramme>;
  /**
   * The programme's version as it is now (strongly consistent), read without the programme: every
   * change of the rules or the groups moves it in the same transaction (decision 0480). 0 before any.
   */
  programmeVersion(): Promise<number>;
  /** The groups a member is in (none: []). */
  groupsOf(memberId: string): Promise<string[]>;
  /** Replaces the rules, conditional on `expectedVersion`, with the audit entry; false when the version moved. */
  saveRules(expectedVersion: number, rules: CommissionRule[], audit: AuditRecord): Promise<boolean>;
  /** Adds a group, conditional on `expectedVersion`, with the audit entry; false when the version moved. */
  createGroup(expectedVersion: number, group: StoredGroup, audit: AuditRecord): Promise<boolean>;
  /** Puts a member in a group (their item, the group's count, the audit entry): one transaction. */
  addMember(groupId: string, member: GroupMemberRecord, audit: AuditRecord): Promise<'added' | 'already' | 'no-group'>;
  /** Takes a member out of a group, in one transaction with the count and the audit entry. */
  removeMember(groupId: string, memberId: string, audit: AuditRecord): Promise<'removed' | 'not-member'>;
  members(groupId: string, cursor: string | undefined, limit: number): Promise<Page<GroupMemberRecord>>;
  /** The audit log, newest first. */
  audit(cursor: string | undefined, limit: number): Promise<Page<AuditRecord>>;
}
