import { useEffect, type ReactNode } from 'react';

export const PRODUCT_NAME = 'Reseller Portal';

export interface PageProps {
  title: string;
  description?: ReactNode;
  /** Buttons or links beside the heading. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** Sets the document title to "<title> · Reseller Portal"; leaves it as it is while `title` is undefined. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
}

/** A screen: its heading (the page's one h1), an optional lead, and the document title. */
export function Page({ title, description, actions, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <div className="page">
      <div className="page__header">
        <div className="page__heading">
          <h1 className="page__title">{title}</h1>
          {description ? <p className="page__description">{description}</p> : null}
        </div>
        {actions ? <div className="page__actions">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}
