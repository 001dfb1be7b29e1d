import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkStatistics } from '../../api/visits';
import { STATS_TEST_DAYS, dailyCounts } from '../../../test/linkStatisticsTesting';
import { LinkStatisticsView } from './LinkStatisticsView';

const lamp = dailyCounts({ 89: [40, 4, 2, 5000, 500, 2], 10: [10, 0, 0, 0, 0, 0] });
const socks = dailyCounts({ 89: [10, 1, 1, 1200, 120, 1] });
const statistics: LinkStatistics = {
  days: STATS_TEST_DAYS,
  total: dailyCounts({ 89: [50, 5, 3, 6200, 620, 3], 10: [10, 0, 0, 0, 0, 0] }),
  products: [
    { productId: 'p-lamp', name: 'Desk Lamp Pro', counts: lamp },
    { productId: 'p-socks', name: 'Merino Socks', counts: socks },
  ],
  scope: 'Your links',
};

afterEach(cleanup);

describe('LinkStatisticsView', () => {
  it('shows the totals of 90 days, a chart named by its measure and described in words, and the days as a table', async () => {
    render(<LinkStatisticsView statistics={statistics} earningsLabel="Your earnings" />);
    const totals = screen.getByLabelText('The last 90 days');
    expect(within(totals).getByText('Visits').nextSibling?.textContent).toBe('60');
    expect(within(totals).getByText('Sales').nextSibling?.textContent).toBe('3');
    expect(within(totals).getByText('Conversion').nextSibling?.textContent).toBe('5 %');
    expect(within(totals).getByText('Your earnings').nextSibling?.textContent).toBe('$6.20');
    const chart = screen.getByRole('img', { name: 'Visits by day, Sep 4 to Dec 2' });
    expect(chart.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Highest 50 on Dec 2; 2 of 90 days above zero.')).toBeTruthy();
    expect(chart.querySelectorAll('rect')).toHaveLength(2);
    const table = screen.getByRole('table');
    const [header, newest] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day', 'Visits', 'Sales', 'Conversion', 'Your earnings']);
    expect(
      within(newest!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['50', '3', '6 %', '$6.20']);
  });

  it('switches the measure and the product by keyboard-usable controls', async () => {
    const user = userEvent.setup();
    render(<LinkStatisticsView statistics={statistics} />);
    await user.click(screen.getByRole('radio', { name: 'Earnings' }));
    expect(screen.getByRole('img', { name: 'Earnings by day, Sep 4 to Dec 2' })).toBeTruthy();
    expect(screen.getByText('Highest $6.20 on Dec 2; 1 of 90 days above zero.')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Product' }), 'Merino Socks');
    expect(screen.getByRole('img', { name: 'Earnings by day, Sep 4 to Dec 2: Merino Socks' })).toBeTruthy();
    expect(within(screen.getByLabelText('The last 90 days')).getByText('Visits').nextSibling?.textContent).toBe('10');
    await user.click(screen.getByRole('radio', { name: 'Conversion' }));
    expect(screen.getByText('Highest 10 % on Dec 2; 1 of 90 days above zero.')).toBeTruthy();
  });

  it("shows the admin's funnel from counted visits (visits, checkouts started, paid, each as a share of the visits), and the sales without one", () => {
    render(<LinkStatisticsView statistics={statistics} showFunnel />);
    const funnel = screen.getByRole('region', { name: 'Funnel' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual(['Visits60 (100 %)', 'Checkouts started from a visit5 (8.3 %)', 'Paid after a visit3 (5 %)']);
    expect(within(funnel).getByText(/^Sales without a counted visit:/).textContent).toContain(
      'Sales without a counted visit: 0 of 3 sales',
    );
  });
});
