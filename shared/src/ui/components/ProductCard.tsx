import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ProductCard as ProductCardData } from '../../api/products';
import { PICTURE_SIZES } from '../../domain/pictures';
import '../styles/catalogue.css';
import { PriceLines } from './Price';
import { useIntent } from '../hooks/preload';
import { ProductImage } from './ProductImage';

export interface ProductCardProps {
  /** The API's ProductCard (an admin's ImportedProductCard has the same fields and more). */
  product: ProductCardData;
  /** Where the card leads (a route inside the app). */
  to: string;
  /** Show 'You Make' (the member catalogue). */
  showYouMake?: boolean;
  /** A note above the name, e.g. "Update to an approved product". */
  badge?: ReactNode;
  /** Called when the person is about to open the card (hover, press, focus): start loading its screen. */
  onIntent?: () => void;
  /** One of the first screenful's cards: its picture loads at once and first (ProductImage). */
  priority?: boolean;
}

/**
 * One product in a card grid: the first image, the name, the brand and the money lines. The
 * whole card is one link, so a click, a tap or Enter opens the product. Render it inside a
 * `<ul className="product-grid">`.
 */
export function ProductCard({ product, to, showYouMake = false, badge, onIntent, priority }: ProductCardProps) {
  const intent = useIntent(onIntent);
  return (
    <li className="product-grid__item">
      <Link className="card product-card" to={to} data-testid="product-card" data-product-id={product.id} {...intent}>
        <div className="product-card__media">
          <ProductImage
            src={product.image}
            alt=""
            priority={priority}
            picture={product.picture}
            sizes={PICTURE_SIZES.card}
          />
        </div>
        <div className="product-card__body">
          {badge ? <div className="product-card__badge">{badge}</div> : null}
          <h2 className="product-card__name">{product.product_name}</h2>
          <p className="product-card__brand">{product.brand}</p>
          <PriceLines
            msrp={product.msrp_us}
            sell={product.dropshipping_price_us}
            youMake={showYouMake ? product.you_make : undefined}
          />
        </div>
      </Link>
    </li>
  );
}
