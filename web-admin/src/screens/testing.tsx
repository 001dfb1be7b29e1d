import { renderWithAuth, Where, type FakeApi } from '@portal/shared/test/testing';
import { AdminApp } from '../AdminApp';

/** The whole admin app at `path` (under /admin), with the router's address shown as `where`. */
export function renderAdminAt(api: FakeApi, path: string) {
  return renderWithAuth(
    <>
      <AdminApp />
      <Where />
    </>,
    api,
    { path, basename: '/admin' },
  );
}
