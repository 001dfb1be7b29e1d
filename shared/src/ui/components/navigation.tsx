/**
 * Full-page navigations (the Admin Mode switch, the admin app sending a logged-out person to the
 * member app's /login). One object so tests can replace `assign` with a spy.
 */
export const pageNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Whether a path belongs to admin mode: the spec's rule is that it contains 'admin'. */
export function isAdminPath(pathname: string): boolean {
  return pathname.includes('admin');
}

/** The title the top bar shows for a path: 'Admin' when it contains 'admin', otherwise 'Member'. */
export function modeTitle(pathname: string): 'Admin' | 'Member' {
  return isAdminPath(pathname) ? 'Admin' : 'Member';
}

/** Where the Admin Mode switch leads from a path: on a member path to the admin app, otherwise to /member. */
export function adminSwitchTarget(pathname: string): string {
  return isAdminPath(pathname) ? '/member' : '/admin/';
}
