import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '@portal/shared/api/client';
import type { ProductDetail } from '@portal/shared/api/products';
import { toApiError, useAuth } from '@portal/shared/ui/AuthProvider';
import { EmptyState } from '@portal/shared/ui/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/ErrorBanner';
import { BoxIcon } from '@portal/shared/ui/icons';
import { Loading } from '@portal/shared/ui/Loading';
import { DetailFrame, ProductDetailView } from '@portal/shared/ui/ProductDetailView';
import { ShareButton } from '@portal/shared/ui/ShareButton';

type Loaded =
  | { id: string; state: 'ready'; product: ProductDetail }
  | { id: string; state: 'missing'; message: string }
  | { id: string; state: 'error'; message: string };

/**
 * '/member_product_detail?id=<id>': one approved product. The id lives in the address, so a
 * reload or a shared link opens the same product.
 */
export function ProductDetailScreen() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const { call } = useAuth();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    call('getApprovedProduct', { id }, { signal: controller.signal }).then(
      (product) => {
        if (!controller.signal.aborted) setLoaded({ id, state: 'ready', product });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        const missing = error instanceof ApiError && error.status === 404;
        setLoaded({ id, state: missing ? 'missing' : 'error', message: apiError.message });
      },
    );
    return () => controller.abort();
  }, [call, id, attempt]);

  const current = loaded?.id === id ? loaded : null;
  let content;
  if (!id) {
    content = <Missing message="No product was chosen. Pick one from the product list." />;
  } else if (!current) {
    content = <Loading label="Loading the product…" />;
  } else if (current.state === 'missing') {
    content = <Missing message={current.message} />;
  } else if (current.state === 'error') {
    content = (
      <ErrorBanner
        title="The product could not be loaded"
        message={current.message}
        onRetry={() => {
          setLoaded(null);
          setAttempt((value) => value + 1);
        }}
      />
    );
  } else {
    content = <ProductDetailView product={current.product} showYouMake />;
  }

  return (
    <DetailFrame
      backTo="/"
      tools={current?.state === 'ready' ? <ShareButton /> : null}
      title={current?.state === 'ready' ? undefined : 'Product detail'}
    >
      {content}
    </DetailFrame>
  );
}

function Missing({ message }: { message: string }) {
  return (
    <EmptyState icon={<BoxIcon />} title="This product is not available.">
      <p>{message}</p>
    </EmptyState>
  );
}
