import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { AlertIcon } from './icons';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The message shown under the field and announced with it (aria-describedby). */
  error?: string | null;
  /** A short help text under the label. */
  hint?: string;
  id?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with an optional hint and an error message tied to it. */
export function FormField({ label, error, hint, id, ref, className, ...inputProps }: FormFieldProps) {
  const autoId = useId();
  const inputId = id ?? `field-${autoId}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        {...inputProps}
        ref={ref}
        id={inputId}
        className={className ? `field__input ${className}` : 'field__input'}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {error ? (
        <p className="field__error" id={errorId}>
          <AlertIcon className="field__error-icon" />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}
