import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import * as z from '../../api/zod';
import type { Credentials } from '../../api/schemas';
import { toApiError } from '../hooks/AuthProvider';
import { ErrorBanner } from './ErrorBanner';
import { FormField } from './FormField';
import { Page } from './Page';

type FieldName = 'email' | 'password';
type FieldErrors = Partial<Record<FieldName, string>>;

export interface AuthFormProps {
  title: string;
  description: string;
  submitLabel: string;
  /** The rules each field must meet: the same zod schemas the server validates with. */
  rules: Record<FieldName, z.ZodMiniType>;
  /** A rule over both fields (the password may not be the e-mail), checked once each field passes its own. */
  formRule?: z.ZodMiniType;
  passwordAutoComplete: 'current-password' | 'new-password';
  passwordHint?: string;
  /** Sends the credentials; rejects with an ApiError. */
  submit: (credentials: Credentials) => Promise<unknown>;
  /** Where to go on success. */
  successPath: string;
  footer: ReactNode;
}

/**
 * The first message a field's rule gives for a value, or undefined when it passes. The value is
 * checked under its field's name, so the message names the field ("The password is required.").
 */
export function fieldError(rule: z.ZodMiniType, value: string, field: string): string | undefined {
  const result = z.object({ [field]: rule }).safeParse({ [field]: value });
  return result.success ? undefined : (result.error.issues[0]?.message ?? `The ${field} is not valid.`);
}

/** The login and signup form: labelled fields, client checks, server errors told in words. */
export function AuthForm({
  title,
  description,
  submitLabel,
  rules,
  formRule,
  passwordAutoComplete,
  passwordHint,
  submit,
  successPath,
  footer,
}: AuthFormProps) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<FieldName, string>>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const validate = (next: Record<FieldName, string>): FieldErrors => {
    const found: FieldErrors = {
      email: fieldError(rules.email, next.email, 'email'),
      password: fieldError(rules.password, next.password, 'password'),
    };
    if (!formRule || found.email || found.password) return found;
    const result = formRule.safeParse(next);
    for (const issue of result.success ? [] : result.error.issues) {
      const field = issue.path[0];
      if ((field === 'email' || field === 'password') && !found[field]) found[field] = issue.message;
    }
    return found;
  };

  const onChange = (name: FieldName, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // Once a field shows an error (or the form was submitted), re-check it as the person types.
    if (submitted || errors[name]) setErrors((current) => ({ ...current, [name]: validate(next)[name] }));
  };

  const onBlur = (name: FieldName) => {
    if (values[name] === '' && !submitted) return;
    setErrors((current) => ({ ...current, [name]: validate(values)[name] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    setServerError(null);
    const found = validate(values);
    setErrors(found);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    setSubmitting(true);
    try {
      await submit({ email: values.email, password: values.password });
    } catch (error) {
      const apiError = toApiError(error);
      setSubmitting(false);
      const fields = apiError.fields ?? {};
      setErrors({ email: fields.email, password: fields.password });
      // An answer about a field is said once, at that field; the banner is for anything else.
      const saidAtField = apiError.message === fields.email || apiError.message === fields.password;
      setServerError(saidAtField ? null : apiError.message);
      if (fields.email) emailRef.current?.focus();
      else if (fields.password) passwordRef.current?.focus();
      return;
    }
    navigate(successPath, { replace: true });
  };

  return (
    <Page title={title}>
      <div className="auth-layout">
        <div className="card auth-card">
          <p className="auth-card__lead">{description}</p>
          {serverError ? <ErrorBanner message={serverError} /> : null}
          <form className="form" noValidate onSubmit={onSubmit} aria-busy={submitting}>
            <FormField
              ref={emailRef}
              label="Email"
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={values.email}
              error={errors.email}
              onChange={(event) => onChange('email', event.target.value)}
              onBlur={() => onBlur('email')}
            />
            <FormField
              ref={passwordRef}
              label="Password"
              name="password"
              type="password"
              autoComplete={passwordAutoComplete}
              required
              hint={passwordHint}
              value={values.password}
              error={errors.password}
              onChange={(event) => onChange('password', event.target.value)}
              onBlur={() => onBlur('password')}
            />
            <button type="submit" className="button button--primary button--block" disabled={submitting}>
              {submitting ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
              {submitLabel}
            </button>
          </form>
          <div className="auth-card__footer">{footer}</div>
        </div>
      </div>
    </Page>
  );
}

export function AuthSwitchLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="link" to={to}>
      {children}
    </Link>
  );
}
