import { formatDollarText } from '../../domain/format';
import '../styles/catalogue.css';

/**
 * The money lines of a product, as the spec's card writes them: 'MSRP: $' plus the US retail
 * price, 'Sell Price: $' plus the US dropshipping price, and 'You Make: $' in green. The amounts
 * arrive from the API as two-decimal dollar text ("24.99"), already computed from integer cents
 * on the server (`you_make` is youMakeCents of the sell price), so nothing here does arithmetic.
 */

/** '1049.00' -> '$1,049.00', through the one money formatter. */
export const dollars = formatDollarText;

export interface PriceLinesProps {
  msrp: string;
  sell: string;
  /** Members see what they make per item; admins do not need it. */
  youMake?: string;
  size?: 'md' | 'lg';
}

export function PriceLines({ msrp, sell, youMake, size = 'md' }: PriceLinesProps) {
  return (
    <div className={size === 'lg' ? 'price-lines price-lines--lg' : 'price-lines'}>
      <p className="price-line" data-testid="price-msrp">
        MSRP: {dollars(msrp)}
      </p>
      <p className="price-line price-line--sell" data-testid="price-sell">
        Sell Price: {dollars(sell)}
      </p>
      {youMake !== undefined ? (
        <p className="price-line price-line--you-make" data-testid="price-you-make">
          You Make: {dollars(youMake)}
        </p>
      ) : null}
    </div>
  );
}
