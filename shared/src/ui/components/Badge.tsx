import { attentionSummary } from '../../domain/attention';

/**
 * The red attention badges. Each says why it is there: the payout set-up steps still to do
 * ('Create your payout account', 'Add a debit card'), in words on the screen or, for the dot on
 * the menu button, in the button's accessible description and tooltip.
 */

export interface AttentionDotProps {
  /** The steps still to do; the dot shows only when there is one. */
  reasons: readonly string[];
  /** The id of the text that says them: the control the dot sits on is described by it. */
  id: string;
  className?: string;
}

/** The red dot on a control (the menu button). Point the control's aria-describedby at `id`. */
export function AttentionDot({ reasons, id, className }: AttentionDotProps) {
  if (reasons.length === 0) return null;
  const summary = attentionSummary(reasons);
  return (
    <span className={className ? `badge ${className}` : 'badge'} data-testid="attention-badge">
      <span id={id} className="visually-hidden">
        {summary}
      </span>
    </span>
  );
}

export interface AttentionWordsProps {
  reasons: readonly string[];
  className?: string;
  'data-testid'?: string;
}

/**
 * The reasons in words, each after a red dot: beside a menu item or a set-up step. Inside a link
 * they become part of its name ('My Account, action needed: Create your payout account, Add a
 * debit card').
 */
export function AttentionWords({ reasons, className, 'data-testid': testId = 'attention-words' }: AttentionWordsProps) {
  if (reasons.length === 0) return null;
  return (
    <span className={className ? `badge-words ${className}` : 'badge-words'} data-testid={testId}>
      {/* Said as one phrase (screen readers and accessible names trim the pieces of a split one). */}
      <span className="visually-hidden">{`, action needed: ${reasons.join(', ')}`}</span>
      <span className="badge-words__list" aria-hidden="true">
        {reasons.map((reason) => (
          <span key={reason} className="badge-words__item">
            <span className="badge" />
            {reason}
          </span>
        ))}
      </span>
    </span>
  );
}
