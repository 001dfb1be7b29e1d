import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '@portal/shared/ui/AuthProvider';
import { ProductLoadStatus, useProductById } from '@portal/shared/ui/useProductById';
import { DetailFrame, ProductDetailView } from '@portal/shared/ui/ProductDetailView';
import { ShareButton } from '@portal/shared/ui/ShareButton';

/**
 * '/member_product_detail?id=<id>': one approved product. The id lives in the address, so a
 * reload or a shared link opens the same product.
 */
export function ProductDetailScreen() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const { call } = useAuth();
  const load = useCallback(
    (productId: string, signal: AbortSignal) => call('getApprovedProduct', { id: productId }, { signal }),
    [call],
  );
  const { result, retry } = useProductById(id, load);
  const ready = result.state === 'ready';
  const content = ready ? (
    <ProductDetailView product={result.product} showYouMake />
  ) : (
    <ProductLoadStatus
      result={result}
      retry={retry}
      noIdMessage="No product was chosen. Pick one from the product list."
      missingTitle="This product is not available."
    />
  );

  return (
    <DetailFrame backTo="/" tools={ready ? <ShareButton /> : null} title={ready ? undefined : 'Product detail'}>
      {content}
    </DetailFrame>
  );
}
