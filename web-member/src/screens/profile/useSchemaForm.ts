import { useRef, useState, type FormEvent } from 'react';
import type * as z from '@portal/shared/api/zod';
import { toApiError } from '@portal/shared/ui/hooks/AuthProvider';

/**
 * A form checked by the call's own request schema (the server checks it again): each field's first
 * message, shown once the field was left or the form sent; the server's refusal at the field it
 * names, anything else in a banner. `send` gets the values as typed (the server trims and parses).
 */
export function useSchemaForm<Field extends string>(
  schema: z.ZodMiniType,
  initial: Record<Field, string>,
  send: (values: Record<Field, string>) => Promise<void>,
  idPrefix: string,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const fields = Object.keys(initial) as Field[];

  const check = (next: Record<Field, string>): Partial<Record<Field, string>> => {
    const parsed = schema.safeParse(next);
    const found: Partial<Record<Field, string>> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = issue.path[0] as Field | undefined;
      if (field !== undefined && fields.includes(field) && !found[field]) found[field] = issue.message;
    }
    return found;
  };

  const change = (patch: Partial<Record<Field, string>>) => {
    const next = { ...values, ...patch };
    setValues(next);
    const fresh = check(next);
    setErrors((shown) => {
      const updated = { ...shown };
      for (const field of fields) if (touched.has(field) || shown[field]) updated[field] = fresh[field];
      return updated;
    });
  };

  const blur = (field: Field) => {
    setTouched((current) => new Set(current).add(field));
    if (values[field] === '' && !touched.has(field)) return;
    setErrors((shown) => ({ ...shown, [field]: check(values)[field] }));
  };

  const focus = (field: Field) => document.getElementById(`${idPrefix}-${field}`)?.focus();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    const found = check(values);
    setTouched(new Set(fields));
    setErrors(found);
    const first = fields.find((field) => found[field]);
    if (first) return focus(first);
    inFlight.current = true;
    setBusy(true);
    try {
      await send(values);
    } catch (error) {
      const apiError = toApiError(error);
      const named = fields.filter((field) => apiError.fields?.[field]);
      setErrors((shown) => ({
        ...shown,
        ...Object.fromEntries(named.map((field) => [field, apiError.fields![field]])),
      }));
      // An answer about a field is said once, at that field; the banner is for anything else.
      const saidAtField = named.some((field) => apiError.fields![field] === apiError.message);
      setFailure(saidAtField ? null : apiError.message);
      if (named[0]) focus(named[0]);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  /** The props of a text field: id, name, value, error and the handlers. */
  const field = (name: Field) => ({
    id: `${idPrefix}-${name}`,
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      change({ [name]: event.target.value } as Partial<Record<Field, string>>),
    onBlur: () => blur(name),
  });

  return {
    values,
    errors,
    failure,
    busy,
    change,
    blur,
    submit,
    field,
    setValues,
    dismissFailure: () => setFailure(null),
  };
}
