import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { modeTitle } from './navigation';
import { TopBar, type TopBarProps } from './TopBar';

afterEach(cleanup);

function renderTopBar(props: Partial<TopBarProps> = {}) {
  return render(
    <MemoryRouter>
      <TopBar status="authenticated" pathname="/" {...props} />
    </MemoryRouter>,
  );
}

describe('TopBar title', () => {
  it.each([
    ['/', 'Member'],
    ['/my_account', 'Member'],
    ['/member', 'Member'],
    ['/admin/', 'Admin'],
    ['/admin/orders', 'Admin'],
    ['/admin', 'Admin'],
  ])('on %s shows %s', (pathname, title) => {
    renderTopBar({ pathname });
    expect(screen.getByTestId('topbar-title').textContent).toBe(title);
    expect(modeTitle(pathname)).toBe(title);
  });

  it('applies the spec rule literally: any path containing "admin" is admin mode', () => {
    expect(modeTitle('/product/badminton')).toBe('Admin');
  });
});

describe('TopBar logged in', () => {
  it('shows the menu button and no login link', () => {
    renderTopBar();
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login / Signup' })).toBeNull();
  });

  it('shows the red badge, and the menu button says why in its description and tooltip', () => {
    renderTopBar({ attention: ['Create your payout account', 'Add a debit card'] });
    const badge = screen.getByTestId('attention-badge');
    const why = 'Action needed: Create your payout account. Add a debit card.';
    expect(badge.textContent).toBe(why);
    const button = screen.getByRole('button', { name: 'Open menu', description: why });
    expect(button.getAttribute('title')).toBe(why);
    expect(badge.contains(document.getElementById(button.getAttribute('aria-describedby') ?? ''))).toBe(true);
  });

  it('names only the step still to do', () => {
    renderTopBar({ attention: ['Add a debit card'] });
    expect(
      screen.getByRole('button', { name: 'Open menu', description: 'Action needed: Add a debit card.' }),
    ).toBeTruthy();
  });

  it('has no badge when attention is not needed', () => {
    renderTopBar({ attention: [] });
    expect(screen.queryByTestId('attention-badge')).toBeNull();
    const button = screen.getByRole('button', { name: 'Open menu' });
    expect(button.hasAttribute('aria-describedby')).toBe(false);
    expect(button.hasAttribute('title')).toBe(false);
  });
});

describe('TopBar logged out', () => {
  it('shows a Login / Signup link to /login and no menu button', () => {
    renderTopBar({ status: 'anonymous' });
    const link = screen.getByRole('link', { name: 'Login / Signup' });
    expect(link.getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
    expect(screen.queryByTestId('topbar-title')).toBeNull();
  });

  it('uses a document link in the admin app, which has no /login of its own', () => {
    render(
      <MemoryRouter basename="/admin" initialEntries={['/admin/orders']}>
        <TopBar status="anonymous" pathname="/admin/orders" loginLink="document" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Login / Signup' }).getAttribute('href')).toBe('/login');
  });

  it('shows neither the link nor the menu while the first check runs', () => {
    renderTopBar({ status: 'unknown' });
    expect(screen.queryByRole('link', { name: 'Login / Signup' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
  });
});
