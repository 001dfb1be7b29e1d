import { use, useEffect, useRef, useState, type ComponentType, type FocusEvent, type PointerEvent } from 'react';

/**
 * Opening a screen fast: its code chunk and its data can start loading before the click.
 */

export type PreloadableComponent<P extends object> = ComponentType<P> & {
  /** Starts loading the chunk (once; a failed load may be tried again). */
  preload: () => Promise<ComponentType<P>>;
};

/**
 * Like React.lazy, with `preload()`. Once the chunk is loaded the screen renders at once, without
 * suspending even for a moment: the promise carries its result the way React's `use` reads it
 * (`status`, `value`), whereas React.lazy suspends on its first render however early the import
 * was started, which shows the Suspense fallback for a frame. Render it inside <Suspense>.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  /** The load's outcome, written on the promise as React's `use` reads it. */
  const settled = (promise: Promise<unknown> | null) =>
    promise as { status?: 'fulfilled' | 'rejected' | 'pending'; reason?: unknown; waitedFor?: boolean } | null;
  const preload = () => {
    // A failed load is tried again by the next preload (idle, intent, a later visit).
    if (!loading || settled(loading)?.status === 'rejected') {
      const tracked: Promise<ComponentType<P>> = load().then(
        (component) => {
          Object.assign(tracked, { status: 'fulfilled', value: component });
          return component;
        },
        (error: unknown) => {
          Object.assign(tracked, { status: 'rejected', reason: error });
          throw error;
        },
      );
      loading = tracked;
    }
    return loading;
  };
  function Preloadable(props: P) {
    // A load a render waited for that failed goes to the nearest error boundary (LoadBoundary,
    // whose Retry preloads again). Rendering never starts a new load after such a failure: React
    // renders again after an error, and each render would start one more load, each failing in
    // turn. A failed preload nobody waited for (idle, intent) is simply tried again.
    const current = settled(loading);
    if (current?.status === 'rejected' && current.waitedFor) throw current.reason;
    const promise = preload();
    const state = settled(promise);
    if (state && state.status !== 'fulfilled') state.waitedFor = true;
    // The same component every time: the module's export, loaded once.
    const Component = use(promise);
    // eslint-disable-next-line react-hooks/static-components -- not created here, only looked up
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}

/** Runs `task` when the browser is idle (or soon, where it cannot say); returns a cancel function. */
export function whenIdle(task: () => void, timeoutMs = 2_000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}

/**
 * Once `ready` (a list shows), loads `screen`'s chunk while the browser has nothing else to do.
 * A failed load is left for the screen's own first render to try again.
 */
export function usePreloadWhenIdle(screen: { preload: () => Promise<unknown> }, ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    return whenIdle(() => void screen.preload().catch(() => undefined));
  }, [screen, ready]);
}

/** How long the pointer rests on a card before it counts: a pointer crossing the grid loads nothing. */
export const HOVER_INTENT_MS = 60;

export interface IntentHandlers {
  onPointerEnter: (event: PointerEvent) => void;
  onPointerLeave: (event: PointerEvent) => void;
  onPointerDown: (event: PointerEvent) => void;
  onFocus: (event: FocusEvent) => void;
}

/**
 * Event handlers for a link that call `onIntent` when the person is about to open it: once the
 * pointer has rested on it for HOVER_INTENT_MS, or at once on a press or keyboard focus.
 */
export function useIntent(onIntent: (() => void) | undefined): IntentHandlers | undefined {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onIntent);
  useEffect(() => {
    latest.current = onIntent;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!onIntent) return undefined;
  const now = () => {
    clearTimeout(timer.current);
    latest.current?.();
  };
  return {
    onPointerEnter: () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(now, HOVER_INTENT_MS);
    },
    onPointerLeave: () => clearTimeout(timer.current),
    onPointerDown: now,
    onFocus: now,
  };
}

/**
 * The same intent as useIntent, for every item of a list at once (issue 16): four listeners on
 * the list element (put the returned ref on it) instead of four on each card, which made the
 * first render of a page of cards measurably longer. An item is the closest element inside the
 * list that has the `itemAttribute` (e.g. 'data-product-id'); `onIntent` gets that attribute's
 * value: after the pointer has rested on the item for HOVER_INTENT_MS, or at once on a press or
 * keyboard focus inside it.
 */
export function useIntentWithin(
  itemAttribute: string,
  onIntent: (value: string) => void,
): (element: HTMLElement | null) => void {
  const [list, setList] = useState<HTMLElement | null>(null);
  const latest = useRef(onIntent);
  useEffect(() => {
    latest.current = onIntent;
  });
  useEffect(() => {
    if (!list) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hovered: Element | null = null;
    const itemOf = (target: EventTarget | null): Element | null => {
      const item = target instanceof Element ? target.closest(`[${itemAttribute}]`) : null;
      return item && list.contains(item) ? item : null;
    };
    const fire = (item: Element) => {
      clearTimeout(timer);
      const value = item.getAttribute(itemAttribute);
      if (value !== null) latest.current(value);
    };
    const onOver = (event: Event) => {
      const item = itemOf(event.target);
      if (item === hovered) return;
      clearTimeout(timer);
      hovered = item;
      if (item) timer = setTimeout(() => fire(item), HOVER_INTENT_MS);
    };
    const onOut = (event: Event) => {
      const next = itemOf((event as globalThis.PointerEvent).relatedTarget);
      if (next === hovered) return;
      clearTimeout(timer);
      hovered = null;
    };
    const onNow = (event: Event) => {
      const item = itemOf(event.target);
      if (item) fire(item);
    };
    list.addEventListener('pointerover', onOver);
    list.addEventListener('pointerout', onOut);
    list.addEventListener('pointerdown', onNow);
    list.addEventListener('focusin', onNow);
    return () => {
      clearTimeout(timer);
      list.removeEventListener('pointerover', onOver);
      list.removeEventListener('pointerout', onOut);
      list.removeEventListener('pointerdown', onNow);
      list.removeEventListener('focusin', onNow);
    };
  }, [list, itemAttribute]);
  return setList;
}

/** How long the first render waits for the opened screen's chunk at most (then it shows its loading state). */
export const LANDING_WAIT_MS = 3_000;

/**
 * Runs `render` once the opened screen's chunk (`landing`: its preload, or nothing for a screen in
 * the entry) has loaded or failed, or after `waitMs`. The app's first render then finds the screen
 * ready instead of suspending on it: a screen that suspends shows its loading state, and React
 * holds back the screen that replaces a loading state for 300 ms after the loading state appeared
 * (its Suspense throttle), which delayed the admin Orders page's first content by 0.3 s whenever
 * the session check answered before the screen's chunk had arrived. The page shows the same
 * loading state meanwhile (index.html's boot markup); a failed load renders at once, and the
 * screen's own LoadBoundary offers Retry.
 */
export function renderWhenLandingReady(
  landing: Promise<unknown> | undefined,
  render: () => void,
  waitMs = LANDING_WAIT_MS,
): void {
  if (!landing) {
    render();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    render();
  };
  const timer = setTimeout(once, waitMs);
  landing.then(once, once);
}
