import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ADDRESS_SEARCH_MIN_LENGTH, addressParts, type AddressParts, type AddressSuggestion } from '../../api/address';
import type { ApiClient } from '../../api/client';
import { FieldError, fieldDescription } from './FormField';

/** Waits this long after the last keystroke before asking for suggestions. */
export const ADDRESS_DEBOUNCE_MS = 300;

/** Asks for suggestions; `signal` aborts a request a newer keystroke made useless. */
export type SearchAddresses = (text: string, signal: AbortSignal) => Promise<AddressSuggestion[]>;

/** /api/searchAddress through the typed client. */
export const searchAddressesWith =
  (api: ApiClient, accessToken?: string | null): SearchAddresses =>
  async (text, signal) =>
    (await api('searchAddress', { text }, { signal, accessToken })).ResultItems;

export interface AddressAutocompleteProps {
  label: string;
  search: SearchAddresses;
  /** A suggestion was chosen: street (number + street), city, 2-letter state, ZIP and the whole label. */
  onSelect: (parts: AddressParts) => void;
  /** The text as typed (the street field's value for a form). */
  onChange?: (text: string) => void;
  /** The input leaves focus (a form checks the field then). */
  onBlur?: () => void;
  /** The text, when the form holds it (controlled); otherwise the component keeps it from `defaultValue`. */
  value?: string;
  defaultValue?: string;
  name?: string;
  id?: string;
  error?: string | null;
  hint?: string;
  autoComplete?: string;
  required?: boolean;
}

type Status = 'idle' | 'loading' | 'done' | 'failed';

export const ADD_CITY_OR_ZIP = 'Add the city or ZIP code to find the address';

/** A query with neither a ZIP code (5 digits) nor a comma before a city: a street alone. */
export const isStreetOnly = (query: string): boolean => !/\b\d{5}\b/.test(query) && !query.includes(',');

/**
 * A street address input with suggestions, after the WAI-ARIA combobox pattern (list
 * autocomplete): it asks only when the text is longer than 8 characters, 300 ms after the last
 * keystroke; ArrowDown/ArrowUp move through the suggestions, Enter chooses, Escape closes.
 * Choosing one puts its street in the input and hands every part to `onSelect`.
 */
export function AddressAutocomplete({
  label,
  search,
  onSelect,
  onChange,
  onBlur,
  value,
  defaultValue = '',
  name,
  id,
  error,
  hint,
  autoComplete = 'street-address',
  required,
}: AddressAutocompleteProps) {
  const autoId = useId();
  const inputId = id ?? `address-${autoId}`;
  const listId = `${inputId}-list`;
  const [ownText, setText] = useState(defaultValue);
  const text = value ?? ownText;
  const [items, setItems] = useState<AddressSuggestion[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  /** The query the current suggestions answer. */
  const [searched, setSearched] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The text a choice put in the input: not a query. */
  const chosen = useRef<string | null>(null);

  useEffect(() => {
    const query = text.trim();
    if (query.length < ADDRESS_SEARCH_MIN_LENGTH || chosen.current === text) {
      setItems([]);
      setStatus('idle');
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setStatus('loading');
      search(query, controller.signal).then(
        (found) => {
          if (controller.signal.aborted) return;
          setItems(found);
          setSearched(query);
          setActive(-1);
          setStatus('done');
          setOpen(true);
        },
        () => {
          if (controller.signal.aborted) return;
          setItems([]);
          setStatus('failed');
          setOpen(false);
        },
      );
    }, ADDRESS_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, search]);

  const choose = (item: AddressSuggestion) => {
    const parts = addressParts(item.Address);
    const street = parts.street || text;
    chosen.current = street;
    setText(street);
    setOpen(false);
    setActive(-1);
    onChange?.(street);
    onSelect(parts);
  };

  const expanded = open && items.length > 0;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        if (items.length === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((index) => (!expanded ? 0 : (index + 1) % items.length));
        break;
      case 'ArrowUp':
        if (items.length === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((index) => (!expanded || index <= 0 ? items.length - 1 : index - 1));
        break;
      case 'Enter': {
        const item = expanded ? items[active] : undefined;
        if (item) {
          event.preventDefault();
          choose(item);
        }
        break;
      }
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        }
        break;
    }
  };

  const { hintId, errorId, describedBy } = fieldDescription(inputId, hint, error);
  // A street alone that finds nothing: the search needs the city or the ZIP code too.
  const needsMore = status === 'done' && items.length === 0 && searched === text.trim() && isStreetOnly(searched);
  const noteId = `${inputId}-note`;
  const announcement =
    status === 'loading'
      ? 'Looking for addresses…'
      : status === 'failed'
        ? 'Address suggestions are not available; type the address.'
        : status === 'done'
          ? items.length === 0
            ? needsMore
              ? `No address found. ${ADD_CITY_OR_ZIP}.`
              : 'No address found.'
            : `${items.length} ${items.length === 1 ? 'address' : 'addresses'} found: use the arrow keys to choose.`
          : '';

  return (
    <div className={`field address-autocomplete${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        id={inputId}
        name={name}
        className="field__input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={needsMore ? [describedBy, noteId].filter(Boolean).join(' ') : describedBy}
        autoComplete={autoComplete}
        required={required}
        value={text}
        onChange={(event) => {
          chosen.current = null;
          setText(event.target.value);
          onChange?.(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onFocus={() => setOpen(items.length > 0)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label}: suggestions`}
        className="address-autocomplete__list"
        hidden={!expanded}
      >
        {items.map((item, index) => (
          <li
            key={item.PlaceId}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={
              index === active
                ? 'address-autocomplete__option address-autocomplete__option--active'
                : 'address-autocomplete__option'
            }
            // Keep the focus in the input: a mousedown would blur it and close the list first.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(item)}
          >
            {item.Address.Label}
          </li>
        ))}
      </ul>
      {needsMore ? (
        <p className="field__hint address-autocomplete__note" id={noteId} data-testid="address-note">
          {ADD_CITY_OR_ZIP}
        </p>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {error ? <FieldError id={errorId} message={error} /> : null}
    </div>
  );
}
