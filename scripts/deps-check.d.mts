export interface LockLike {
  packages?: Record<string, { version?: string; link?: boolean; optional?: boolean }>;
}
export function outOfDate(lock: LockLike, installed: LockLike | undefined): string[];
