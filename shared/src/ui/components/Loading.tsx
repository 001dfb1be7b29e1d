export interface LoadingProps {
  label?: string;
  /** Fill the content area (first load) rather than sit inline. */
  block?: boolean;
}

/** An accessible loading state: a spinner plus words, announced politely. */
export function Loading({ label = 'Loading…', block = true }: LoadingProps) {
  return (
    <div className={block ? 'loading loading--block' : 'loading'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="loading__label">{label}</span>
    </div>
  );
}
