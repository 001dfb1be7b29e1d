import type { ReactNode } from 'react';

import type { PictureSource, ProductDetail } from '../../api/products';
import { PICTURE_SIZES } from '../../domain/pictures';
import '../styles/catalogue.css';
import { BackLink } from './BackLink';
import { Carousel } from './Carousel';
import { MainPictureFirst } from './MainPicture';
import { useDocumentTitle } from './Page';
import { PriceLines } from './Price';
import { DescriptionSection, ProductTitle } from './ProductParts';
import { ProductImage } from './ProductImage';
import { SafeHtml } from './SafeHtml';

/**
 * A detail screen's frame: the Back link and any tools beside it, then the content. While no
 * product is shown (loading, not found), `title` is the page's heading for assistive technology
 * and the document title.
 */
export function DetailFrame({
  backTo,
  tools,
  title,
  children,
}: {
  backTo: string;
  tools?: ReactNode;
  title?: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className="page">
      <div className="detail-toolbar">
        <BackLink to={backTo} />
        {tools ? <div className="detail-toolbar__tools">{tools}</div> : null}
      </div>
      {title ? <h1 className="visually-hidden">{title}</h1> : null}
      {children}
    </div>
  );
}

export interface ProductDetailViewProps {
  /** The API's ProductDetail (an admin's ImportedProduct has the same fields and more). */
  product: ProductDetail;
  /** Show 'You Make' (members). */
  showYouMake?: boolean;
  /** Above the name: a status, a notice. */
  before?: ReactNode;
  /** Below the prices: supplier facts, actions. */
  after?: ReactNode;
  /**
   * Only what the list's card knew is here yet (name, brand, prices, first image; the rest is
   * placeholder): the first image stands where the carousel will be and the description shows
   * that it is loading.
   */
  pending?: boolean;
}

/**
 * A product: the image carousel beside (on a phone, above) its name, brand, prices and the
 * description rendered as markup through DOMPurify. The carousel's other pictures and the
 * description's sanitizer wait for the first picture to be shown (MainPicture.tsx).
 */
export function ProductDetailView({
  product,
  showYouMake = false,
  before,
  after,
  pending = false,
}: ProductDetailViewProps) {
  useDocumentTitle(product.product_name);

  // The first picture (the page's largest paint) before the other pictures and the sanitizer.
  return (
    <MainPictureFirst>
      <article className="product-detail" aria-labelledby="product-name">
        <div className="product-detail__media">
          {pending ? (
            <PendingCarousel image={product.images[0]} picture={product.pictures?.[0]} name={product.product_name} />
          ) : (
            <Carousel
              key={product.id}
              images={product.images}
              pictures={product.pictures}
              name={product.product_name}
            />
          )}
        </div>
        <div className="product-detail__info">
          {before}
          <div className="product-detail__heading">
            <ProductTitle brand={product.brand} name={product.product_name} />
          </div>
          <PriceLines
            size="lg"
            msrp={product.msrp_us}
            sell={product.dropshipping_price_us}
            youMake={showYouMake ? product.you_make : undefined}
          />
          {after}
          <DescriptionSection>
            {pending ? (
              <PendingText label="Loading the description…" />
            ) : (
              <SafeHtml html={product.html_description} emptyText="The supplier gave no description." />
            )}
          </DescriptionSection>
        </div>
      </article>
    </MainPictureFirst>
  );
}

/** The first image where the carousel will be, and a quiet bar where its dots will be. */
function PendingCarousel({
  image,
  picture,
  name,
}: {
  image: string | undefined;
  picture: PictureSource | undefined;
  name: string;
}) {
  return (
    <div className="carousel carousel--pending" role="group" aria-label="Images" aria-busy="true">
      <div className="carousel__frame">
        <ProductImage src={image} alt={name} priority picture={picture} sizes={PICTURE_SIZES.detail} />
      </div>
      <div className="carousel__dots" aria-hidden="true">
        <span className="skeleton skeleton--dots" />
      </div>
    </div>
  );
}

/**
 * Text on its way: grey lines of a paragraph's shape (or, `inline`, one line the height of the
 * text it stands for, so a list of facts keeps its rows), and the words for assistive technology.
 */
export function PendingText({ label, lines = 4, inline = false }: { label: string; lines?: number; inline?: boolean }) {
  return (
    <div
      className={inline ? 'pending-text pending-text--inline' : 'pending-text'}
      role="status"
      aria-live="polite"
      data-testid="pending-text"
    >
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: inline ? 1 : lines }, (_, index) => (
        <span key={index} className="skeleton skeleton--line" aria-hidden="true" />
      ))}
    </div>
  );
}
