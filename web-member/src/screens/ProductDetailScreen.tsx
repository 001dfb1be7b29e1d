import { useSearchParams } from 'react-router-dom';
import { useApprovedProduct } from '@portal/shared/ui/hooks/catalogueQueries';
import { ProductLoadStatus } from '@portal/shared/ui/components/ProductLoadStatus';
import { productLoad } from '@portal/shared/ui/hooks/productLoad';
import { DetailFrame, ProductDetailView } from '@portal/shared/ui/components/ProductDetailView';
import { ShareLink } from './ShareLink';
import './share.css';

/**
 * '/member_product_detail?id=<id>': one approved product. The id lives in the address, so a
 * reload or a shared link opens the same product.
 */
export function ProductDetailScreen() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  // Opened from the list, the card's part of the product shows at once and the rest follows.
  const { result, retry } = productLoad(id, useApprovedProduct(id));
  const ready = result.state === 'ready';
  const content = ready ? (
    <ProductDetailView product={result.product} showYouMake pending={result.preview} />
  ) : (
    <ProductLoadStatus
      result={result}
      retry={retry}
      noIdMessage="No product was chosen. Pick one from the product list."
      missingTitle="This product is not available."
    />
  );

  return (
    <DetailFrame
      backTo="/"
      tools={ready ? <ShareLink productId={result.product.id} productName={result.product.product_name} /> : null}
      title={ready ? undefined : 'Product detail'}
    >
      {content}
    </DetailFrame>
  );
}
