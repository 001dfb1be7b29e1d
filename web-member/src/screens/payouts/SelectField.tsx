import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { FieldError, fieldDescription } from '@portal/shared/ui/components/FormField';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | null;
  id?: string;
  children: ReactNode;
}

/** A labelled select with its error under it, in the look of FormField. */
export function SelectField({ label, error, id, className, children, ...selectProps }: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? `select-${autoId}`;
  const { errorId, describedBy } = fieldDescription(selectId, undefined, error);
  return (
    <div className={error ? `field field--invalid ${className ?? ''}` : `field ${className ?? ''}`}>
      <label className="field__label" htmlFor={selectId}>
        {label}
      </label>
      <select
        {...selectProps}
        id={selectId}
        className="field__input field__select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        {children}
      </select>
      {error ? <FieldError id={errorId} message={error} /> : null}
    </div>
  );
}
