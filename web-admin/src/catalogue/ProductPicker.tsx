import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ImportedProductCard } from '@portal/shared/api/products';
import { formatMoney } from '@portal/shared/domain/format';
import { queryKeys } from '@portal/shared/query/keys';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { FormField } from '@portal/shared/ui/components/FormField';
import './catalogue.css';

/** How many products the picker offers at once. */
const OPTIONS = 8;
const SEARCH_DELAY_MS = 250;

export interface PickedProduct {
  id: string;
  name: string;
  spu: string;
  price: string;
}

const priceOf = (product: ImportedProductCard) => formatMoney(Math.round(Number(product.dropshipping_price_us) * 100));

/**
 * An approved product picked by the start of its name or its SPU: an ARIA combobox (type to
 * search on the server, Up and Down to move through the products, Enter to pick one, Escape to
 * close), whose results are announced. `value` is the picked product, or null; a form that clears
 * itself gives the picker a new `key`.
 */
export function ProductPicker({
  value,
  onChange,
  error,
  name = 'product_id',
}: {
  value: PickedProduct | null;
  onChange: (product: PickedProduct | null) => void;
  error?: string | undefined;
  name?: string;
}) {
  const { call } = useAuth();
  const listId = useId();
  const statusId = useId();
  const [text, setText] = useState(value ? value.name : '');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useQuery({
    queryKey: [...queryKeys.adminCatalogue.list('approved', search), 'picker'],
    queryFn: ({ signal }) => call('getCatalogueProducts', { list: 'approved', search, limit: OPTIONS }, { signal }),
    enabled: open && search !== '',
  });
  const options = search !== '' ? (results.data?.items ?? []) : [];
  const showList = open && options.length > 0;

  const pick = (product: ImportedProductCard) => {
    onChange({ id: product.id, name: product.product_name, spu: product.spu_no, price: priceOf(product) });
    setText(product.product_name);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (options.length === 0 ? -1 : (current + 1) % options.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => (options.length === 0 ? -1 : (current <= 0 ? options.length : current) - 1));
    } else if (event.key === 'Enter' && showList && active >= 0 && options[active]) {
      event.preventDefault();
      pick(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const status =
    !open || search === '' || search !== text.trim()
      ? ''
      : results.isFetching
        ? 'Searching…'
        : results.isError
          ? 'The products could not be searched. Type again to retry.'
          : options.length === 0
            ? `No approved product has the SPU “${search}” or a name starting with it.`
            : `${options.length} ${options.length === 1 ? 'product' : 'products'} found: Up and Down to choose, Enter to pick.`;

  return (
    <div className="product-picker">
      <FormField
        ref={inputRef}
        label="Product"
        name={name}
        value={text}
        hint={
          value
            ? `Picked: ${value.name}, SPU ${value.spu}, sells for ${value.price}.`
            : 'Type the start of its name, or its SPU, and pick it from the list.'
        }
        error={error}
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
          if (value) onChange(null);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <ul
        className="product-picker__options"
        id={listId}
        role="listbox"
        aria-label="Approved products"
        hidden={!showList}
      >
        {options.map((product, index) => (
          <li
            key={product.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className="product-picker__option"
            // Picked before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(product);
            }}
          >
            {product.product_name}
            <small>
              SPU {product.spu_no} · {priceOf(product)}
            </small>
          </li>
        ))}
      </ul>
      <p id={statusId} className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
