import { useRef, useState, type KeyboardEvent } from 'react';
import type { Swiper as SwiperInstance } from 'swiper';
import { Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/navigation';
import 'swiper/css/pagination';
import './catalogue.css';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { ProductImage } from './ProductImage';

export interface CarouselProps {
  /** Image addresses in slide order: image slots 1 to 6, then the additional images. */
  images: readonly string[];
  /** The product's name, for the images' text alternatives. */
  name: string;
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
 * endless loop, on Swiper's Navigation and Pagination modules with its loop mode. It follows the
 * WAI-ARIA carousel pattern: a focusable region (roledescription 'carousel', named after the
 * product) that answers the Left and Right arrow keys; each slide a group (roledescription
 * 'slide') named "2 of 7"; a polite live region saying which one shows. The arrows and dots are
 * real buttons, so the keyboard reaches them too.
 *
 * With one image there is nothing to move between (no arrows, no dots); with none, a placeholder.
 */
export function Carousel({ images, name }: CarouselProps) {
  const count = images.length;
  // Swiper binds its modules to these elements when it starts, so it starts once they exist.
  const [prevEl, setPrevEl] = useState<HTMLButtonElement | null>(null);
  const [nextEl, setNextEl] = useState<HTMLButtonElement | null>(null);
  const [paginationEl, setPaginationEl] = useState<HTMLDivElement | null>(null);
  const [active, setActive] = useState(0);
  const swiperRef = useRef<SwiperInstance | null>(null);

  if (count <= 1) {
    return (
      <div className="carousel carousel--single" role="group" aria-roledescription="carousel" aria-label="Images">
        <div className="carousel__frame">
          <ProductImage src={images[0]} alt={count ? `${name}, image 1 of 1` : name} priority />
        </div>
      </div>
    );
  }

  const ready = prevEl !== null && nextEl !== null && paginationEl !== null;
  const label = `${name}: images`;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const swiper = swiperRef.current;
    if (!swiper || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowLeft') swiper.slidePrev();
    else if (event.key === 'ArrowRight') swiper.slideNext();
    else return;
    event.preventDefault();
  };
  const onSlideChange = (swiper: SwiperInstance) => setActive(swiper.realIndex);
  const markCurrentDot = (swiper: SwiperInstance) => {
    const dots = swiper.pagination?.bullets ?? [];
    dots.forEach((dot, index) => {
      if (index === swiper.realIndex) dot.setAttribute('aria-current', 'true');
      else dot.removeAttribute('aria-current');
    });
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
        {ready ? (
          <Swiper
            className="carousel__swiper"
            modules={[Navigation, Pagination]}
            loop
            slidesPerView={1}
            spaceBetween={0}
            speed={prefersReducedMotion() ? 0 : 300}
            navigation={{ prevEl, nextEl }}
            pagination={{
              el: paginationEl,
              clickable: true,
              bulletClass: 'carousel__dot',
              bulletActiveClass: 'carousel__dot--active',
              renderBullet: (index, className) =>
                `<button type="button" class="${className}" aria-label="Show image ${index + 1}"></button>`,
            }}
            onSwiper={(swiper) => {
              swiperRef.current = swiper;
            }}
            onSlideChange={onSlideChange}
            onPaginationUpdate={markCurrentDot}
            onPaginationRender={markCurrentDot}
          >
            {images.map((src, index) => (
              <SwiperSlide
                // The same address may appear twice; the position keeps keys unique.
                key={`${index}-${src}`}
                role="group"
                aria-roledescription="slide"
                aria-label={slideLabel(index, count)}
                // Only the slide in view is read out; the others are off to the side.
                aria-hidden={index === active ? undefined : true}
                data-slide-number={index + 1}
              >
                <ProductImage
                  src={src}
                  alt={`${name}, image ${index + 1} of ${count}`}
                  loading="eager"
                  priority={index === 0}
                />
              </SwiperSlide>
            ))}
          </Swiper>
        ) : (
          <ProductImage src={images[0]} alt={`${name}, image 1 of ${count}`} priority />
        )}
        <button
          ref={setPrevEl}
          type="button"
          className="carousel__arrow carousel__arrow--prev"
          aria-label="Previous image"
        >
          <ChevronLeftIcon />
        </button>
        <button ref={setNextEl} type="button" className="carousel__arrow carousel__arrow--next" aria-label="Next image">
          <ChevronRightIcon />
        </button>
        <span className="carousel__counter" aria-hidden="true">
          {active + 1} / {count}
        </span>
      </div>
      <div ref={setPaginationEl} className="carousel__dots" role="group" aria-label="Choose an image" />
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="carousel-status">
        {slideLabel(active, count)}
      </p>
    </div>
  );
}
