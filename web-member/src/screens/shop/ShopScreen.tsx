import { queryOptions, useQuery } from '@tanstack/react-query';
import { Suspense, useState, type ComponentProps, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '@portal/shared/api/client';
import { formatMoney } from '@portal/shared/domain/format';
import { useAuth, type AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { Carousel } from '@portal/shared/ui/components/Carousel';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { BoxIcon, CheckIcon } from '@portal/shared/ui/components/icons';
import { LoadBoundary } from '@portal/shared/ui/components/LoadBoundary';
import { Loading } from '@portal/shared/ui/components/Loading';
import { MainPictureFirst, useAfterMainPicture } from '@portal/shared/ui/components/MainPicture';
import { PRODUCT_NAME, useDocumentTitle } from '@portal/shared/ui/components/Page';
import { DescriptionSection, ProductTitle } from '@portal/shared/ui/components/ProductParts';
import { lazyWithPreload } from '@portal/shared/ui/hooks/preload';
import { SafeHtml } from '@portal/shared/ui/components/SafeHtml';
import type { Receipt } from './CheckoutForm';
import '@portal/shared/ui/styles/catalogue.css';
import './shop.css';
import { sharedProductQuery } from './sharedProductQuery';

/**
 * The Buy form (its fields, the payment config it asks for, its styles): a chunk of its own, asked
 * for once the product's first picture has been painted (MainPicture.tsx), so the picture, the
 * page's largest paint, has the connection to itself (issue 16).
 */
const CheckoutForm = lazyWithPreload(() => import('./CheckoutForm').then((module) => module.CheckoutForm));

/**
 * After paying, the page's address carries the payment's id (`?ref=…&paid=pi_…`): a reload, or
 * the back button, reads the order back from the server (confirmCheckout answers the same order
 * for the same payment, every time) and shows the thank-you again, never an empty Buy form that
 * invites a second purchase.
 */
export const PAID_PARAM = 'paid';

const paidOrderQuery = (callPublic: AuthStore['callPublic'], paymentIntentId: string) =>
  queryOptions({
    queryKey: ['paidOrder', paymentIntentId],
    queryFn: async (): Promise<Receipt> => {
      const order = await callPublic('confirmCheckout', { paymentIntentId });
      return { ...order, recorded: true, totalCents: Math.round(order.totalPayed * 100), paymentIntentId };
    },
    staleTime: Infinity,
    retry: (count, error) =>
      !(error instanceof ApiError && error.status !== undefined && error.status < 500) && count < 2,
  });

/**
 * The share page's visit (countVisit): asked once per page and link, never again on a re-render; a
 * failure is nobody's concern on this page (the checkout goes on without a visit id). A share code the
 * server would refuse is left out (the contract's pattern, without its schemas in this first chunk).
 */
const visitQuery = (callPublic: AuthStore['callPublic'], productId: string, shareCode: string | null) =>
  queryOptions({
    queryKey: ['visit', productId, shareCode],
    queryFn: () =>
      callPublic('countVisit', {
        id: productId,
        ...(shareCode && /^[A-Za-z0-9_-]{1,64}$/.test(shareCode.trim()) ? { ref: shareCode.trim() } : {}),
      }),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

/**
 * '/shop/:productId?ref=CODE': the customer's page a member's share link opens. Public, no menu:
 * the product (images, name, brand, price, description) and the Buy form; a product that is gone
 * (banned, unknown) says it is no longer available; after paying, a thank-you with the order number.
 */
export function ShopScreen() {
  const { productId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const shareCode = params.get('ref');
  const paidId = params.get(PAID_PARAM);
  const { callPublic } = useAuth();
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const product = useQuery(sharedProductQuery(callPublic, productId, shareCode));
  // The visit, counted once the product is there (link statistics, issue 39); its id goes with the checkout.
  const visit = useQuery({ ...visitQuery(callPublic, productId, shareCode), enabled: product.isSuccess && !paidId });
  // Only when the page opens with a paid payment in its address (a reload): a fresh payment's
  // receipt is at hand already.
  const paidOrder = useQuery({ ...paidOrderQuery(callPublic, paidId ?? ''), enabled: Boolean(paidId) && !receipt });

  const onPaid = (paid: Receipt) => {
    setReceipt(paid);
    const id = paid.paymentIntentId;
    if (id) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(PAID_PARAM, id);
          return next;
        },
        { replace: true },
      );
    }
  };

  let content;
  if (receipt) {
    content = <ThankYou receipt={receipt} name={product.data?.product.product_name ?? ''} />;
  } else if (paidId && paidOrder.data) {
    content = <ThankYou receipt={paidOrder.data} name={product.data?.product.product_name ?? ''} />;
  } else if (paidId && paidOrder.isError) {
    content = <PaidOrderUnknown message={paidOrder.error.message} onRetry={() => void paidOrder.refetch()} />;
  } else if (paidId) {
    content = <Loading label="Loading your order…" />;
  } else if (product.isPending) {
    content = <Loading label="Loading the product…" />;
  } else if (product.isError) {
    const gone = product.error instanceof ApiError && (product.error.status === 404 || product.error.status === 400);
    content = gone ? (
      <NoLongerAvailable withdrawn={/withdrawn/i.test(product.error.message)} />
    ) : (
      <ErrorBanner
        title="The product could not be loaded"
        titleAs="h1"
        message={product.error.message}
        onRetry={() => void product.refetch()}
        retrying={product.isFetching}
      />
    );
  } else {
    const { product: item, unitAmountCents, recommendedBy } = product.data;
    content = (
      <MainPictureFirst>
        <div className="shop-layout">
          <article className="shop-product" aria-labelledby="product-name">
            <div className="shop-product__media">
              <Carousel key={item.id} images={item.images} pictures={item.pictures} name={item.product_name} />
            </div>
            <div className="shop-product__info">
              <ProductTitle brand={item.brand} name={item.product_name} />
              {recommendedBy ? (
                <p className="shop-product__recommended" data-testid="shop-recommended">
                  Recommended by <strong>{recommendedBy}</strong>
                </p>
              ) : null}
              <p className="shop-product__price" data-testid="shop-price">
                {formatMoney(unitAmountCents)}
              </p>
              <DescriptionSection>
                <SafeHtml html={item.html_description} emptyText="No description." />
              </DescriptionSection>
            </div>
          </article>
          <Checkout
            productId={item.id}
            unitAmountCents={unitAmountCents}
            shareCode={shareCode}
            visitId={visit.data?.visitId ?? null}
            onPaid={onPaid}
          />
        </div>
      </MainPictureFirst>
    );
  }

  return (
    <div className="shop">
      <header className="shop__header">
        <span className="shop__brand">{PRODUCT_NAME}</span>
        <span className="shop__secure">Secure checkout</span>
      </header>
      <main id="main" className="shop__main" tabIndex={-1}>
        <ShopTitle title={product.data?.product.product_name} />
        {content}
      </main>
    </div>
  );
}

/**
 * The Buy form once the first picture has been painted; until then, and while its code loads, its
 * card says it is coming; if its code cannot be loaded, the card says so, with Retry.
 */
function Checkout(props: ComponentProps<typeof CheckoutForm>) {
  const card = (content: ReactNode) => (
    <section className="card shop-form" aria-label="Buy">
      {content}
    </section>
  );
  const pending = card(<Loading label="Loading the checkout…" />);
  if (!useAfterMainPicture()) return pending;
  return (
    <LoadBoundary title="The checkout could not be loaded" retry={CheckoutForm.preload} wrap={card}>
      <Suspense fallback={pending}>
        <CheckoutForm {...props} />
      </Suspense>
    </LoadBoundary>
  );
}

function ShopTitle({ title }: { title: string | undefined }) {
  useDocumentTitle(title ?? 'Shop');
  return null;
}

/** A banned or unknown product, or (the server says so) one withdrawn from sale: nothing to buy. */
function NoLongerAvailable({ withdrawn }: { withdrawn: boolean }) {
  useDocumentTitle('No longer available');
  return (
    <div className="shop-message">
      <h1 className="visually-hidden">No longer available</h1>
      <EmptyState
        icon={<BoxIcon />}
        title={withdrawn ? 'This product has been withdrawn from sale.' : 'This product is no longer available.'}
      >
        <p>
          {withdrawn
            ? 'It can no longer be bought. Ask the person who shared it with you for another link.'
            : 'It may have been sold out or withdrawn. Ask the person who shared it with you for another link.'}
        </p>
      </EmptyState>
    </div>
  );
}

/**
 * The address names a payment whose order cannot be read (a payment not made, or the server not
 * answering): said in words, with Retry; no Buy form under it.
 */
function PaidOrderUnknown({ message, onRetry }: { message: string; onRetry: () => void }) {
  useDocumentTitle('Your order');
  return (
    <ErrorBanner title="We could not load your order's confirmation" titleAs="h1" message={message} onRetry={onRetry} />
  );
}

function ThankYou({ receipt, name }: { receipt: Receipt; name: string }) {
  useDocumentTitle('Thank you');
  return (
    <section className="card shop-thanks" aria-labelledby="thanks-title" data-testid="thank-you">
      <CheckIcon className="shop-thanks__icon" aria-hidden="true" />
      <h1 className="shop-thanks__title" id="thanks-title">
        Thank you for your order!
      </h1>
      {receipt.recorded ? (
        <p className="shop-thanks__order">
          Order number <strong data-testid="order-number">{receipt.orderID}</strong>
        </p>
      ) : (
        <p>Your payment went through and your order is being recorded.</p>
      )}
      <dl className="shop-thanks__facts">
        {name ? (
          <div>
            <dt>Product</dt>
            <dd>{name}</dd>
          </div>
        ) : null}
        <div>
          <dt>Quantity</dt>
          <dd>{receipt.qty}</dd>
        </div>
        <div>
          <dt>Total paid</dt>
          <dd data-testid="total-paid">{formatMoney(receipt.totalCents)}</dd>
        </div>
      </dl>
    </section>
  );
}
