import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}

/** What a screen shows when it has nothing to list yet: says so plainly and what will appear. */
export function EmptyState({ icon, title, children, action }: EmptyStateProps) {
  return (
    <section className="empty-state" aria-label={title}>
      {icon ? (
        <div className="empty-state__icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <h2 className="empty-state__title">{title}</h2>
      {children ? <div className="empty-state__text">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </section>
  );
}
