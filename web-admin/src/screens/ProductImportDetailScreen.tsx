import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ImportedProduct, ProductChange } from '@portal/shared/api/products';
import { formatCount, formatDate } from '@portal/shared/domain/format';
import { toApiError } from '@portal/shared/ui/hooks/AuthProvider';
import {
  useImportedProduct,
  useModerateProduct,
  type ModerationAction,
} from '@portal/shared/ui/hooks/catalogueQueries';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { BanIcon, CheckIcon, ExternalLinkIcon } from '@portal/shared/ui/components/icons';
import { DetailFrame, PendingText, ProductDetailView } from '@portal/shared/ui/components/ProductDetailView';
import { ProductLoadStatus } from '@portal/shared/ui/components/ProductLoadStatus';
import { productLoad } from '@portal/shared/ui/hooks/productLoad';
import { SafeHtml } from '@portal/shared/ui/components/SafeHtml';
import { PRODUCT_IMPORT_PATH as BACK, type ImportScreenState } from '../import/routes';
import '@portal/shared/ui/styles/imports.css';

const STATUS: Record<ImportedProduct['status'], { label: string; tone: string }> = {
  review: { label: 'Waiting for review', tone: 'pill--info' },
  approved: { label: 'Approved', tone: 'pill--success' },
  banned: { label: 'Banned', tone: 'pill--danger' },
  withdrawn: { label: 'Withdrawn from members', tone: 'pill--warning' },
};

/**
 * '/admin/product_import_detail?id=<id>': an imported product as members would see it, with the
 * supplier's facts, and Approve or Ban (which asks first). Both go back to the review list; a
 * refusal (409 when someone else decided first) is said here, in words.
 */
