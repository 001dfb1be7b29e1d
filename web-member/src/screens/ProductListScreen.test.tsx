import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { productCard } from '@portal/shared/test/catalogueTesting';
import { authAnswer, fakeApi, renderWithAuth, type FakeApi } from '@portal/shared/test/testing';
import { MemberApp } from '../MemberApp';

afterEach(cleanup);

function renderMember(api: FakeApi, path = '/') {
  renderWithAuth(<MemberApp />, api, { path });
}

const member = (handlers: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({ checkAuth: () => ({ body: authAnswer({ isAccountCreated: 1, isPayoutMethodAdded: 1 }) }), ...handlers });

describe('member product list', () => {
  it('shows a card per approved product with the three money lines, You Make in green, a page at a time', async () => {
    const user = userEvent.setup();
    const api = member({
      getApprovedProducts: ({ body }) => {
        const { cursor, limit } = body as { cursor?: string; limit?: number };
        expect(limit).toBe(24);
        return cursor
          ? {
              body: {
                items: [productCard({ id: 'p-3', product_name: 'Desk Lamp', you_make: '52.45' })],
                nextCursor: null,
              },
            }
          : {
              body: {
                items: [
                  productCard({ id: 'p-1' }),
                  productCard({ id: 'p-2', product_name: 'Water Bottle', image: null }),
                ],
                nextCursor: 'next-page',
              },
            };
      },
    });
    renderMember(api);
    const socks = (await screen.findByRole('heading', { name: 'Merino Wool Crew Socks (3 Pack)' })).closest('a')!;
    expect(socks.getAttribute('href')).toBe('/member_product_detail?id=p-1');
    const card = within(socks);
    expect(card.getByText('Trailhead')).toBeTruthy();
    expect(card.getByText('MSRP: $24.99')).toBeTruthy();
    expect(card.getByText('Sell Price: $12.95')).toBeTruthy();
    expect(card.getByText('You Make: $1.30').className).toContain('price-line--you-make');
    expect(within(screen.getByText('Water Bottle').closest('a')!).getByTestId('image-placeholder')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more products' }));
    expect(await screen.findByText('You Make: $52.45')).toBeTruthy();
    expect(api.callsTo('getApprovedProducts').map((call) => call.body)).toEqual([
      { limit: 24 },
      { cursor: 'next-page', limit: 24 },
    ]);
    expect(screen.queryByRole('button', { name: 'Load more products' })).toBeNull();
  });

  it('says so when the catalogue is empty', async () => {
    renderMember(member({ getApprovedProducts: () => ({ body: { items: [], nextCursor: null } }) }));
    expect(await screen.findByText('No products are available yet.')).toBeTruthy();
  });

  it('shows a failed load in words with Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderMember(
      member({
        getApprovedProducts: () =>
          fail ? { networkError: true } : { body: { items: [productCard()], nextCursor: null } },
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The products could not be loaded.*Network Error/);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('You Make: $1.30')).toBeTruthy();
  });
});
