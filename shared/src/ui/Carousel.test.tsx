import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Carousel } from './Carousel';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const images = ['https://img.example.test/1.jpg', 'https://img.example.test/2.jpg', 'https://img.example.test/3.jpg'];

/** Swiper starts after its buttons exist: let that render happen. */
async function renderCarousel(list: string[]) {
  render(<Carousel images={list} name="Socks" />);
  await act(async () => undefined);
}

describe('Carousel', () => {
  it('names the arrows, the dots and each slide "Image N of M", in the API order', async () => {
    await renderCarousel(images);
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next image' })).toBeTruthy();
    const slides = Array.from(document.querySelectorAll('.swiper-slide'));
    const byNumber = [...slides].sort(
      (a, b) => Number(a.getAttribute('data-slide-number')) - Number(b.getAttribute('data-slide-number')),
    );
    expect(byNumber.map((slide) => slide.getAttribute('aria-label'))).toEqual([
      'Image 1 of 3',
      'Image 2 of 3',
      'Image 3 of 3',
    ]);
    expect(byNumber.map((slide) => slide.querySelector('img')?.getAttribute('src'))).toEqual(images);
    expect(screen.getAllByRole('button', { name: /^Show image \d$/ })).toHaveLength(3);
    expect(screen.getByTestId('carousel-status').textContent).toBe('Image 1 of 3');
  });

  it('loops: back from the first image is the last, forward from the last is the first', async () => {
    // jsdom lays nothing out: give the carousel a width, as a browser would.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(400);
    // …and ask for reduced motion, so slides change at once (jsdom ends no CSS transitions).
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    const user = userEvent.setup();
    await renderCarousel(images);
    const status = () => screen.getByTestId('carousel-status').textContent;
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(status()).toBe('Image 3 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('Image 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('Image 2 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('Image 3 of 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(status()).toBe('Image 1 of 3');
    // The dot of the image in view is marked as the current one. (Choosing a dot is walked in the
    // browser test: Swiper's jump to a slide needs real layout.)
    expect(screen.getByRole('button', { name: 'Show image 1' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: 'Show image 3' }).getAttribute('aria-current')).toBeNull();
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
