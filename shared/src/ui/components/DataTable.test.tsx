import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModuleRegistry, ValidationModule } from 'ag-grid-community';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gridRows as bodyRows } from '../../../test/dataTableTesting';
import { DataTable, preloadDataTable, type DataColumn } from './LazyDataTable';

interface Row {
  id: string;
  name: string;
  total: number;
  at: string;
}

const rows: Row[] = Array.from({ length: 12 }, (_, index) => ({
  id: `r${index + 1}`,
  name: `Row ${String(index + 1).padStart(2, '0')}`,
  total: (index + 1) * 10.5,
  at: `2026-11-${String(index + 1).padStart(2, '0')}T12:00:00.000Z`,
}));

const columns: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', value: (row) => row.name },
  { id: 'total', header: 'Total', value: (row) => row.total, kind: 'money' },
  { id: 'at', header: 'Date', value: (row) => row.at, kind: 'date' },
];

afterEach(() => {
  cleanup();
});

describe('DataTable', { timeout: 30_000 }, () => {
  // The grid's own checks (a feature whose module is not registered is an error in the console).
  const errors: unknown[][] = [];
  beforeAll(async () => {
    // Loaded before the tests render (a suspended render inside testing-library's sync act is not retried).
    await preloadDataTable();
    ModuleRegistry.registerModules([ValidationModule]);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (String(args[0]).includes('AG Grid')) errors.push(args);
    });
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if (String(args[0]).includes('AG Grid')) errors.push(args);
    });
  });

  it('offers 5, 7, 10, 15, 20, 25, 50 and all rows per page, 5 first, and formats money and dates', async () => {
    const { container } = render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="Nothing yet." />,
    );
    const select = await screen.findByLabelText('Rows per page');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '7', '10', '15', '20', '25', '50', 'All']);
    expect(select).toHaveProperty('value', '5');
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    expect(container.textContent).toContain('$10.50');
    expect(container.textContent).toMatch(/November 1st, 2026 \d{1,2}:00 (AM|PM)/);

    await userEvent.selectOptions(select, 'All');
    await waitFor(() => expect(bodyRows(container)).toHaveLength(12), { timeout: 10_000 });
    await userEvent.selectOptions(select, '10');
    await waitFor(() => expect(bodyRows(container)).toHaveLength(10), { timeout: 10_000 });
  });

  it('right-aligns number columns, their headers as well as their cells', async () => {
    const { container } = render(
      <DataTable rows={rows} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="Nothing yet." />,
    );
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    const header = (id: string) => container.querySelector(`.ag-header-cell[col-id="${id}"]`);
    const cells = (id: string) => [...container.querySelectorAll(`.ag-cell[col-id="${id}"]`)];
    expect(header('total')?.classList.contains('ag-right-aligned-header')).toBe(true);
    expect(cells('total').length).toBeGreaterThan(0);
    for (const cell of cells('total')) expect(cell.classList.contains('ag-right-aligned-cell')).toBe(true);
    // Text stays left-aligned.
    expect(header('name')?.classList.contains('ag-right-aligned-header')).toBe(false);
    for (const cell of cells('name')) expect(cell.classList.contains('ag-right-aligned-cell')).toBe(false);
  });

  it('says so when empty', async () => {
    render(
      <DataTable rows={[]} columns={columns} rowId={(row) => row.id} label="Things" emptyMessage="Nothing yet." />,
    );
    expect(await screen.findByText('Nothing yet.')).toBeTruthy();
  });

  it('sorts by a header click and opens a row on click and on Enter', async () => {
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
    await waitFor(() => expect(bodyRows(container)).toHaveLength(5));
    // A header click orders the rows (lowest first), a second the other way; the pages follow.
    await userEvent.click(await screen.findByText('Total'));
    await waitFor(() => expect(bodyRows(container)[0]?.textContent).toContain('Row 01'));
    expect(screen.getByLabelText('Sort by')).toHaveProperty('value', 'total:asc');
    await userEvent.click(await screen.findByText('Total'));
    await waitFor(() => expect(bodyRows(container)[0]?.textContent).toContain('Row 12'));
    expect(screen.getByLabelText('Sort by')).toHaveProperty('value', 'total:desc');
    const cell = bodyRows(container)[1]!.querySelector<HTMLElement>('[role="gridcell"]')!;
    await userEvent.click(cell);
    expect(open).toHaveBeenLastCalledWith(rows[10]);
    act(() => cell.focus());
    await userEvent.keyboard('{Enter}');
    expect(open).toHaveBeenCalledTimes(2);
    expect(errors).toEqual([]);
  });
});
