import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchedList, emptySearch, type SearchField, type SearchValue } from './TableSearch';

afterEach(cleanup);

const FIELDS: readonly SearchField[] = [
  { id: 'orderNumber', label: 'Order number', hint: 'As on the receipt, like RP-7F3K9Q2M' },
  { id: 'member', label: 'Member e-mail', hint: 'The whole address', type: 'email' },
];
const STATUSES = [
  { value: 'ordered', label: 'Ordered' },
  { value: 'shipped', label: 'Shipped' },
];

/** A screen's use: the search it shows, and the server's refusal of it when there is one. */
function Screen({ refuse, onSearch }: { refuse?: Record<string, string>; onSearch: (value: SearchValue) => void }) {
  const [search, setSearch] = useState(() => emptySearch('orderNumber'));
  const searched = (value: SearchValue) => {
    onSearch(value);
    setSearch(value);
  };
  return (
    <SearchedList
      label="Search orders"
      noun="orders"
      fields={FIELDS}
      statuses={STATUSES}
      value={search}
      onSearch={searched}
      refused={refuse && search.text ? refuse : null}
    >
      <p>The list</p>
    </SearchedList>
  );
}

describe('SearchedList', () => {
  it('searches from the keyboard by the chosen field and status, and Clear goes back to the whole list', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    render(<Screen onSearch={onSearch} />);
    const form = within(screen.getByRole('search', { name: 'Search orders' }));
    // Every control is labelled; the text field names its hint.
    const text = form.getByLabelText('Order number');
    expect(text.getAttribute('aria-describedby')).toBe(`${text.id}-hint`);
    expect(form.getByText('As on the receipt, like RP-7F3K9Q2M').id).toBe(`${text.id}-hint`);
    expect(form.queryByRole('button', { name: 'Clear' })).toBeNull();

    await user.click(text);
    await user.keyboard('  rp-7f3k9q2m  {Enter}');
    expect(onSearch).toHaveBeenLastCalledWith({ by: 'orderNumber', text: 'rp-7f3k9q2m', status: '' });

    await user.selectOptions(form.getByLabelText('Search by'), 'member');
    const email = form.getByLabelText('Member e-mail');
    expect(email.getAttribute('type')).toBe('email');
    await user.type(email, 'ann@example.com');
    await user.selectOptions(form.getByLabelText('Status'), 'shipped');
    await user.click(form.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith({ by: 'member', text: 'ann@example.com', status: 'shipped' });
    expect(screen.getByText('The list')).toBeTruthy();

    await user.click(form.getByRole('button', { name: 'Clear' }));
    expect(onSearch).toHaveBeenLastCalledWith({ by: 'member', text: '', status: '' });
    expect((form.getByLabelText('Member e-mail') as HTMLInputElement).value).toBe('');
    expect((form.getByLabelText('Status') as HTMLSelectElement).value).toBe('');
  });

  it("shows the server's refusal at its field and says in the list's place why no list is shown", async () => {
    const user = userEvent.setup();
    const words = 'Enter an order number as it is written, like RP-7F3K9Q2M.';
    render(
      <Screen onSearch={() => undefined} refuse={{ orderNumber: words, status: 'Choose a status from the list.' }} />,
    );
    const form = within(screen.getByRole('search', { name: 'Search orders' }));
    await user.type(form.getByLabelText('Order number'), 'RP-BAD{Enter}');

    const text = form.getByLabelText('Order number');
    expect(text.getAttribute('aria-invalid')).toBe('true');
    const described = text.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toEqual([
      'As on the receipt, like RP-7F3K9Q2M',
      words,
    ]);
    const status = form.getByLabelText('Status');
    expect(status.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(status.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Choose a status from the list.',
    );
    expect(screen.queryByText('The list')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No orders are shown: correct the search above.');

    // Cleared, the search is no longer refused: the list is back, the field without an error.
    await user.click(form.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('The list')).toBeTruthy();
    expect(form.getByLabelText('Order number').getAttribute('aria-invalid')).toBeNull();
  });
});
