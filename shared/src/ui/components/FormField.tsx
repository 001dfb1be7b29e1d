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
  const { hintId, errorId, describedBy } = fieldDescription(inputId, hint, error);
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
      {error ? <FieldError id={errorId} message={error} /> : null}
    </div>
  );
}

/** The ids of a field's hint and error, and the input's aria-describedby naming those shown. */
export function fieldDescription(inputId: string, hint?: string, error?: string | null) {
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { hintId, errorId, describedBy };
}

/** A field's error message, with its icon; `id` ties it to the input (aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p className="field__error" id={id}>
      <AlertIcon className="field__error-icon" />
      <span>{message}</span>
    </p>
  );
}
