import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  INVALID_VERIFICATION_LINK,
  USED_VERIFICATION_LINK,
  VERIFICATION_TOKEN_PATTERN,
} from '@portal/shared/api/email';
import { toApiError, useAuth, useAuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import type { AuthStore } from '@portal/shared/ui/hooks/AuthProvider';

/**
 * 'used': the link was followed before, so the address is verified already. That is the truth to
 * show, not a failure: no "not verified" title or error banner over it.
 */
type Outcome = { kind: 'verified'; email: string } | { kind: 'used' } | { kind: 'failed'; message: string };

/**
 * One verification per token for the page's life: StrictMode runs effects twice, and a second
 * call with a used token would answer "already used" over the first one's success.
 */
const verifications = new Map<string, Promise<Outcome>>();

function verifyOnce(store: AuthStore, token: string): Promise<Outcome> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = store.callPublic('verifyEmail', { token }).then(
      async (answer): Promise<Outcome> => {
        // A logged-in member's profile now says verified: ask for it, after any check in flight
        // (which may have started before the verification).
        await store.settle();
        if (store.getState().status === 'authenticated') await store.checkAuth({ force: true });
        return { kind: 'verified', email: 'verified' in answer ? answer.email : '' };
      },
      (error: unknown): Outcome => {
        const apiError = toApiError(error);
        return apiError.status === 409 && apiError.message === USED_VERIFICATION_LINK
          ? { kind: 'used' }
          : { kind: 'failed', message: apiError.message };
      },
    );
    verifications.set(token, pending);
  }
  return pending;
}

/** '/verify_email?token=…': the link of the verification e-mail; works with or without a session. */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const valid = VERIFICATION_TOKEN_PATTERN.test(token);
  const store = useAuthStore();
  const { status } = useAuth();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!valid) return;
    let current = true;
    void verifyOnce(store, token).then((result) => {
      if (current) setOutcome(result);
    });
    return () => {
      current = false;
    };
  }, [store, token, valid]);

  const loggedIn = status === 'authenticated';
  const shown: Outcome | null = valid ? outcome : { kind: 'failed', message: INVALID_VERIFICATION_LINK };

  if (!shown) return <Loading label="Verifying your e-mail address…" />;
  if (shown.kind === 'failed') {
    return (
      <Page title="E-mail not verified">
        <ErrorBanner message={shown.message} title="We could not verify your e-mail address" />
        <p>
          {loggedIn ? (
            <Link to="/my_account/my_profile">Go to My Profile</Link>
          ) : (
            <Link to="/login">Log in to ask for a new link</Link>
          )}
        </p>
      </Page>
    );
  }
  return (
    <Page title={shown.kind === 'used' ? 'Your e-mail is already verified' : 'Your e-mail is verified'}>
      <p className="verify-done">
        <CheckIcon className="verify-done__icon" aria-hidden="true" />
        <span>
          {shown.kind === 'used'
            ? 'This link was used before: your e-mail address is verified already. Nothing more to do.'
            : shown.email
              ? `${shown.email} is verified. Thank you.`
              : 'Thank you.'}
        </span>
      </p>
      <p className="verify-done__links">
        {loggedIn ? (
          <Link className="button button--primary" to="/my_account/my_profile">
            Go to My Profile
          </Link>
        ) : (
          <Link className="button button--primary" to="/login">
            Log in
          </Link>
        )}{' '}
        <Link className="button button--secondary" to="/">
          Browse the catalogue
        </Link>
      </p>
    </Page>
  );
}
