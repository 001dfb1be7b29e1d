import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gridRows } from '../../../test/dataTableTesting';
import { DataTable, preloadDataTable, type DataColumn } from './LazyDataTable';

/**
 * The plain first page shown until the grid's chunk is loaded. This file's modules are its own,
 * so the grid is not loaded when the first test starts.
 */

interface Row {
  id: string;
  name: string;
  total: number;
}

const rows: Row[] = Array.from({ length: 8 }, (_, index) => ({
  id: `r${index + 1}`,
  name: `Row ${index + 1}`,
  total: (index + 1) * 10.5,
}));

const columns: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', value: (row) => row.name },
  // The first order: the largest total first.
  { id: 'total', header: 'Total', value: (row) => row.total, kind: 'money', sort: 'desc' },
];

afterEach(cleanup);

describe('DataTable before the grid is loaded', () => {
  it('shows the first page as a plain table, in the first order, opens a row, and loads the grid when the pointer comes', async () => {
    const open = vi.fn();
    const { container } = render(
      <DataTable
        rows={rows}
        columns={columns}
        rowId={(row) => row.id}
        label="Things"
        emptyMessage="Nothing yet."
        onRowActivate={open}
      />,
    );
    const region = screen.getByRole('region', { name: 'Things' });
    const table = within(region).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Total']);
    // The number column's header is aligned like its numbers (right), the text column's is not.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.classList.contains('data-table__cell--number')),
    ).toEqual([false, true]);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(
      bodyRows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Row 8', '$84.00'],
      ['Row 7', '$73.50'],
      ['Row 6', '$63.00'],
      ['Row 5', '$52.50'],
      ['Row 4', '$42.00'],
    ]);
    expect(screen.getByText(/8 rows/)).toBeTruthy();
    expect(gridRows(container)).toHaveLength(0);
    await userEvent.setup().click(within(table).getByText('Row 7'));
    expect(open).toHaveBeenCalledWith(rows[6]);
    // The click came with the pointer: the grid takes the table's place, with the same first page.
    await waitFor(() => expect(gridRows(container)).toHaveLength(5), { timeout: 20_000 });
    expect(screen.queryByTestId('plain-table')).toBeNull();
  }, 30_000);

  it('turns into the grid with the page size chosen', async () => {
    // Modules of its own: the grid is not loaded yet.
    vi.resetModules();
    const fresh = await import('./LazyDataTable');
    const { container } = render(
      <fresh.DataTable
        rows={rows}
        columns={columns}
        rowId={(row) => row.id}
        label="Things"
        emptyMessage="Nothing yet."
      />,
    );
    expect(screen.getByTestId('plain-table').querySelectorAll('tbody tr')).toHaveLength(5);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '7' } });
    await waitFor(() => expect(gridRows(container)).toHaveLength(7), { timeout: 20_000 });
    expect(screen.getByLabelText('Rows per page')).toHaveProperty('value', '7');
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
