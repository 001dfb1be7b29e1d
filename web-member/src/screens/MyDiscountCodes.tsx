import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { copyText } from '@portal/shared/ui/components/ShareButton';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { Loading } from '@portal/shared/ui/components/Loading';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import './discountCodes.css';

const dateOf = (seconds: number | null) =>
  seconds === null ? null : new Date(seconds * 1000).toISOString().slice(0, 10);

/** My Account's "Discount codes": the member's own codes, each with its state in words and a Copy button (issue 39). */
export function MyDiscountCodes() {
  const { call } = useAuth();
  const codes = useQuery({
    queryKey: ['myDiscountCodes'],
    queryFn: ({ signal }) => call('getMyDiscountCodes', {}, { signal }),
  });
  const [copied, setCopied] = useState<{ code: string; outcome: 'copied' | 'failed' } | null>(null);

  if (codes.isPending) return <Loading label="Loading your codes…" block={false} />;
  if (codes.isError) {
    return (
      <ErrorBanner
        title="Your codes could not be loaded"
        message={codes.error.message}
        onRetry={() => void codes.refetch()}
        retrying={codes.isFetching}
      />
    );
  }
  if (codes.data.items.length === 0) {
    return (
      <p className="account-codes__empty">
        You have no discount code yet. The shop can make one for you, for places where links are not clickable (a video,
        a poster, a podcast): customers type it at checkout, pay less, and the sale is yours.
      </p>
    );
  }
  return (
    <ul className="account-codes" aria-label="Your discount codes">
      {codes.data.items.map((code) => {
        const ends = dateOf(code.expiresAt);
        return (
          <li key={code.code} className="card account-codes__item">
            <p className="account-codes__code">
              <strong>{code.code}</strong> · {code.discount}
            </p>
            <p className="account-codes__state">
              {code.statusWords}
              {ends && code.status === 'active' ? ` Ends after ${ends}.` : ''}
              {code.maxRedemptions !== null && code.status === 'active'
                ? ` Used ${code.redeemed} of ${code.maxRedemptions} times.`
                : ''}
            </p>
            {code.status === 'active' ? (
              <button
                type="button"
                className="button button--small"
                onClick={() => void copyText(code.code).then((outcome) => setCopied({ code: code.code, outcome }))}
              >
                Copy {code.code}
              </button>
            ) : null}
            <p className="account-codes__copied" aria-live="polite">
              {copied?.code === code.code
                ? copied.outcome === 'copied'
                  ? `${code.code} is copied: paste it where you share.`
                  : `Copying did not work here: select ${code.code} and copy it yourself.`
                : ''}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
