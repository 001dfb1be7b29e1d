import { useEffect, useState, type SyntheticEvent } from 'react';
import type { PictureSource } from '../../api/products';
import '../styles/catalogue.css';
import { MAIN_PICTURE_TIMING, useSettleMainPicture } from './MainPicture';

export interface ProductImageProps {
  /** The image address; null or empty when the product has none. */
  src: string | null | undefined;
  /** What the image shows; '' when the text beside it already names the product. */
  alt: string;
  className?: string;
  /** 'lazy' for images in long lists (the default), 'eager' for the one in view. */
  loading?: 'lazy' | 'eager';
  /**
   * The page's main picture (the detail's first image, the cards of the first screenful): loaded
   * at once and ahead of other images (`loading="eager"`, `fetchpriority="high"`), as it is
   * likely the largest contentful paint. Its frame reserves its square in CSS (aspect-ratio), so
   * no image moves the page when it arrives. Inside a `MainPictureFirst` it is the picture the rest
   * waits for: it reports when it is decoded, has failed, or is a placeholder.
   */
  priority?: boolean;
  /**
   * Our copy's variants when the portal hosts the picture (issue 28): the `<img>` gets `srcset`,
   * `sizes` and the intrinsic `width` and `height`, so the browser takes the smallest variant
   * that fills its box. Used only while `src` is its `src`.
   */
  picture?: PictureSource | null;
  /** The box's width in the layout (PICTURE_SIZES of shared/src/domain/pictures.ts); with `picture`. */
  sizes?: string;
}

/**
 * A product photo that never shows a broken-image icon: when there is no address, or the image
 * fails to load, a neutral placeholder drawn inline (no network request) takes its place.
 */
export function ProductImage({
  src,
  alt,
  className,
  loading = 'lazy',
  priority = false,
  picture,
  sizes,
}: ProductImageProps) {
  // Remember which address failed, so a new address gets its own chance to load.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = className ? `product-image ${className}` : 'product-image';
  const settle = useSettleMainPicture();
  const placeholder = !src || failedSrc === src;
  const main = priority && settle !== undefined;
  useEffect(() => {
    if (main && placeholder) settle('placeholder');
  }, [main, placeholder, settle]);
  // Loaded: ready to paint once decoded (decoding is async).
  const onLoad = main
    ? (event: SyntheticEvent<HTMLImageElement>) => {
        const image = event.currentTarget;
        const loaded = () => settle('loaded');
        if (typeof image.decode === 'function') image.decode().then(loaded, loaded);
        else loaded();
      }
    : undefined;
  // Not a typed attribute of <img> in React's types; the browser reports when this one is shown.
  const timing: Record<string, string> = main ? { elementtiming: MAIN_PICTURE_TIMING } : {};
  if (placeholder) {
    return (
      <ImagePlaceholder
        className={classes}
        label={src ? `${alt ? `${alt}: ` : ''}image unavailable` : `${alt ? `${alt}: ` : ''}no image`}
        decorative={!alt}
      />
    );
  }
  const variants = picture && picture.src === src && sizes ? picture : undefined;
  return (
    <img
      className={`${classes} product-image--photo`}
      src={src}
      srcSet={variants?.srcset}
      sizes={variants ? sizes : undefined}
      width={variants?.width}
      height={variants?.height}
      alt={alt}
      loading={priority ? 'eager' : loading}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      referrerPolicy="no-referrer"
      {...timing}
      onLoad={onLoad}
      onError={() => setFailedSrc(src)}
    />
  );
}

/** The placeholder: a framed picture icon on a muted background, sized by its container. */
export function ImagePlaceholder({
  className,
  label,
  decorative = false,
}: {
  className?: string;
  label: string;
  decorative?: boolean;
}) {
  return (
    <svg
      className={className ? `${className} product-image--placeholder` : 'product-image--placeholder'}
      viewBox="0 0 120 120"
      preserveAspectRatio="xMidYMid meet"
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : label}
      aria-hidden={decorative ? true : undefined}
      focusable="false"
      data-testid="image-placeholder"
    >
      <rect width="120" height="120" fill="#f0f2f5" />
      <g fill="none" stroke="#b9c0ca" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
        <rect x="38" y="42" width="44" height="36" rx="4" />
        <circle cx="51" cy="54" r="4" />
        <path d="M82 70L68 57 46 78" />
      </g>
    </svg>
  );
}
