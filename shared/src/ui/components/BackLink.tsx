import { Link } from 'react-router-dom';
import { ArrowLeftIcon } from './icons';

/**
 * The Back link a screen starts with, pointing to its parent screen. Its own module: a screen in
 * an app's first chunk can use it without pulling in the detail view (carousel, sanitizer).
 */
export function BackLink({ to, label = 'Back', className }: { to: string; label?: string; className?: string }) {
  return (
    <Link className={['button button--ghost button--small back-link', className].filter(Boolean).join(' ')} to={to}>
      <ArrowLeftIcon className="button__icon" aria-hidden="true" />
      {label}
    </Link>
  );
}
