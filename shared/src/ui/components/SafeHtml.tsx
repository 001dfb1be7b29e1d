import { useEffect, useMemo, useState } from 'react';
import { useAfterMainPicture } from './MainPicture';

type Sanitize = (html: string) => string;

let sanitizer: Sanitize | null = null;
let loading: Promise<Sanitize> | null = null;

/**
 * Loads DOMPurify with the description policy (./sanitize-description.ts) as a chunk of its own.
 * The server sanitized every description at import; the apps sanitize again as defence in depth,
 * but DOMPurify (29 KiB) need not be evaluated in the task that renders the product (issue 16).
 */
export function loadSanitizer(): Promise<Sanitize> {
  loading ??= import('./sanitize-description').then(
    (module) => (sanitizer = module.sanitizeDescription),
    (error: unknown) => {
      // A failed chunk load is tried again by the next description that needs it.
      loading = null;
      throw error;
    },
  );
  return loading;
}

// Not loaded with the screens that show a description: on a page opened at such a screen its 30
// KiB would share the network and the main thread with what the first picture needs (issue 16).
// A description starts the load when it first renders (after that paint), or, inside a
// MainPictureFirst, once the product's first picture is shown; the member list starts it with the
// detail screen's code, while idle or on intent (ProductListScreen).

export interface SafeHtmlProps {
  html: string;
  className?: string;
  /** Shown when the description is empty (after sanitizing). */
  emptyText?: string;
}

/**
 * Renders a product's html_description as markup, sanitized by DOMPurify with the description
 * policy. Until DOMPurify has loaded (the first description starts it, unless the member list
 * already has), nothing of the description is rendered: an empty block, marked busy, holds a few
 * lines' space.
 */
export function SafeHtml({ html, className, emptyText = 'No description.' }: SafeHtmlProps) {
  const [sanitize, setSanitize] = useState<Sanitize | null>(() => sanitizer);
  // On a page whose main picture comes first (MainPicture.tsx), DOMPurify waits for it.
  const allowed = useAfterMainPicture();
  useEffect(() => {
    if (sanitize || !allowed) return;
    let current = true;
    loadSanitizer().then(
      (loaded) => {
        if (current) setSanitize(() => loaded);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [sanitize, allowed]);
  const clean = useMemo(() => (sanitize ? sanitize(html) : null), [html, sanitize]);
  const classes = className ? `rich-text ${className}` : 'rich-text';
  if (clean === null) return <div className={`${classes} rich-text--pending`} aria-busy="true" />;
  if (!clean.trim()) return <p className={`${classes} rich-text--empty`}>{emptyText}</p>;
  return <div className={classes} dangerouslySetInnerHTML={{ __html: clean }} />;
}
