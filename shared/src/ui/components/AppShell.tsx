import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useHref, useLocation, useNavigate } from 'react-router-dom';
import { toApiError, useAuth, type AuthView } from '../hooks/AuthProvider';
import { AdminModeSwitch } from './AdminModeSwitch';
import { Avatar } from './Avatar';
import { AttentionWords } from './Badge';
import { Drawer } from './Drawer';
import { EmptyState } from './EmptyState';
import { ErrorBanner } from './ErrorBanner';
import { ChevronRightIcon, LockIcon, LogOutIcon } from './icons';
import { Loading } from './Loading';
import { adminSwitchTarget, isAdminPath, pageNavigation } from './navigation';
import { Page } from './Page';
import { TopBar } from './TopBar';

export interface MenuItem {
  /** A route inside the app (relative to its base), or with `document`, a plain URL. */
  to: string;
  label: string;
  /** Match the route exactly (for '/'). */
  end?: boolean;
  /** Show the red badge beside the item: the payout set-up steps still to do, in words. */
  attention?: boolean;
  icon?: ReactNode;
  /** A link to the other app: a full-page navigation, not a route. */
  document?: boolean;
}

export interface AppShellProps {
  app: 'member' | 'admin';
  /** The drawer's menu for the current session. */
  menu: (auth: AuthView) => MenuItem[];
  /** Routes where being logged out is normal (the member app's /login and /signup). */
  publicPaths?: readonly string[];
  /**
   * Of the public paths, those a logged-in person stays on too (the e-mail verification link);
   * a logged-in person on any other public path is sent to /member.
   */
  openPaths?: readonly string[];
}

/** The document's path including the router's base ('/admin/orders' in the admin app). */
export function useDocumentPathname(): string {
  const location = useLocation();
  return useHref(location.pathname);
}

/** No red badge (a constant, so the top bar sees the same empty list on every render). */
const NO_REASONS: readonly string[] = [];

/**
 * The frame of every screen of both apps: skip link, top bar, drawer and the main landmark.
 * It runs the authentication check each time a screen opens, shows a loading state until the
 * first answer, sends a logged-out person to /login, and tells them when the check could not be
 * made (with Retry) instead of logging them out.
 */
export function AppShell({ app, menu, publicPaths = [], openPaths = [] }: AppShellProps) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const pathname = useDocumentPathname();
  const isPublic = publicPaths.includes(location.pathname);
  const isOpen = isPublic && openPaths.includes(location.pathname);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const { checkAuth, status } = auth;

  // Every screen runs the authentication check when it opens (single-flight in the store).
  useEffect(() => {
    void checkAuth();
  }, [checkAuth, location.pathname]);

  useEffect(() => {
    if (status === 'anonymous' && !isPublic) {
      if (app === 'admin') pageNavigation.assign('/login');
      else navigate('/login', { replace: true });
    } else if (status === 'authenticated' && isPublic && !isOpen) {
      navigate('/member', { replace: true });
    }
  }, [status, isPublic, isOpen, app, navigate]);

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const retry = () => void checkAuth({ force: true });

  let content: ReactNode;
  if (isPublic) {
    content = <Outlet />;
  } else if (status === 'unknown') {
    content =
      auth.checkError && !auth.checking ? null : (
        <Loading label={auth.checking ? 'Checking your session…' : 'Loading…'} />
      );
  } else if (status === 'anonymous') {
    content = <Loading label="Taking you to the login page…" />;
  } else if (app === 'admin' && !auth.isAdmin) {
    content = <AdminOnly email={auth.userProfile?.email} />;
  } else {
    content = <Outlet />;
  }

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <TopBar
        status={status}
        pathname={pathname}
        // The admin app is for running the shop, not selling: an admin who sells nothing is not
        // told on every screen to set up payouts (the drawer still offers the set-up).
        attention={app === 'admin' ? NO_REASONS : auth.attentionReasons}
        menuOpen={drawerOpen}
        onOpenMenu={() => setDrawerOpen(true)}
        menuButtonRef={menuButtonRef}
        loginLink={app === 'admin' ? 'document' : 'router'}
      />
      {status === 'authenticated' ? (
        <Drawer open={drawerOpen} onClose={closeDrawer}>
          <DrawerContent
            app={app}
            items={menu(auth)}
            pathname={pathname}
            onNavigate={closeDrawer}
            onError={(message) => {
              setDrawerOpen(false);
              setActionError(message);
            }}
          />
        </Drawer>
      ) : null}
      <main id="main" className="main" tabIndex={-1}>
        {auth.checkError && !auth.checking && !isPublic ? (
          <ErrorBanner
            title="We could not check your session"
            // With no screen under it, the banner is the page: its title is the page's heading.
            titleAs={content === null ? 'h1' : 'p'}
            message={auth.checkError.message}
            onRetry={retry}
            retrying={auth.checking}
          />
        ) : null}
        {actionError ? <ErrorBanner message={actionError} onDismiss={() => setActionError(null)} /> : null}
        {content}
      </main>
    </div>
  );
}

