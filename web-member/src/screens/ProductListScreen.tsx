import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { CATALOGUE_FIRST_SCREENFUL } from '@portal/shared/query/catalogue';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useApprovedProducts, usePrefetchApprovedProduct } from '@portal/shared/ui/hooks/catalogueQueries';
import { LoadMore } from '@portal/shared/ui/components/LoadMore';
import { useCursorPages, type CursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { AttentionWords } from '@portal/shared/ui/components/Badge';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { BoxIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { Page } from '@portal/shared/ui/components/Page';
import { useIntentWithin, usePreloadWhenIdle } from '@portal/shared/ui/hooks/preload';
import { ProductCard } from '@portal/shared/ui/components/ProductCard';
import { MainPictureFirst, useAfterMainPicture } from '@portal/shared/ui/components/MainPicture';
import type { ProductCard as ProductCardData } from '@portal/shared/api/products';
import { loadSanitizer } from '@portal/shared/ui/components/SafeHtml';
import { LazyProductDetailScreen } from './lazyScreens';

/** The detail screen's code: its chunk and the description's sanitizer (SafeHtml loads that only when asked). */
const DETAIL_CODE = {
  preload: () => Promise.all([LazyProductDetailScreen.preload(), loadSanitizer()]),
};

/**
 * Cards rendered per task (issue 16): a page of 24 cards rendered at once was one 40–50 ms task
 * (160–200 ms under Lighthouse's 4x CPU); six at a time, a task each, keeps every task short.
 */
const CARDS_PER_TASK = 6;

/**
 * How many of `total` items to render now. The first screenful comes first and alone until its
 * picture has been shown (`MainPictureFirst`: at the latest a second later); then CARDS_PER_TASK
 * more in each following task. The cards below the fold would otherwise ask for their pictures
 * at once (a lazy image that near the viewport loads straight away) and share the connection
 * with the first screenful's.
 */
function useRenderedCount(total: number, firstShown: boolean): number {
  const [count, setCount] = useState(CATALOGUE_FIRST_SCREENFUL);
  useEffect(() => {
    if (!firstShown || count >= total) return;
    const timer = setTimeout(() => setCount((current) => current + CARDS_PER_TASK), 0);
    return () => clearTimeout(timer);
  }, [count, total, firstShown]);
  return Math.min(count, total);
}

export const productDetailPath = (id: string) => `/member_product_detail?id=${encodeURIComponent(id)}`;

/** '/': the member's catalogue of approved products, newest first, a page at a time. */
export function ProductListScreen() {
  const { needsAttention } = useAuth();
  const pages = useCursorPages(useApprovedProducts());

  let content;
  if (pages.phase === 'loading') {
    content = <Loading label="Loading products…" />;
  } else if (pages.phase === 'error') {
    content = (
      <ErrorBanner title="The products could not be loaded" message={pages.error ?? ''} onRetry={pages.reload} />
    );
  } else if (pages.items.length === 0) {
    content = (
      <EmptyState icon={<BoxIcon />} title="No products are available yet.">
        <p>
          Products appear here once the team approves them from the supplier’s catalogue, each with its retail price,
          sell price and what you make per item.
        </p>
      </EmptyState>
    );
  } else {
    content = (
      <MainPictureFirst>
        <ProductGrid pages={pages} />
      </MainPictureFirst>
    );
  }

  return (
    <Page title="Product List" description="Approved products you can share, with what you make on every sale.">
      {needsAttention ? <PayoutSetupCallout /> : null}
      {content}
    </Page>
  );
}

/** The cards, inside the first screenful's `MainPictureFirst`: what they do not need waits for its picture. */
function ProductGrid({ pages }: { pages: CursorPages<ProductCardData> }) {
  const prefetchProduct = usePrefetchApprovedProduct();
  const firstShown = useAfterMainPicture();
  const rendered = useRenderedCount(pages.items.length, firstShown);
  const allRendered = rendered === pages.items.length;
  // About to open a card: its screen's code and its product start loading (one set of listeners).
  const intentRef = useIntentWithin('data-product-id', (id) => {
    void DETAIL_CODE.preload().catch(() => undefined);
    prefetchProduct(id);
  });
  // Once the first screenful shows, the detail screen's code loads while the browser has nothing else to do.
  usePreloadWhenIdle(DETAIL_CODE, firstShown);

  return (
    <section aria-label="Products">
      <ul className="product-grid" ref={intentRef} aria-busy={pages.phase === 'loading-more' || !allRendered}>
        {pages.items.slice(0, rendered).map((product, index) => (
          <ProductCard
            key={product.id}
            product={product}
            priority={index < CATALOGUE_FIRST_SCREENFUL}
            to={productDetailPath(product.id)}
            showYouMake
          />
        ))}
      </ul>
      {/* Once every card is there: its sentinel must not see the list's end too early. */}
      {allRendered ? <LoadMore pages={pages} noun="products" /> : null}
    </section>
  );
}

function PayoutSetupCallout() {
  // The same words as the red badges: only the steps still to do.
  const { attentionReasons } = useAuth();
  return (
    <section className="callout" aria-labelledby="payout-setup-title">
      <div className="callout__text">
        <h2 className="callout__title" id="payout-setup-title">
          Finish setting up your payouts
        </h2>
        <p className="callout__body">So that your commissions can be paid to you:</p>
        <AttentionWords reasons={attentionReasons} data-testid="payout-setup-steps" />
      </div>
      <Link className="button button--secondary button--small" to="/my_account">
        Go to My Account
      </Link>
    </section>
  );
}