export function ProductImportDetailScreen() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  // Opened from the review list, the card's part of the product shows at once and the rest follows.
  const { result, retry } = productLoad(id, useImportedProduct(id));
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
    const { product, preview } = result;
    const status = STATUS[product.status];
    content = (
      <ProductDetailView
        product={product}
        pending={preview}
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
            {product.changes && product.changes.length > 0 ? <WhatChanged changes={product.changes} /> : null}
            <SupplierFacts product={product} pending={preview} />
            <Moderation product={product} pending={preview} />
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

const CHANGE_LABEL: Record<ProductChange['field'], string> = {
  product_name: 'Name',
  brand: 'Brand',
  msrp_us: 'MSRP',
  dropshipping_price_us: 'Sell price',
  images: 'Images',
  html_description: 'Description',
  url: 'Supplier page',
};

/** The approved value members see now, and the imported one that approving would show them. */
function WhatChanged({ changes }: { changes: readonly ProductChange[] }) {
  const titleId = useId();
  return (
    <section className="changes" aria-labelledby={titleId} data-testid="what-changed">
      <h2 className="product-detail__section-title" id={titleId}>
        What changed
      </h2>
      <p className="changes__intro">Members see the approved values until you decide.</p>
      <dl className="changes__list">
        {changes.map((change) => (
          <div className="changes__item" key={change.field} data-testid={`change-${change.field}`}>
            <dt>{CHANGE_LABEL[change.field]}</dt>
            <dd>
              <ChangeValues change={change} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ChangeValues({ change }: { change: ProductChange }) {
  if (change.field === 'images') {
    const moved = change.added.length === 0 && change.removed.length === 0;
    return (
      <>
        <p className="changes__summary">
          {moved
            ? 'The same images, in a new order.'
            : [
                change.added.length ? `${change.added.length} added` : null,
                change.removed.length ? `${change.removed.length} removed` : null,
              ]
                .filter(Boolean)
                .join(', ') + ` (${change.before.length} before, ${change.after.length} now).`}
        </p>
        <ImageList label="Added" images={change.added} tone="after" />
        <ImageList label="Removed" images={change.removed} tone="before" />
      </>
    );
  }
  if (change.field === 'html_description') {
    return (
      <div className="changes__descriptions">
        <div className="changes__version changes__version--before">
          <p className="changes__version-label">Approved</p>
          <SafeHtml html={change.before} emptyText="No description." />
        </div>
        <div className="changes__version changes__version--after">
          <p className="changes__version-label">Imported</p>
          <SafeHtml html={change.after} emptyText="No description." />
        </div>
      </div>
    );
  }
  const shown = (value: string) =>
    value === ''
      ? '(none)'
      : change.field === 'msrp_us' || change.field === 'dropshipping_price_us'
        ? `$${value}`
        : value;
  return (
    <p className="changes__values">
      <span className="changes__before">
        <span className="visually-hidden">Approved: </span>
        <del>{shown(change.before)}</del>
      </span>
      <span className="changes__arrow" aria-hidden="true">
        →
      </span>
      <span className="changes__after">
        <span className="visually-hidden">Imported: </span>
        <ins>{shown(change.after)}</ins>
      </span>
    </p>
  );
}

function ImageList({ label, images, tone }: { label: string; images: readonly string[]; tone: 'before' | 'after' }) {
  if (images.length === 0) return null;
  return (
    <div className={`changes__images changes__images--${tone}`}>
      <p className="changes__version-label">{label}</p>
      <ul aria-label={`${label} images`}>
        {images.map((image, index) => (
          <li key={image}>
            <a href={image} target="_blank" rel="noopener noreferrer">
              <img src={image} alt={`${label} image ${index + 1}`} loading="lazy" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** While `pending`, the supplier's page and the image count are not known yet. */
function SupplierFacts({ product, pending }: { product: ImportedProduct; pending: boolean }) {
  return (
    <dl className="facts" aria-label="Supplier">
      <dt>Supplier page</dt>
      <dd>
        {pending ? (
          <PendingText label="Loading the supplier’s page…" inline />
        ) : product.url ? (
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
      <dd>{pending ? <PendingText label="Loading the images…" inline /> : formatCount(product.images.length)}</dd>
      <dt>Last imported</dt>
      <dd>{formatDate(product.updatedAt)}</dd>
    </dl>
  );
}

/** Approve and Ban; while the product is `pending` (only its card is known), they wait, disabled. */
function Moderation({ product, pending }: { product: ImportedProduct; pending: boolean }) {
  const navigate = useNavigate();
  const moderate = useModerateProduct();
  const busy: ModerationAction | null = moderate.isPending ? (moderate.variables?.action ?? null) : null;
  const error = moderate.error ? toApiError(moderate.error).message : null;
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
          ? 'This product is approved: members see it in their catalogue. Withdraw it from the Catalogue screen.'
          : product.status === 'withdrawn'
            ? 'This product was withdrawn: members no longer see it, and its share links say so. Put it back into review from the Catalogue screen.'
            : 'This product is banned: members never see it, and later imports leave it as it is. Put it back into review from the Catalogue screen.'}
      </p>
    );
  }

  // The review list is refreshed by the mutation (catalogueQueries.tsx); this screen says what happened.
  const decide = (action: ModerationAction) => {
    // Approve names the version on screen: if an import changed the product since, the answer is a
    // 409, the product is loaded again and the new values show with the server's words.
    moderate.mutate(
      action === 'approve' ? { action, id: product.id, version: product.version } : { action, id: product.id },
      {
        onSuccess: (result) => {
          const state: ImportScreenState = {
            notice:
              action === 'approve'
                ? `Approved “${product.product_name}”. Members can now see it.`
                : `Banned “${product.product_name}”. Members will not see it, and later imports leave it as it is.`,
            ...(action === 'ban' && result.openCheckouts
              ? { cancels: { productId: product.id, started: result.openCheckouts } }
              : {}),
          };
          navigate(BACK, { state });
        },
        onError: () => setConfirming(false),
      },
    );
  };

  return (
    <section className="moderation" aria-label="Decision">
      {error ? (
        <ErrorBanner title="The decision was not saved" message={error} onDismiss={() => moderate.reset()} />
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
          <button
            type="button"
            className="button button--primary"
            onClick={() => decide('approve')}
            disabled={!!busy || pending}
          >
            <CheckIcon className="button__icon" />
            {busy === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button
            ref={banRef}
            type="button"
            className="button button--danger-outline"
            onClick={() => setConfirming(true)}
            disabled={!!busy || pending}
          >
            <BanIcon className="button__icon" />
            Ban
          </button>
        </div>
      )}
    </section>
  );
}