interface DrawerContentProps {
  app: AppShellProps['app'];
  items: MenuItem[];
  pathname: string;
  onNavigate: () => void;
  onError: (message: string) => void;
}

function DrawerContent({ app, items, pathname, onNavigate, onError }: DrawerContentProps) {
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  /** The switch shows its new position while the other app loads. */
  const [switchedTo, setSwitchedTo] = useState<boolean | null>(null);
  const email = auth.userProfile?.email ?? '';
  // The red badge's reasons are said on a menu item when one carries them (the member's My
  // Account), otherwise here (the admin app, whose menu has no My Account).
  const attentionElsewhere = auth.attentionReasons.length > 0 && !items.some((item) => item.attention);

  const switchMode = async (checked: boolean) => {
    setBusy(true);
    setSwitchedTo(checked);
    // The next page checks the session with the cookie: let any check that is rotating it finish.
    await auth.settle();
    pageNavigation.assign(adminSwitchTarget(pathname));
  };

  const logOut = async () => {
    setBusy(true);
    try {
      await auth.logout();
    } catch (error) {
      setBusy(false);
      onError(`You are still logged in: ${toApiError(error).message}`);
      return;
    }
    // The session is now anonymous: the shell's own redirect takes the person to /login (once; a
    // second full-page navigation from here used to abort the first one in the admin app).
    onNavigate();
  };

  return (
    <>
      <div className="drawer__profile">
        <Avatar email={email} size="lg" />
        <div className="drawer__who">
          {/* One line, kept whole: a long address ends in an ellipsis, the full one in the title
              (and in the text a screen reader reads). */}
          <span className="drawer__email" data-testid="drawer-email" title={email}>
            {email}
          </span>
          <span className="drawer__role">{auth.isAdmin ? 'Administrator' : 'Member'}</span>
        </div>
      </div>
      {auth.isAdmin ? (
        <AdminModeSwitch checked={switchedTo ?? isAdminPath(pathname)} onChange={switchMode} disabled={busy} />
      ) : null}
      {attentionElsewhere ? (
        <PayoutSetupLink app={app} reasons={auth.attentionReasons} onNavigate={onNavigate} />
      ) : null}
      <nav className="drawer__nav" aria-label="Main menu">
        <ul className="nav-list">
          {items.map((item) => (
            <li key={`${item.to}-${item.label}`}>
              {item.document ? (
                <a className="nav-link" href={item.to}>
                  {item.icon}
                  <span className="nav-link__label">{item.label}</span>
                  <ChevronRightIcon className="nav-link__chevron" />
                </a>
              ) : (
                <NavLink className="nav-link" to={item.to} end={item.end} onClick={onNavigate}>
                  {item.icon}
                  <span className="nav-link__text">
                    <span className="nav-link__label">{item.label}</span>
                    {item.attention ? (
                      <AttentionWords reasons={auth.attentionReasons} data-testid="menu-item-badge" />
                    ) : null}
                  </span>
                </NavLink>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <div className="drawer__footer">
        <button type="button" className="nav-link nav-link--button" onClick={logOut} disabled={busy}>
          <LogOutIcon />
          <span className="nav-link__label">Log out</span>
        </button>
      </div>
    </>
  );
}

/** The payout set-up still to do, in words, as a link to My Account (in the member app). */
function PayoutSetupLink({
  app,
  reasons,
  onNavigate,
}: {
  app: AppShellProps['app'];
  reasons: readonly string[];
  onNavigate: () => void;
}) {
  const content = (
    <>
      <span className="drawer__attention-title">Finish your payout set-up</span>
      <AttentionWords reasons={reasons} data-testid="drawer-attention" />
    </>
  );
  return app === 'member' ? (
    <Link className="drawer__attention" to="/my_account" onClick={onNavigate}>
      {content}
    </Link>
  ) : (
    <a className="drawer__attention" href="/my_account">
      {content}
    </a>
  );
}

function AdminOnly({ email }: { email: string | undefined }) {
  return (
    <Page title="Administrators only">
      <EmptyState
        icon={<LockIcon />}
        title="This area is for administrators."
        action={
          <a className="button button--primary" href="/">
            Go to the member app
          </a>
        }
      >
        <p>
          {email
            ? `You are logged in as ${email}, which does not have admin rights.`
            : 'Your account does not have admin rights.'}{' '}
          Ask an administrator if you need access.
        </p>
      </EmptyState>
    </Page>
  );
}
