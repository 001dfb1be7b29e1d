import { Link } from 'react-router-dom';
import { ArrowLeftIcon } from '@portal/shared/ui/icons';

/** The Back link a payout screen starts with (the detail screens' look, without their chunk). */
export function BackLink({ to, label = 'Back' }: { to: string; label?: string }) {
  return (
    <Link className="button button--ghost button--small back-link" to={to}>
      <ArrowLeftIcon className="button__icon" aria-hidden="true" />
      {label}
    </Link>
  );
}
