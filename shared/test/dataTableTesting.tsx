import { waitFor } from '@testing-library/react';

/** Test helpers for DataTable (AG Grid's DOM): the body rows shown, and a row's cell texts. */

export function gridRows(container: ParentNode = document): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>('.ag-row[role="row"][row-id]'));
}

export function gridRow(container: ParentNode, id: string): HTMLElement | null {
  return container.querySelector<HTMLElement>(`.ag-row[role="row"][row-id=${JSON.stringify(id)}]`);
}

export function cellTexts(row: Element): string[] {
  return Array.from(row.querySelectorAll('[role="gridcell"]')).map((cell) => cell.textContent ?? '');
}

/** Waits for the row with `id` (the grid may draw its rows again while they settle). */
export async function findGridRow(id: string, container: ParentNode = document): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = gridRow(container, id);
    if (!found) throw new Error(`No grid row ${id}`);
  });
  return found!;
}
