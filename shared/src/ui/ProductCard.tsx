import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './catalogue.css';
import { PriceLines } from './Price';
import { ProductImage } from './ProductImage';

/** What a card needs: the ProductCard of the API (ImportedProduct has the same fields). */
export interface ProductCardData {
  id: string;
  product_name: string;
  brand: string;
  msrp_us: string;
  dropshipping_price_us: string;
  you_make: string;
  image: string | null;
}

export interface ProductCardProps {
  product: ProductCardData;
  /** Where the card leads (a route inside the app). */
  to: string;
  /** Show 'You Make' (the member catalogue). */
  showYouMake?: boolean;
  /** A note above the name, e.g. "Update to an approved product". */
  badge?: ReactNode;
}

/**
 * One product in a card grid: the first image, the name, the brand and the money lines. The
 * whole card is one link, so a click, a tap or Enter opens the product. Render it inside a
 * `<ul className="product-grid">`.
 */
export function ProductCard({ product, to, showYouMake = false, badge }: ProductCardProps) {
  return (
    <li className="product-grid__item">
      <Link className="card product-card" to={to} data-testid="product-card" data-product-id={product.id}>
        <div className="product-card__media">
          <ProductImage src={product.image} alt="" />
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
