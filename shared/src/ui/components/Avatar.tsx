/** Initials from an e-mail address: 'ann.lee@x.com' -> 'AL', 'admin@x.com' -> 'A'. */
export function initialsFromEmail(email: string | null | undefined): string {
  const local = (email ?? '').split('@')[0] ?? '';
  const parts = local.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const letters = parts.slice(0, 2).map((part) => Array.from(part)[0] ?? '');
  const initials = letters.join('').toUpperCase();
  return initials || '?';
}

export interface AvatarProps {
  email: string | null | undefined;
  size?: 'md' | 'lg';
}

export function Avatar({ email, size = 'md' }: AvatarProps) {
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true" data-testid="avatar">
      {initialsFromEmail(email)}
    </span>
  );
}
