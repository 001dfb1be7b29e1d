import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatMoney } from '@portal/shared/domain/format';
import { toApiError, useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { useCursorPages } from '@portal/shared/ui/hooks/CursorPages';
import { EmptyState } from '@portal/shared/ui/components/EmptyState';
import { ErrorBanner } from '@portal/shared/ui/components/ErrorBanner';
import { FormField } from '@portal/shared/ui/components/FormField';
import { CheckIcon } from '@portal/shared/ui/components/icons';
import { Loading } from '@portal/shared/ui/components/Loading';
import { LoadMore } from '@portal/shared/ui/components/LoadMore';
import { Page } from '@portal/shared/ui/components/Page';
import { importDetailPath } from '../import/routes';
import { CATALOGUE_LISTS, catalogueQuery, reloadCatalogue, type CatalogueCard, type CatalogueList } from './queries';
import './catalogue.css';
import type { CheckoutCancelCounts } from '@portal/shared/domain/open-checkouts';
import { CheckoutCancelsNote } from './CheckoutCancelsNote';

/** A move's notice, and the withdrawn product's cancelling of its unpaid checkouts to follow. */
interface MovedNotice {
  text: string;
  cancels?: { productId: string; started: CheckoutCancelCounts };
}

const LIST_LABEL: Record<CatalogueList, string> = {
  approved: 'Approved',
  banned: 'Banned',
  withdrawn: 'Withdrawn',
};

const LIST_HINT: Record<CatalogueList, string> = {
  approved: 'What members see and share. Withdraw a product to take it away from them.',
  banned: 'Never shown to members; imports leave them as they are. Put one back into review to decide again.',
  withdrawn:
    'Taken away from members: their share links say the product was withdrawn. Put one back into review to sell it again.',
};

/** How long typing pauses before the list is searched. */
const SEARCH_DELAY_MS = 300;

const asList = (value: string | null): CatalogueList =>
  CATALOGUE_LISTS.includes(value as CatalogueList) ? (value as CatalogueList) : 'approved';

/**
 * '/admin/catalogue': the approved, banned and withdrawn products by name, searched on the
 * server by SPU or the start of the name; withdraw an approved product, put a banned or withdrawn
 * one back into review. The list and the search are in the address (?list=, ?q=).
 */
export function CatalogueScreen() {
  const [params, setParams] = useSearchParams();
  const list = asList(params.get('list'));
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const [notice, setNotice] = useState<MovedNotice | null>(null);

  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (typed.trim()) next.set('q', typed.trim());
          else next.delete('q');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search, setParams]);

  return (
    <Page title="Catalogue" description="The products members see, and those banned or withdrawn.">
      <nav aria-label="Catalogue lists" className="catalogue-tabs">
        {CATALOGUE_LISTS.map((name) => (
          <Link
            key={name}
            to={`?list=${name}${search ? `&q=${encodeURIComponent(search)}` : ''}`}
            className={name === list ? 'catalogue-tabs__tab catalogue-tabs__tab--current' : 'catalogue-tabs__tab'}
            aria-current={name === list ? 'page' : undefined}
            onClick={() => setNotice(null)}
          >
            {LIST_LABEL[name]}
          </Link>
        ))}
      </nav>
      <p className="field__hint">{LIST_HINT[list]}</p>
      <form role="search" className="catalogue-search" onSubmit={(event) => event.preventDefault()}>
        <FormField
          label="Search by name or SPU"
          name="q"
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          hint="The start of the product’s name, or its exact SPU."
          autoComplete="off"
          maxLength={200}
        />
      </form>
      {notice ? (
        <div className="banner banner--success" role="status">
          <CheckIcon className="banner__icon" />
          <div className="banner__body">
            <p className="banner__message">{notice.text}</p>
            {notice.cancels ? <CheckoutCancelsNote {...notice.cancels} /> : null}
          </div>
          <div className="banner__actions">
            <button type="button" className="button button--ghost button--small" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
      <CatalogueList key={`${list}:${search}`} list={list} search={search} onMoved={setNotice} />
    </Page>
  );
}

function CatalogueList({
  list,
  search,
  onMoved,
}: {
  list: CatalogueList;
  search: string;
  onMoved: (notice: MovedNotice) => void;
}) {
  const { call } = useAuth();
  const query = useInfiniteQuery(catalogueQuery(call, list, search));
  const pages = useCursorPages<CatalogueCard>(query);
  const headingId = useId();

  if (pages.phase === 'loading') return <Loading label="Loading the products…" />;
  if (pages.phase === 'error') {
    return (
      <ErrorBanner
        title="The products could not be loaded"
        message={pages.error ?? 'Something went wrong.'}
        onRetry={pages.reload}
      />
    );
  }
  if (pages.items.length === 0) {
    return (
      <EmptyState title={search ? 'No product found' : `No ${LIST_LABEL[list].toLowerCase()} products`}>
        {search
          ? `No ${LIST_LABEL[list].toLowerCase()} product has the SPU “${search}” or a name starting with it.`
          : list === 'approved'
            ? 'Approve products in Product Import and they show here.'
            : `There are no ${LIST_LABEL[list].toLowerCase()} products.`}
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {LIST_LABEL[list]} products{search ? ` matching “${search}”` : ''}
      </h2>
      <ul className="catalogue-rows plain-list" role="list" aria-live="polite">
        {pages.items.map((product) => (
          <CatalogueRow key={product.id} product={product} list={list} onMoved={onMoved} />
        ))}
      </ul>
      <LoadMore pages={pages} noun="products" />
    </section>
  );
}

function CatalogueRow({
  product,
  list,
  onMoved,
}: {
  product: CatalogueCard;
  list: CatalogueList;
  onMoved: (notice: MovedNotice) => void;
}) {
  const { call } = useAuth();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const action = list === 'approved' ? 'withdraw' : 'reopen';
  const name = product.product_name;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const act = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const moved =
        action === 'withdraw'
          ? await call('withdrawProduct', { id: product.id })
          : await call('returnProductToReview', { id: product.id });
      onMoved(
        action === 'withdraw'
          ? {
              text: `“${name}” was withdrawn: members no longer see it, and its share links say so.`,
              ...(moved.openCheckouts ? { cancels: { productId: product.id, started: moved.openCheckouts } } : {}),
            }
          : { text: `“${name}” is back in review: find it in Product Import to approve or ban it.` },
      );
      reloadCatalogue(client);
    } catch (caught) {
      setProblem(toApiError(caught).message);
      setConfirming(false);
      // The list may be out of date (someone else moved it): read it again.
      reloadCatalogue(client);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="card catalogue-row">
      <div className="catalogue-row__main">
        <Link className="catalogue-row__name" to={importDetailPath(product.id)}>
          {name}
        </Link>
        <p className="catalogue-row__facts">
          <span>SPU {product.spu_no}</span>
          <span>{product.brand}</span>
          <span>Sells for {formatMoney(Math.round(Number(product.dropshipping_price_us) * 100))}</span>
          {product.status === 'review' && list === 'approved' ? <span>New import waiting for review</span> : null}
        </p>
      </div>
      <div className="catalogue-row__actions">
        {confirming ? (
          <div className="catalogue-row__confirm" role="group" aria-label={`Confirm for ${name}`}>
            <p>
              {action === 'withdraw'
                ? `Withdraw “${name}” from members? Their lists stop showing it and its share links say it was withdrawn.`
                : `Put “${name}” back into review? Members see it again only once it is approved.`}
            </p>
            <button
              ref={confirmRef}
              type="button"
              className={action === 'withdraw' ? 'button button--danger' : 'button button--primary'}
              disabled={busy}
              onClick={() => void act()}
            >
              {busy ? 'Working…' : action === 'withdraw' ? 'Withdraw it' : 'Put it back into review'}
            </button>
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConfirming(true)}
            aria-label={`${action === 'withdraw' ? 'Withdraw' : 'Put back into review'} ${name}`}
            disabled={action === 'withdraw' && product.status !== 'approved'}
            aria-describedby={action === 'withdraw' && product.status !== 'approved' ? `${product.id}-why` : undefined}
          >
            {action === 'withdraw' ? 'Withdraw' : 'Put back into review'}
          </button>
        )}
        {action === 'withdraw' && product.status !== 'approved' ? (
          <p className="field__hint" id={`${product.id}-why`}>
            Approve or ban its new import in Product Import first.
          </p>
        ) : null}
        {problem ? (
          <ErrorBanner title="Nothing was changed" message={problem} onDismiss={() => setProblem(null)} />
        ) : null}
      </div>
    </li>
  );
}
