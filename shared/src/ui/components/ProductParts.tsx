import type { ReactNode } from 'react';

/*
 * Parts of a product page that the detail screens (ProductDetailView) and the customer's shop page
 * share; a module of their own, so the shop page's chunks do not carry the detail view.
 */

/**
 * A product's brand above its name, the page's heading: `#product-name`, which the product's
 * article is labelled by (the detail screens and the customer's shop page).
 */
export function ProductTitle({ brand, name }: { brand: string; name: string }) {
  return (
    <>
      <p className="product-detail__brand" data-testid="product-brand">
        {brand}
      </p>
      <h1 className="product-detail__name" id="product-name">
        {name}
      </h1>
    </>
  );
}

/** The product's description under its heading: the sanitized markup, or what stands in for it. */
export function DescriptionSection({ children }: { children: ReactNode }) {
  return (
    <section className="product-detail__description" aria-labelledby="product-description">
      <h2 className="product-detail__section-title" id="product-description">
        Description
      </h2>
      {children}
    </section>
  );
}
