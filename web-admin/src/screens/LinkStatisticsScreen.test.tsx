import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authAnswer, fakeApi } from '@portal/shared/test/testing';
import { dailyCounts, emptyLinkStatistics } from '@portal/shared/test/linkStatisticsTesting';
import { renderAdminAt } from './testing';
import { preloadLazyScreens } from './routeScreens';

beforeAll(preloadLazyScreens, 60_000);
afterEach(cleanup);

const NO_MEMBER = 'No member has this e-mail address.';

/** An admin's fake /api: every link's statistics, one member's, an unknown member's 404 with its field. */
function statisticsApi() {
  return fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true }) }),
    getLinkStatistics: ({ body }) => {
      const ask = body as { memberEmail?: string };
      if (ask.memberEmail === 'nobody@example.com') {
        return { status: 404, body: { message: NO_MEMBER, fields: { memberEmail: NO_MEMBER } } };
      }
      if (ask.memberEmail) {
        return {
          body: {
            ...emptyLinkStatistics(`The links of ${ask.memberEmail}`),
            total: dailyCounts({ 89: [20, 4, 2, 4000, 400, 2] }),
          },
        };
      }
      return { body: { ...emptyLinkStatistics('All links'), total: dailyCounts({ 89: [100, 10, 4, 8000, 800, 3] }) } };
    },
  });
}

describe('/admin/link_statistics', () => {
  it('shows every link with the funnel, one member’s by e-mail, and an unknown member in words at its field', async () => {
    const user = userEvent.setup();
    const api = statisticsApi();
    renderAdminAt(api, '/admin/link_statistics');
    expect(await screen.findByRole('heading', { level: 2, name: 'All links' })).toBeTruthy();
    const funnel = screen.getByRole('region', { name: 'Funnel' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual(['Visits100 (100 %)', 'Checkouts started from a visit10 (10 %)', 'Paid after a visit3 (3 %)']);
    // Every step counts from a counted visit; the other sale of the 4 is said beside it, not mixed in.
    expect(within(funnel).getByRole('heading', { name: 'Funnel from counted visits' })).toBeTruthy();
    expect(within(funnel).getByText(/^Sales without a counted visit:/).textContent).toBe(
      'Sales without a counted visit: 1 of 4 sales (not in the funnel: an admin’s order, or a buyer whose visit was not counted).',
    );
    expect(within(screen.getByLabelText('The last 90 days')).getByText('Sales').nextSibling?.textContent).toBe('4');

    await user.type(screen.getByLabelText("Member's e-mail"), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText(NO_MEMBER)).toBeTruthy();
    expect(screen.getByLabelText("Member's e-mail").getAttribute('aria-invalid')).toBe('true');

    await user.clear(screen.getByLabelText("Member's e-mail"));
    await user.type(screen.getByLabelText("Member's e-mail"), 'dana@example.com');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'The links of dana@example.com' })).toBeTruthy();
    expect(api.callsTo('getLinkStatistics').map((request) => request.body)).toEqual([
      {},
      { memberEmail: 'nobody@example.com' },
      { memberEmail: 'dana@example.com' },
    ]);
    await user.click(screen.getByRole('button', { name: 'All links' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'All links' })).toBeTruthy();
  });
});
