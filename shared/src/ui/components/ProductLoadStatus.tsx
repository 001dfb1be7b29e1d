import type { ReactNode } from 'react';
import type { ProductLoad } from '../hooks/productLoad';
import { EmptyState } from './EmptyState';
import { ErrorBanner } from './ErrorBanner';
import { BoxIcon } from './icons';
import { Loading } from './Loading';

/** What a detail screen shows until its product is ready. */
export function ProductLoadStatus({
  result,
  retry,
  noIdMessage,
  missingTitle,
}: {
  result: Exclude<ProductLoad<unknown>, { state: 'ready' }>;
  retry: () => void;
  noIdMessage: string;
  missingTitle: string;
}): ReactNode {
  if (result.state === 'loading') return <Loading label="Loading the product…" />;
  if (result.state === 'error') {
    return <ErrorBanner title="The product could not be loaded" message={result.message} onRetry={retry} />;
  }
  return (
    <EmptyState icon={<BoxIcon />} title={missingTitle}>
      <p>{result.state === 'no-id' ? noIdMessage : result.message}</p>
    </EmptyState>
  );
}
