import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Carousel } from './Carousel';
import { MAIN_PICTURE_TIMING, MainPictureFirst, useAfterMainPicture } from './MainPicture';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.resetModules();
});

const images = ['https://img.example.test/1.jpg', 'https://img.example.test/2.jpg', 'https://img.example.test/3.jpg'];

/** What waits for the picture, made visible: "rest: yes" once the gate is open. */
function Rest() {
  return <p data-testid="rest">{useAfterMainPicture() ? 'rest: yes' : 'rest: no'}</p>;
}

function renderGated(list: readonly string[], waitMs?: number) {
  return render(
    <MainPictureFirst waitMs={waitMs}>
      <Carousel images={list} name="Socks" />
      <Rest />
    </MainPictureFirst>,
  );
}

const rest = () => screen.getByTestId('rest').textContent;
const shownPictures = () => Array.from(document.querySelectorAll('img')).map((image) => image.getAttribute('src'));
const mainPicture = () => document.querySelector(`img[elementtiming="${MAIN_PICTURE_TIMING}"]`) as HTMLImageElement;

/** A browser with Element Timing: entries are handed to the observers when `show` is called. */
function stubElementTiming() {
  const observers: ((entries: { identifier: string }[]) => void)[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['element', 'largest-contentful-paint'];
    constructor(private readonly callback: (list: { getEntries: () => { identifier: string }[] }) => void) {}
    observe() {
      observers.push((entries) => this.callback({ getEntries: () => entries }));
    }
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return { show: (identifier: string) => act(() => observers.forEach((notify) => notify([{ identifier }]))) };
}

describe('the main picture first (MainPictureFirst)', () => {
  it('outside it, everything loads at once: every picture, nothing marked for timing', async () => {
    render(
      <>
        <Carousel images={images} name="Socks" />
        <Rest />
      </>,
    );
    expect(rest()).toBe('rest: yes');
    expect(shownPictures()).toEqual(images);
    expect(mainPicture()).toBeNull();
  });

  it('inside it, only the first picture is in the page until it has loaded; then, after a frame, the rest', async () => {
    renderGated(images);
    expect(shownPictures()).toEqual([images[0]]);
    expect(rest()).toBe('rest: no');
    // The other slides keep their places, empty.
    expect(document.querySelectorAll('.carousel__slide')).toHaveLength(3);
    expect(mainPicture().getAttribute('fetchpriority')).toBe('high');
    fireEvent.load(mainPicture());
    await waitFor(() => expect(rest()).toBe('rest: yes'));
    expect(shownPictures()).toEqual(images);
  });

  it('a slide turned to before the gate opens shows its picture', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    renderGated(images);
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(shownPictures()).toEqual([images[0], images[1]]);
    expect(rest()).toBe('rest: no');
  });

  it('a first picture that fails (its placeholder shown) opens the gate too', async () => {
    renderGated(images);
    fireEvent.error(mainPicture());
    await waitFor(() => expect(rest()).toBe('rest: yes'));
    expect(screen.getByTestId('image-placeholder')).toBeTruthy();
  });

  it('a product without pictures does not hold the rest back', async () => {
    renderGated([]);
    await waitFor(() => expect(rest()).toBe('rest: yes'));
  });

  it('a picture that never loads holds the rest back only until the wait is over', async () => {
    renderGated(images, 40);
    expect(rest()).toBe('rest: no');
    await waitFor(() => expect(rest()).toBe('rest: yes'));
    expect(shownPictures()).toEqual(images);
  });

  it('where the browser reports when the picture is shown, that report opens it, not the load event', async () => {
    const timing = stubElementTiming();
    renderGated(images, 60_000);
    fireEvent.load(mainPicture());
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(rest()).toBe('rest: no');
    await timing.show('some-other-element');
    expect(rest()).toBe('rest: no');
    await timing.show(MAIN_PICTURE_TIMING);
    expect(rest()).toBe('rest: yes');
  });

  it('the description (SafeHtml) loads its sanitizer only once the gate is open', async () => {
    // A fresh copy of the modules: the sanitizer is loaded once per page, and no other test here loaded it.
    const { MainPictureFirst: Gate } = await import('./MainPicture');
    const { Carousel: FreshCarousel } = await import('./Carousel');
    const { SafeHtml } = await import('./SafeHtml');
    render(
      <Gate waitMs={60_000}>
        <FreshCarousel images={images} name="Socks" />
        <SafeHtml html="<p>Knit from <strong>merino</strong>.</p>" />
      </Gate>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(document.querySelector('.rich-text--pending')).toBeTruthy();
    expect(screen.queryByText('merino')).toBeNull();
    fireEvent.load(mainPicture());
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
  });
});
