import { Link } from 'react-router-dom';
import { EmptyState } from './EmptyState';
import { CompassIcon } from './icons';
import { Page } from './Page';

/** Any route the app does not know. */
export function NotFoundScreen({ homeLabel = 'Go to the home page' }: { homeLabel?: string }) {
  return (
    <Page title="Page not found">
      <EmptyState
        icon={<CompassIcon />}
        title="There is nothing at this address."
        action={
          <Link className="button button--primary" to="/">
            {homeLabel}
          </Link>
        }
      >
        <p>The link may be mistyped, or the page may have moved.</p>
      </EmptyState>
    </Page>
  );
}
