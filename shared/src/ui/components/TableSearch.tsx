import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { FieldError, fieldDescription } from './FormField';
import '../styles/dataTable.css';

/** One way to search a list ('Order number'), named by the request field it fills (`orderNumber`). */
export interface SearchField {
  id: string;
  label: string;
  /** What to type, under the field ('As on the receipt, like RP-7F3K9Q2M'). */
  hint: string;
  type?: 'text' | 'email';
}

/** A search as the screen asks the server for it: the field and its text (none: empty), and a status ('' for any). */
export interface SearchValue {
  by: string;
  text: string;
  status: string;
}

export const emptySearch = (by: string): SearchValue => ({ by, text: '', status: '' });

export const isSearching = (value: SearchValue): boolean => value.text.trim() !== '' || value.status !== '';

export interface TableSearchProps {
  /** The form's name ('Search orders'). */
  label: string;
  fields: readonly SearchField[];
  statuses: readonly { value: string; label: string }[];
  /** The search the list shows now. */
  value: SearchValue;
  onSearch: (value: SearchValue) => void;
  /** The server's words about a field of the search, by request field name (`orderNumber`, `status`). */
  fieldErrors?: Readonly<Record<string, string>>;
}

/**
 * The search above a paged list: what to search by (order number, member, product…), the text, and
 * a status, sent when the person presses Search (or Enter); Clear goes back to the whole list.
 * The server searches (the list is paged there); its refusal of a field shows under that field.
 */
export function TableSearch({ label, fields, statuses, value, onSearch, fieldErrors }: TableSearchProps) {
  const id = useId();
  // What the person is typing; `value` changes only through this form (Search, Clear).
  const [draft, setDraft] = useState<SearchValue>(value);
  const field = fields.find((candidate) => candidate.id === draft.by) ?? fields[0];
  const textId = `${id}-text`;
  const textError = field ? fieldErrors?.[field.id] : undefined;
  const statusError = fieldErrors?.status;
  const { hintId, errorId, describedBy } = fieldDescription(textId, field?.hint, textError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ ...draft, text: draft.text.trim() });
  };
  const clear = () => {
    const cleared = emptySearch(draft.by);
    setDraft(cleared);
    onSearch(cleared);
  };

  return (
    <form className="table-search card" role="search" aria-label={label} onSubmit={submit} noValidate>
      {fields.length > 1 ? (
        <div className="field table-search__by">
          <label className="field__label" htmlFor={`${id}-by`}>
            Search by
          </label>
          <select
            id={`${id}-by`}
            className="field__input"
            value={draft.by}
            onChange={(event) => setDraft({ ...draft, by: event.target.value, text: '' })}
          >
            {fields.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {field ? (
        <div className={textError ? 'field field--invalid table-search__text' : 'field table-search__text'}>
          <label className="field__label" htmlFor={textId}>
            {field.label}
          </label>
          <p className="field__hint" id={hintId}>
            {field.hint}
          </p>
          <input
            id={textId}
            className="field__input"
            type={field.type === 'email' ? 'email' : 'search'}
            autoComplete="off"
            value={draft.text}
            onChange={(event) => setDraft({ ...draft, text: event.target.value })}
            aria-invalid={textError ? true : undefined}
            aria-describedby={describedBy}
          />
          {textError ? <FieldError id={errorId} message={textError} /> : null}
        </div>
      ) : null}
      <div className={statusError ? 'field field--invalid table-search__status' : 'field table-search__status'}>
        <label className="field__label" htmlFor={`${id}-status`}>
          Status
        </label>
        <select
          id={`${id}-status`}
          className="field__input"
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value })}
          aria-invalid={statusError ? true : undefined}
          aria-describedby={statusError ? `${id}-status-error` : undefined}
        >
          <option value="">Any status</option>
          {statuses.map((status) => (
            <option key={status.value} value={status.value}>
              {status.label}
            </option>
          ))}
        </select>
        {statusError ? <FieldError id={`${id}-status-error`} message={statusError} /> : null}
      </div>
      <div className="table-search__actions">
        <button type="submit" className="button button--primary">
          Search
        </button>
        {isSearching(value) || isSearching(draft) ? (
          <button type="button" className="button button--secondary" onClick={clear}>
            Clear
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * A paged list searched on the server: the search above it and, under it, the list (`children`);
 * while the server refuses the search (`refused`: its words by field, each shown at its field), a
 * line in the list's place says so instead.
 */
export function SearchedList({
  noun,
  refused,
  children,
  ...search
}: Omit<TableSearchProps, 'fieldErrors'> & {
  /** What the list holds, in the plural ('orders'). */
  noun: string;
  refused: Readonly<Record<string, string>> | null;
  children: ReactNode;
}) {
  return (
    <>
      <TableSearch {...search} fieldErrors={refused ?? undefined} />
      {refused ? (
        <p className="table-search__refused" role="status">
          No {noun} are shown: correct the search above.
        </p>
      ) : (
        children
      )}
    </>
  );
}
