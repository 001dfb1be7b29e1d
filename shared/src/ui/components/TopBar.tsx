import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import type { AuthStatus } from '../hooks/authStore';
import { attentionSummary } from '../../domain/attention';
import { AttentionDot } from './Badge';
import { MenuIcon } from './icons';
import { modeTitle } from './navigation';
import { PRODUCT_NAME } from './Page';

export const MENU_BUTTON_ATTENTION_ID = 'menu-attention-badge';

const NO_ATTENTION: readonly string[] = [];

export interface TopBarProps {
  status: AuthStatus;
  /** The document's path (with the app's base), e.g. '/admin/orders': decides the title. */
  pathname: string;
  /** Why the menu button carries the red badge: the payout set-up steps still to do (none: no badge). */
  attention?: readonly string[];
  menuOpen?: boolean;
  onOpenMenu?: () => void;
  menuButtonRef?: Ref<HTMLButtonElement>;
  /**
   * How the 'Login / Signup' link reaches /login: inside the member app's router, or as a plain
   * document link (the admin app has no /login of its own).
   */
  loginLink?: 'router' | 'document';
  /** The id of the drawer the menu button opens. */
  drawerId?: string;
}

/**
 * The top bar of both apps. Logged in: the menu button (with the red badge while the payout account
 * or payout method is missing, described by what is missing) and the title, 'Admin' when the path contains 'admin', otherwise
 * 'Member'. Logged out: a 'Login / Signup' link to /login. While the first check runs: neither.
 */
export function TopBar({
  status,
  pathname,
  attention = NO_ATTENTION,
  menuOpen = false,
  onOpenMenu,
  menuButtonRef,
  loginLink = 'router',
  drawerId = 'app-drawer',
}: TopBarProps) {
  return (
    <header className="topbar">
      <div className="topbar__inner">
        {status === 'authenticated' ? (
          <>
            <span className="topbar__menu">
              <button
                ref={menuButtonRef}
                type="button"
                className="icon-button"
                aria-label="Open menu"
                aria-haspopup="dialog"
                aria-expanded={menuOpen}
                aria-controls={menuOpen ? drawerId : undefined}
                // The badge's reasons, e.g. "Action needed: Create your payout account. Add a debit card."
                aria-describedby={attention.length ? MENU_BUTTON_ATTENTION_ID : undefined}
                title={attention.length ? attentionSummary(attention) : undefined}
                onClick={onOpenMenu}
              >
                <MenuIcon />
              </button>
              <AttentionDot reasons={attention} id={MENU_BUTTON_ATTENTION_ID} className="badge--on-button" />
            </span>
            <span className="topbar__title" data-testid="topbar-title">
              {modeTitle(pathname)}
            </span>
          </>
        ) : (
          <span className="topbar__brand">{PRODUCT_NAME}</span>
        )}
        {status === 'anonymous' ? (
          <div className="topbar__end">
            {loginLink === 'router' ? (
              <Link className="button button--primary button--small" to="/login">
                Login / Signup
              </Link>
            ) : (
              <a className="button button--primary button--small" href="/login">
                Login / Signup
              </a>
            )}
          </div>
        ) : null}
      </div>
    </header>
  );
}
