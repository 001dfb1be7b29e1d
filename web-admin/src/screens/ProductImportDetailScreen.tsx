import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ImportedProduct } from '@portal/shared/api/products';
import { formatCount, formatDate } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/AuthProvider';
import { ErrorBanner } from '@portal/shared/ui/ErrorBanner';
import { BanIcon, CheckIcon, ExternalLinkIcon } from '@portal/shared/ui/icons';
import { DetailFrame, ProductDetailView } from '@portal/shared/ui/ProductDetailView';
import { ProductLoadStatus, useProductById } from '@portal/shared/ui/useProductById';
import type { ImportScreenState } from './ProductImportScreen';

const BACK = '/product_import';

const STATUS: Record<ImportedProduct['status'], { label: string; tone: string }> = {
  review: { label: 'Waiting for review', tone: 'pill--info' },
  approved: { label: 'Approved', tone: 'pill--success' },
  banned: { label: 'Banned', tone: 'pill--danger' },
};

/**
 * '/admin/product_import_detail?id=<id>': an imported product as members would see it, with the
 * supplier's facts, and Approve or Ban (which asks first). Both go back to the review list; a
 * refusal (409 when someone else decided first) is said here, in words.
 */
export function ProductImportDetailScreen() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const { call } = useAuth();
  const load = useCallback(
    (productId: string, signal: AbortSignal) => call('getImportedProduct', { id: productId }, { signal }),
    [call],
  );
  const { result, retry } = useProductById(id, load);
  const ready = result.state === 'ready';
  let content;
  if (!ready) {
    content = (
      <ProductLoadStatus
        result={result}
        retry={retry}
        noIdMessage="No product was chosen. Pick one from the products waiting for review."
        missingTitle="This product cannot be shown."
      />
    );
  } else {
    const product = result.product;
    const status = STATUS[product.status];
    content = (
      <ProductDetailView
        product={product}
        before={
          <div className="detail-status">
            <span className={`pill ${status.tone}`} data-testid="product-status">
              {status.label}
            </span>
            {product.hasApprovedVersion ? (
              <span className="pill pill--warning">Update to an approved product</span>
            ) : null}
          </div>
        }
        after={
          <>
            <SupplierFacts product={product} />
            <Moderation product={product} />
          </>
        }
      />
    );
  }

  return (
    <DetailFrame backTo={BACK} title={ready ? undefined : 'Imported product'}>
      {content}
    </DetailFrame>
  );
}

function SupplierFacts({ product }: { product: ImportedProduct }) {
  return (
    <dl className="facts" aria-label="Supplier">
      <dt>Supplier page</dt>
      <dd>
        {product.url ? (
          <a href={product.url} target="_blank" rel="noopener noreferrer">
            Open on the supplier’s site
            <ExternalLinkIcon />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          '—'
        )}
      </dd>
      <dt>SPU number</dt>
      <dd data-testid="spu-no">{product.spu_no}</dd>
      <dt>Images</dt>
      <dd>{formatCount(product.images.length)}</dd>
      <dt>Last imported</dt>
      <dd>{formatDate(product.updatedAt)}</dd>
    </dl>
  );
}

function Moderation({ product }: { product: ImportedProduct }) {
  const { call } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'approve' | 'ban' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const confirmTitleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const banRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  if (product.status !== 'review') {
    return (
      <p className="notice" role="note">
        {product.status === 'approved'
          ? 'This product is approved: members see it in their catalogue.'
          : 'This product is banned: members never see it, and later imports leave it as it is.'}
      </p>
    );
  }

  const decide = async (action: 'approve' | 'ban') => {
    setBusy(action);
    setError(null);
    try {
      await call(action === 'approve' ? 'approveProduct' : 'banProduct', { id: product.id });
      const state: ImportScreenState = {
        notice:
          action === 'approve'
            ? `Approved “${product.product_name}”. Members can now see it.`
            : `Banned “${product.product_name}”. Members will not see it, and later imports leave it as it is.`,
      };
      navigate(BACK, { state });
    } catch (caught) {
      setBusy(null);
      setConfirming(false);
      setError(toApiError(caught).message);
    }
  };

  return (
    <section className="moderation" aria-label="Decision">
      {error ? (
        <ErrorBanner title="The decision was not saved" message={error} onDismiss={() => setError(null)} />
      ) : null}
      {product.hasApprovedVersion ? (
        <p className="notice">
          Members see the approved version of this product until you decide: approving replaces it with these values,
          banning removes it from the catalogue.
        </p>
      ) : null}
      {confirming ? (
        <div className="confirm" role="group" aria-labelledby={confirmTitleId}>
          <h2 className="confirm__title" id={confirmTitleId}>
            Ban this product?
          </h2>
          <p className="confirm__text">
            Members will never see “{product.product_name}”, and later imports of the same SPU leave it banned.
          </p>
          <div className="confirm__buttons">
            <button type="button" className="button button--danger" onClick={() => decide('ban')} disabled={!!busy}>
              <BanIcon className="button__icon" />
              {busy === 'ban' ? 'Banning…' : 'Yes, ban it'}
            </button>
            <button
              ref={cancelRef}
              type="button"
              className="button button--secondary"
              onClick={() => {
                setConfirming(false);
                // Back to the button that opened the question.
                setTimeout(() => banRef.current?.focus(), 0);
              }}
              disabled={!!busy}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="moderation__buttons">
          <button type="button" className="button button--primary" onClick={() => decide('approve')} disabled={!!busy}>
            <CheckIcon className="button__icon" />
            {busy === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button
            ref={banRef}
            type="button"
            className="button button--danger-outline"
            onClick={() => setConfirming(true)}
            disabled={!!busy}
          >
            <BanIcon className="button__icon" />
            Ban
          </button>
        </div>
      )}
    </section>
  );
}
