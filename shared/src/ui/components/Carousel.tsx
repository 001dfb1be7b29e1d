import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { PictureSource } from '../../api/products';
import { PICTURE_SIZES } from '../../domain/pictures';
import '../styles/catalogue.css';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { useAfterMainPicture } from './MainPicture';
import { ProductImage } from './ProductImage';

export interface CarouselProps {
  /** Image addresses in slide order: image slots 1 to 6, then the additional images. */
  images: readonly string[];
  /** The product's name, for the images' text alternatives. */
  name: string;
  /** Our copies' variants, one per image, when the portal hosts them (issue 28). */
  pictures?: readonly PictureSource[];
}

/** Whether the person asked for less motion: then slides change without an animation. */
function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/** Slides are named 1, 2, 3 … in order (spec section 9): '2 of 7'. */
export const slideLabel = (index: number, count: number) => `${index + 1} of ${count}`;

/**
 * The product image carousel: arrows ('Previous image' / 'Next image'), navigation dots and an
 * endless loop (past the last image comes the first, before the first the last). It follows the
 * WAI-ARIA carousel pattern: a focusable region (roledescription 'carousel', named after the
 * product) that answers the Left and Right arrow keys; each slide a group (roledescription
 * 'slide') named "2 of 7"; a polite live region saying which one shows. The arrows and dots are
 * real buttons, so the keyboard reaches them too.
 *
 * Our own code rather than a library (it was Swiper, 92 KiB of script evaluated in the task that
 * renders the product, issue 16): the slides sit side by side in a strip (CSS scroll snap) that
 * the arrows, keys, dots and a finger's sideways swipe scroll to a slide, gliding (at once when
 * going round the loop or when less motion is asked for). The strip is no scroll container a
 * person scrolls (overflow hidden): a scrolling region must be a tab stop of its own (axe's
 * scrollable-region-focusable), and the region's arrow keys already move it. The first image
 * loads at once with high priority, the others lazily; inside a `MainPictureFirst` (the share
 * page) the others are not even in the page until the first has been painted: their empty slides
 * hold their places.
 *
 * With one image there is nothing to move between (no arrows, no dots); with none, a placeholder.
 */
export function Carousel({ images, name, pictures }: CarouselProps) {
  const count = images.length;
  const restAllowed = useAfterMainPicture();
  const [active, setActive] = useState(0);
  const trackRef = useRef<HTMLDivElement | null>(null);
  // Set when a wrap (last ↔ first) should jump rather than glide back over every image.
  const jumpRef = useRef(false);

  // Scroll the strip to the current slide (arrows, keys, dots, swipes).
  useEffect(() => {
    const track = trackRef.current;
    const jump = jumpRef.current;
    jumpRef.current = false;
    if (!track || typeof track.scrollTo !== 'function') return;
    const left = active * track.clientWidth;
    if (Math.abs(track.scrollLeft - left) < 1) return;
    track.scrollTo({ left, behavior: jump || prefersReducedMotion() ? 'instant' : 'smooth' });
  }, [active]);

  // The strip's scroll offset is in pixels: when its width changes (a window resize, a phone
  // turned), put the shown slide back in view at once, so the counter and the picture agree.
  const activeRef = useRef(active);
  useEffect(() => {
    activeRef.current = active;
  }, [active]);
  useEffect(() => {
    const track = trackRef.current;
    if (!track || typeof track.scrollTo !== 'function') return;
    const realign = () => {
      const left = activeRef.current * track.clientWidth;
      if (Math.abs(track.scrollLeft - left) >= 1) track.scrollTo({ left, behavior: 'instant' });
    };
    window.addEventListener('resize', realign);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(realign) : null;
    observer?.observe(track);
    return () => {
      window.removeEventListener('resize', realign);
      observer?.disconnect();
    };
  }, [count]);

  // Where a touch or pen stroke began (a mouse uses the arrows and dots).
  const swipeRef = useRef<{ x: number; y: number } | null>(null);

  if (count <= 1) {
    return (
      <div className="carousel carousel--single" role="group" aria-roledescription="carousel" aria-label="Images">
        <div className="carousel__frame">
          <ProductImage
            src={images[0]}
            alt={count ? `${name}, image 1 of 1` : name}
            priority
            picture={pictures?.[0]}
            sizes={PICTURE_SIZES.detail}
          />
        </div>
      </div>
    );
  }

  const show = (index: number) => {
    const next = (index + count) % count;
    // Going round the loop jumps; any other move glides.
    jumpRef.current = Math.abs(next - active) > 1;
    setActive(next);
  };
  const label = `${name}: images`;
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    swipeRef.current = event.pointerType === 'mouse' ? null : { x: event.clientX, y: event.clientY };
  };
  // A sideways stroke of more than 40 px (and more sideways than up or down) turns the slide.
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipeRef.current;
    swipeRef.current = null;
    if (!start) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) < 40 || Math.abs(dx) < Math.abs(event.clientY - start.y)) return;
    show(active + (dx < 0 ? 1 : -1));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowLeft') show(active - 1);
    else if (event.key === 'ArrowRight') show(active + 1);
    else return;
    event.preventDefault();
  };

  return (
    <div
      className="carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      // Focusable, so that the arrow keys move it (the focus ring shows where the keys go).
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="carousel"
    >
      <div className="carousel__frame">
        {/* The strip does not scroll by itself (no second tab stop, nothing the keys would reach
            that the region's keys do not): the arrows, keys, dots and swipes move it. */}
        <div
          className="carousel__track"
          ref={trackRef}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (swipeRef.current = null)}
        >
          {images.map((src, index) => (
            <div
              // The same address may appear twice; the position keeps keys unique.
              key={`${index}-${src}`}
              className={index === active ? 'carousel__slide carousel__slide--active' : 'carousel__slide'}
              role="group"
              aria-roledescription="slide"
              aria-label={slideLabel(index, count)}
              // Only the slide in view is read out; the others are off to the side.
              aria-hidden={index === active ? undefined : true}
              data-slide-number={index + 1}
            >
              {index === 0 || index === active || restAllowed ? (
                <ProductImage
                  src={src}
                  alt={`${name}, image ${index + 1} of ${count}`}
                  priority={index === 0}
                  picture={pictures?.[index]}
                  sizes={PICTURE_SIZES.detail}
                />
              ) : null}
            </div>
          ))}
        </div>
        <button
          type="button"
          className="carousel__arrow carousel__arrow--prev"
          aria-label="Previous image"
          onClick={() => show(active - 1)}
        >
          <ChevronLeftIcon />
        </button>
        <button
          type="button"
          className="carousel__arrow carousel__arrow--next"
          aria-label="Next image"
          onClick={() => show(active + 1)}
        >
          <ChevronRightIcon />
        </button>
        <span className="carousel__counter" aria-hidden="true">
          {active + 1} / {count}
        </span>
      </div>
      <div className="carousel__dots" role="group" aria-label="Choose an image">
        {images.map((src, index) => (
          <button
            key={`${index}-${src}`}
            type="button"
            className={index === active ? 'carousel__dot carousel__dot--active' : 'carousel__dot'}
            aria-label={`Show image ${index + 1}`}
            aria-current={index === active ? 'true' : undefined}
            onClick={() => show(index)}
          />
        ))}
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="carousel-status">
        {slideLabel(active, count)}
      </p>
    </div>
  );
}
