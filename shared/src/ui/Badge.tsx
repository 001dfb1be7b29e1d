export const ATTENTION_LABEL = 'Action needed: create your payout account and add a payout method';

export interface BadgeProps {
  /** The accessible name: what the red dot means, in words. */
  label?: string;
  /**
   * 'status' for a badge that stands on its own (the menu button); 'img' for one inside a link,
   * where its label becomes part of the link's name.
   */
  role?: 'status' | 'img';
  id?: string;
  className?: string;
  'data-testid'?: string;
}

/** The red attention dot. */
export function Badge({
  label = ATTENTION_LABEL,
  role = 'status',
  id,
  className,
  'data-testid': testId = 'attention-badge',
}: BadgeProps) {
  return (
    <span
      id={id}
      role={role}
      aria-label={label}
      title={label}
      data-testid={testId}
      className={className ? `badge ${className}` : 'badge'}
    />
  );
}
