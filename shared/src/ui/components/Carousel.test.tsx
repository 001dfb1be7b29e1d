import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Carousel } from './Carousel';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const images = ['https://img.example.test/1.jpg', 'https://img.example.test/2.jpg', 'https://img.example.test/3.jpg'];

/** jsdom lays nothing out: give the carousel a size, as a browser would. */
function layOut() {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(400);
  // …and ask for reduced motion, so slides change at once (jsdom ends no CSS transitions).
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
}

/** Renders the carousel and lets its effects run. */
async function renderCarousel(list: string[]) {
  render(<Carousel images={list} name="Socks" />);
  await act(async () => undefined);
}

describe('Carousel', () => {
  it('is a carousel region named after the product, with each slide "N of M" in the API order', async () => {
    await renderCarousel(images);
    const region = screen.getByRole('region', { name: 'Socks: images' });
    expect(region.getAttribute('aria-roledescription')).toBe('carousel');
    expect(region.tabIndex).toBe(0);
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next image' })).toBeTruthy();
    const slides = Array.from(document.querySelectorAll('.carousel__slide'));
    const byNumber = [...slides].sort(
      (a, b) => Number(a.getAttribute('data-slide-number')) - Number(b.getAttribute('data-slide-number')),
    );
    expect(byNumber.map((slide) => slide.getAttribute('aria-label'))).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    expect(byNumber.map((slide) => slide.getAttribute('aria-roledescription'))).toEqual(['slide', 'slide', 'slide']);
    // Only the slide in view is read out.
    expect(byNumber.map((slide) => slide.getAttribute('aria-hidden'))).toEqual([null, 'true', 'true']);
    expect(byNumber.map((slide) => slide.querySelector('img')?.getAttribute('src'))).toEqual(images);
    expect(screen.getAllByRole('button', { name: /^Show image \d$/ })).toHaveLength(3);
    const status = screen.getByTestId('carousel-status');
    expect(status.textContent).toBe('1 of 3');
    expect(status.getAttribute('aria-live')).toBe('polite');
  });

  it('loops: back from the first image is the last, forward from the last is the first', async () => {
    layOut();
    const user = userEvent.setup();
    await renderCarousel(images);
    const status = () => screen.getByTestId('carousel-status').textContent;
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(status()).toBe('3 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('1 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('2 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('3 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('1 of 3');
    // The dot of the image in view is marked as the current one, and a dot goes to its image.
    expect(screen.getByRole('button', { name: 'Show image 1' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: 'Show image 3' }).getAttribute('aria-current')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show image 3' }));
    expect(status()).toBe('3 of 3');
    expect(screen.getByRole('button', { name: 'Show image 3' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: 'Show image 1' }).getAttribute('aria-current')).toBeNull();
  });

  it('scrolls its strip to the chosen slide, and a sideways swipe turns it', async () => {
    layOut();
    const scrolledTo: number[] = [];
    HTMLElement.prototype.scrollTo = function scrollTo(options?: ScrollToOptions | number) {
      if (typeof options === 'object') scrolledTo.push(options.left ?? -1);
    };
    try {
      const user = userEvent.setup();
      await renderCarousel(images);
      await user.click(screen.getByRole('button', { name: 'Next image' }));
      expect(scrolledTo).toEqual([400]);
      const track = document.querySelector('.carousel__track');
      if (!track) throw new Error('no strip');
      const stroke = (from: [number, number], to: [number, number], pointerType = 'touch') => {
        fireEvent.pointerDown(track, { pointerType, clientX: from[0], clientY: from[1] });
        fireEvent.pointerUp(track, { pointerType, clientX: to[0], clientY: to[1] });
      };
      const status = () => screen.getByTestId('carousel-status').textContent;
      // A finger to the left: the next image; to the right: the one before.
      stroke([300, 100], [100, 110]);
      expect(status()).toBe('3 of 3');
      stroke([100, 100], [300, 90]);
      expect(status()).toBe('2 of 3');
      // Too short, more up than sideways, or a mouse: nothing turns.
      stroke([200, 100], [170, 100]);
      stroke([200, 100], [140, 300]);
      stroke([300, 100], [100, 100], 'mouse');
      expect(status()).toBe('2 of 3');
      expect(document.querySelector('.carousel__slide--active')?.getAttribute('aria-label')).toBe('2 of 3');
    } finally {
      Reflect.deleteProperty(HTMLElement.prototype, 'scrollTo');
    }
  });

  it('keeps the shown slide in view when its width changes, so the counter and the picture agree', async () => {
    layOut();
    const scrolledTo: { left: number; behavior: string }[] = [];
    HTMLElement.prototype.scrollTo = function scrollTo(options?: ScrollToOptions | number) {
      if (typeof options === 'object') scrolledTo.push({ left: options.left ?? -1, behavior: options.behavior ?? '' });
    };
    try {
      const user = userEvent.setup();
      await renderCarousel(images);
      await user.click(screen.getByRole('button', { name: 'Show image 3' }));
      expect(scrolledTo.at(-1)?.left).toBe(800);
      // The window narrows: slide 3 now starts at 2 × 300 px, and the strip goes there at once.
      vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(300);
      await act(async () => {
        window.dispatchEvent(new Event('resize'));
      });
      expect(scrolledTo.at(-1)).toEqual({ left: 600, behavior: 'instant' });
      expect(screen.getByTestId('carousel-status').textContent).toBe('3 of 3');
      expect(document.querySelector('.carousel__counter')?.textContent).toBe('3 / 3');
    } finally {
      Reflect.deleteProperty(HTMLElement.prototype, 'scrollTo');
    }
  });

  it('loads the first image at once with high priority and the others lazily', async () => {
    await renderCarousel(images);
    const pictures = Array.from(document.querySelectorAll('.carousel__slide img'));
    expect(pictures.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')])).toEqual([
      ['eager', 'high'],
      ['lazy', null],
      ['lazy', null],
    ]);
  });

  it('answers the Left and Right arrow keys once focused, and says which slide shows', async () => {
    layOut();
    const user = userEvent.setup();
    await renderCarousel(images);
    const region = screen.getByRole('region', { name: 'Socks: images' });
    const status = () => screen.getByTestId('carousel-status').textContent;
    const shown = () => document.querySelector('.carousel__slide--active')?.getAttribute('aria-label');
    // Keys do nothing while the carousel does not have focus.
    await user.keyboard('{ArrowRight}');
    expect(status()).toBe('1 of 3');
    await user.tab();
    expect(document.activeElement).toBe(region);
    await user.keyboard('{ArrowRight}');
    expect(status()).toBe('2 of 3');
    expect(shown()).toBe('2 of 3');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(status()).toBe('1 of 3');
    await user.keyboard('{ArrowLeft}');
    expect(status()).toBe('3 of 3');
    expect(shown()).toBe('3 of 3');
    // Other keys are left alone.
    await user.keyboard('{ArrowDown}{Shift>}{ArrowLeft}{/Shift}');
    expect(status()).toBe('3 of 3');
  });

  it('shows one image without arrows or dots, and a placeholder when there is none', async () => {
    await renderCarousel(images.slice(0, 1));
    expect(screen.queryByRole('button', { name: 'Next image' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Socks, image 1 of 1' })).toBeTruthy();
    cleanup();
    await renderCarousel([]);
    expect(screen.getByTestId('image-placeholder')).toBeTruthy();
  });
});
