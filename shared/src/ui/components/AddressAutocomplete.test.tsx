import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AddressSuggestion } from '../../api/address';
import { ADD_CITY_OR_ZIP, ADDRESS_DEBOUNCE_MS, AddressAutocomplete, type SearchAddresses } from './AddressAutocomplete';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const suggestion = (n: number, city: string, state: string, zip: string): AddressSuggestion => ({
  PlaceId: `place-${n}-${zip}`,
  PlaceType: 'PointAddress',
  Title: `${n} Main St, ${city}, ${state} ${zip}, United States`,
  Address: {
    Label: `${n} Main St, ${city}, ${state} ${zip}, United States`,
    AddressNumber: String(n),
    Street: 'Main St',
    Locality: city,
    Region: { Code: state, Name: state },
    PostalCode: zip,
  },
});
const found = [suggestion(12, 'Springfield', 'IL', '62701'), suggestion(12, 'Springfield', 'MA', '01101')];

function setup(answer: AddressSuggestion[] = found) {
  const search = vi.fn<SearchAddresses>(async () => answer);
  const onSelect = vi.fn();
  const onChange = vi.fn();
  render(<AddressAutocomplete label="Street address" search={search} onSelect={onSelect} onChange={onChange} />);
  const input = screen.getByRole('combobox', { name: 'Street address' }) as HTMLInputElement;
  return { search, onSelect, onChange, input };
}

const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } });
/** Lets the debounce run out and the search answer. */
const settle = () => act(async () => void (await vi.advanceTimersByTimeAsync(ADDRESS_DEBOUNCE_MS)));
const key = (input: HTMLInputElement, name: string) => fireEvent.keyDown(input, { key: name });

describe('AddressAutocomplete', () => {
  it('is a labelled combobox with a list, collapsed at first', () => {
    const { input } = setup();
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    const list = document.getElementById(input.getAttribute('aria-controls')!)!;
    expect(list.getAttribute('role')).toBe('listbox');
    expect(list.hidden).toBe(true);
  });

  it('does not ask for 8 characters or fewer (trimmed), asks from 9', async () => {
    const { input, search } = setup();
    type(input, '12 Mains');
    await settle();
    type(input, '  12 Mains  ');
    await act(async () => void (await vi.advanceTimersByTimeAsync(5 * ADDRESS_DEBOUNCE_MS)));
    expect(search).not.toHaveBeenCalled();
    type(input, '12 Mainst');
    await settle();
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]![0]).toBe('12 Mainst');
  });

  it('asks once, 300 ms after the last keystroke, with the trimmed text', async () => {
    const { input, search } = setup();
    type(input, '12 Main St');
    await act(async () => void (await vi.advanceTimersByTimeAsync(ADDRESS_DEBOUNCE_MS - 1)));
    type(input, '12 Main St, Spr');
    await act(async () => void (await vi.advanceTimersByTimeAsync(ADDRESS_DEBOUNCE_MS - 1)));
    expect(search).not.toHaveBeenCalled();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]![0]).toBe('12 Main St, Spr');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      '12 Main St, Springfield, IL 62701, United States',
      '12 Main St, Springfield, MA 01101, United States',
    ]);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('2 addresses found: use the arrow keys to choose.');
  });

  it('is keyboard usable: arrows move the active option (wrapping), Enter chooses, and the parts reach onSelect', async () => {
    const { input, onSelect, onChange } = setup();
    type(input, '12 Main St, Spr');
    await settle();
    const options = screen.getAllByRole('option');
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    key(input, 'ArrowUp');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    key(input, 'Enter');
    expect(onSelect).toHaveBeenCalledWith({
      street: '12 Main St',
      city: 'Springfield',
      state: 'MA',
      zip: '01101',
      label: '12 Main St, Springfield, MA 01101, United States',
    });
    expect(input.value).toBe('12 Main St');
    expect(onChange).toHaveBeenLastCalledWith('12 Main St');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
  });

  it('Escape closes the list without choosing; a click chooses', async () => {
    const { input, onSelect, search } = setup();
    type(input, '12 Main St, Spr');
    await settle();
    key(input, 'ArrowDown');
    key(input, 'Escape');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    key(input, 'Enter');
    expect(onSelect).not.toHaveBeenCalled();
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getAllByRole('option')[0]!);
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ city: 'Springfield', state: 'IL', zip: '62701' }));
    // The street a choice put in the input is not searched for again.
    await act(async () => void (await vi.advanceTimersByTimeAsync(5 * ADDRESS_DEBOUNCE_MS)));
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('says when nothing is found, and aborts a search that a newer keystroke replaced', async () => {
    const { input, search } = setup([]);
    type(input, 'qwertyuiop asdf, Nowhere');
    await settle();
    expect(screen.queryAllByRole('option')).toEqual([]);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('No address found.');
    expect(screen.queryByTestId('address-note')).toBeNull();
    let pending: AbortSignal | undefined;
    search.mockImplementationOnce((_text, signal) => {
      pending = signal;
      return new Promise(() => undefined);
    });
    type(input, 'qwertyuiop asdfg, Nowhere');
    await settle();
    expect(pending?.aborted).toBe(false);
    type(input, 'qwertyuiop asdfgh, Nowhere');
    expect(pending?.aborted).toBe(true);
  });

  it('says under the field to add the city or ZIP code when a street alone finds nothing', async () => {
    const { input, search } = setup([]);
    type(input, '1600 Pennsylvania Ave');
    await settle();
    const note = screen.getByTestId('address-note');
    expect(note.textContent).toBe(ADD_CITY_OR_ZIP);
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    expect(screen.getByRole('status').textContent).toBe(`No address found. ${ADD_CITY_OR_ZIP}.`);
    // Typing on: the note goes until the next answer.
    type(input, '1600 Pennsylvania Ave, Washington');
    expect(screen.queryByTestId('address-note')).toBeNull();
    await settle();
    expect(screen.queryByTestId('address-note')).toBeNull();
    // With a ZIP code and still nothing: no note either; with suggestions found: none.
    type(input, '1600 Pennsylvania Ave 20500');
    await settle();
    expect(screen.queryByTestId('address-note')).toBeNull();
    search.mockResolvedValueOnce(found);
    type(input, '12 Main St Springfield');
    await settle();
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(screen.queryByTestId('address-note')).toBeNull();
  });
});
