import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gridRows } from '../../../test/dataTableTesting';
import { DataTable, preloadDataTable, type DataColumn } from './LazyDataTable';

/**
 * A table from its first paint: the plain table shown until the grid's chunk is loaded has the
 * toolbar (rows per page, sort by), the pager and sortable headers; the grid takes over where it
 * stood; a phone shows cards with every column. This file's modules are its own, so the grid is not
 * loaded when the first test starts.
 */

interface Row {
  id: string;
  name: string;
  total: number;
  note: string;
}

const rows: Row[] = Array.from({ length: 8 }, (_, index) => ({
  id: `r${index + 1}`,
  name: `Row ${index + 1}`,
  total: (index + 1) * 10.5,
  note: `Note ${index + 1}`,
}));

const columns: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', value: (row) => row.name },
  // The first order: the largest total first.
  { id: 'total', header: 'Total', value: (row) => row.total, kind: 'money', sort: 'desc' },
  { id: 'note', header: 'Note', value: (row) => row.note, hideOnPhone: true },
];

const plainRows = () =>
  within(screen.getByTestId('plain-table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

/** Makes the window phone-sized (under 640 px) or not, for useIsPhone. */
function phoneSized(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

beforeEach(() => {
  localStorage.clear();
  phoneSized(false);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DataTable before the grid is loaded', { timeout: 30_000 }, () => {
  it('shows the first page with its pager and page sizes, pages, sorts by header and menu, and opens a row', async () => {
    const open = vi.fn();
    // Clicks without the pointer coming or focus moving (fireEvent), so the grid stays unloaded.
    render(
      <DataTable
        rows={rows}
        columns={columns}
        rowId={(row) => row.id}
        label="Things"
        emptyMessage="Nothing yet."
        onRowActivate={open}
      />,
    );
    const table = within(screen.getByRole('region', { name: 'Things' })).getByRole('table');
    // The number column's header is aligned like its numbers (right), the text columns' are not;
    // the first order shows on its header.
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((cell) => cell.classList.contains('data-table__cell--number'))).toEqual([false, true, false]);
    expect(headers.map((cell) => cell.getAttribute('aria-sort'))).toEqual([null, 'descending', null]);
    expect(plainRows()).toEqual([
      ['Row 8', '$84.00', 'Note 8'],
      ['Row 7', '$73.50', 'Note 7'],
      ['Row 6', '$63.00', 'Note 6'],
      ['Row 5', '$52.50', 'Note 5'],
      ['Row 4', '$42.00', 'Note 4'],
    ]);
    // Page sizes 5 to 50 and all, 5 first; the pager and what the page shows, from the first paint.
    const size = screen.getByLabelText('Rows per page');
    expect(
      within(size)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '7', '10', '15', '20', '25', '50', 'All']);
    expect(size).toHaveProperty('value', '5');
    expect(screen.getByText(/Rows 1–5 of 8/)).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Things: pages' });
    expect(within(pager).getByText('Page 1 of 2')).toBeTruthy();
    expect(within(pager).getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);

    fireEvent.click(within(pager).getByRole('button', { name: 'Next page' }));
    expect(plainRows().map((row) => row[0])).toEqual(['Row 3', 'Row 2', 'Row 1']);
    expect(within(pager).getByText('Page 2 of 2')).toBeTruthy();
    expect(within(pager).getByRole('button', { name: 'Last page' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/Rows 6–8 of 8/)).toBeTruthy();

    // A header sorts (text A to Z first), and back to the first page.
    fireEvent.click(within(table).getByRole('button', { name: /Name/ }));
    expect(plainRows().map((row) => row[0])).toEqual(['Row 1', 'Row 2', 'Row 3', 'Row 4', 'Row 5']);
    expect(screen.getByLabelText('Sort by')).toHaveProperty('value', 'name:asc');
    // The menu sorts too: amount, lowest first.
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'total:asc' } });
    expect(plainRows().map((row) => row[1])).toEqual(['$10.50', '$21.00', '$31.50', '$42.00', '$52.50']);
    expect(within(table).getAllByRole('columnheader')[1]?.getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(table).getByText('Row 2'));
    expect(open).toHaveBeenCalledWith(rows[1]);
    expect(screen.getByTestId('plain-table')).toBeTruthy();
  });

  it('keeps the page size chosen for the table', async () => {
    const first = render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="-" tableId="t" />,
    );
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '7' } });
    expect(plainRows()).toHaveLength(7);
    first.unmount();
    // The same table, opened again: 7 rows per page; another table keeps its own (5).
    render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="-" tableId="t" />,
    );
    expect(screen.getByLabelText('Rows per page')).toHaveProperty('value', '7');
    expect(plainRows()).toHaveLength(7);
    cleanup();
    render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Other" emptyMessage="-" tableId="u" />,
    );
    expect(screen.getByLabelText('Rows per page')).toHaveProperty('value', '5');
  });

  it('shows cards on a phone, each with every column and an Open button naming its row', async () => {
    phoneSized(true);
    const open = vi.fn();
    render(
      <DataTable
        rows={rows}
        columns={columns}
        rowId={(row) => row.id}
        label="Things"
        emptyMessage="-"
        onRowActivate={open}
        rowLabel={(row) => row.name}
      />,
    );
    expect(screen.queryByTestId('plain-table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
    expect(cards).toHaveLength(5);
    const first = cards[0]!;
    // Every column, the one hidden on a phone before included, as a labelled line.
    expect(Array.from(first.querySelectorAll('dt')).map((term) => term.textContent)).toEqual(['Name', 'Total', 'Note']);
    expect(Array.from(first.querySelectorAll('dd')).map((value) => value.textContent)).toEqual([
      'Row 8',
      '$84.00',
      'Note 8',
    ]);
    await userEvent.click(within(first).getByRole('button', { name: 'Open Row 8' }));
    expect(open).toHaveBeenCalledWith(rows[7]);
    expect(screen.getByRole('navigation', { name: 'Things: pages' })).toBeTruthy();
    expect(screen.getByLabelText('Sort by')).toHaveProperty('value', 'total:desc');
  });

  it('turns into the grid when the pointer comes, on the same page in the same order, never inside a click', async () => {
    const open = vi.fn();
    const { container } = render(
      <DataTable
        rows={rows}
        columns={columns}
        rowId={(row) => row.id}
        label="Things"
        emptyMessage="-"
        onRowActivate={open}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(gridRows(container)).toHaveLength(0);
    // The pointer comes and presses a row; the grid's chunk arrives while the button is down.
    fireEvent.pointerEnter(screen.getByTestId('data-table'));
    const cell = screen.getByText('Row 2');
    fireEvent.pointerDown(cell);
    await preloadDataTable();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.getByTestId('data-table').getAttribute('data-form')).toBe('plain');
    // The click the press makes still opens its row; then the grid takes the table's place.
    fireEvent.pointerUp(cell);
    fireEvent.click(cell);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]![0]).toMatchObject({ id: 'r2' });
    await waitFor(
      () => expect(gridRows(container).map((row) => row.getAttribute('row-id'))).toEqual(['r3', 'r2', 'r1']),
      { timeout: 20_000 },
    );
    expect(screen.queryByTestId('plain-table')).toBeNull();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('is the grid from its first render once the grid is loaded', async () => {
    await preloadDataTable();
    const { container } = render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="Nothing yet." />,
    );
    expect(screen.queryByTestId('plain-table')).toBeNull();
    await waitFor(() => expect(gridRows(container)).toHaveLength(5));
  });
});
