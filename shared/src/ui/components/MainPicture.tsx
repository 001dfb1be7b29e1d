import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/**
 * The page's main picture first (issue 16). On a page whose largest paint is a product picture
 * (the customer's share page, a product detail), what the picture does not need waits until it
 * has been shown: the Buy form's code and its payment config, the description's sanitizer, the
 * carousel's other pictures. Before, they were fetched beside the picture and shared a slow
 * connection with it (some 26 KiB on the share page: about 130 ms at the bench's 1.6 Mbit/s).
 *
 * `MainPictureFirst` wraps the content that shows the picture. The picture (a `ProductImage` with
 * `priority`) carries `elementtiming`, and the gate opens when the browser reports it shown. Where
 * the browser has no Element Timing, it opens two frames after the picture is decoded; for a
 * placeholder (no picture, or one that failed), two frames after it renders; and in every case at
 * the latest `waitMs` after the content first rendered, so a slow or stalled picture holds
 * nothing back for long. Opening on the load event was too early: the requests then went out
 * before the frame with the picture reached the screen, and still shared the connection with the
 * largest paint. `useAfterMainPicture()` says whether the gate is open; outside a
 * `MainPictureFirst` it is always open, so other screens behave as before.
 */

/** How the main picture reports: it has loaded (decoded), or it is a placeholder (none, or it failed). */
export type PictureState = 'loaded' | 'placeholder';

interface Gate {
  open: boolean;
  settle: (state: PictureState) => void;
}

const MainPictureContext = createContext<Gate | null>(null);

/** The longest the rest waits for the main picture (from the content's first render). */
export const MAIN_PICTURE_WAIT_MS = 1000;

/** The main picture's `elementtiming` name: the browser reports when it was shown. */
export const MAIN_PICTURE_TIMING = 'main-picture';

/** Whether the browser reports when an element was shown (Element Timing: Chromium). */
function hasElementTiming(): boolean {
  return (
    typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('element')
  );
}

/**
 * Runs `fn` once the next frame has been shown: in a task after two animation frames (the first
 * frame's paint reaches the screen before the second begins). Returns a canceller.
 */
function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => {
      timer = setTimeout(fn, 0);
    });
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

export function MainPictureFirst({
  children,
  waitMs = MAIN_PICTURE_WAIT_MS,
}: {
  children: ReactNode;
  waitMs?: number;
}) {
  const [settled, setSettled] = useState<PictureState | null>(null);
  const [open, setOpen] = useState(false);
  // At the latest waitMs after the content first rendered.
  useEffect(() => {
    if (open) return;
    const timer = setTimeout(() => setOpen(true), waitMs);
    return () => clearTimeout(timer);
  }, [open, waitMs]);
  // Where the browser says when the picture was shown (its entry comes after that frame is on
  // the screen), that is the signal; buffered, so an entry from before this effect counts.
  useEffect(() => {
    if (open || !hasElementTiming()) return;
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => (entry as { identifier?: string }).identifier === MAIN_PICTURE_TIMING)) {
        setOpen(true);
      }
    });
    observer.observe({ type: 'element', buffered: true });
    return () => observer.disconnect();
  }, [open]);
  // Otherwise (and for a placeholder, which the browser does not report): once a frame is shown.
  useEffect(() => {
    if (!settled || open || (settled === 'loaded' && hasElementTiming())) return;
    return afterNextPaint(() => setOpen(true));
  }, [settled, open]);
  const settle = useCallback((state: PictureState) => setSettled(state), []);
  const gate = useMemo(() => ({ open, settle }), [open, settle]);
  return <MainPictureContext.Provider value={gate}>{children}</MainPictureContext.Provider>;
}

/** Whether what waits for the main picture may load now (always, outside a `MainPictureFirst`). */
export function useAfterMainPicture(): boolean {
  return useContext(MainPictureContext)?.open ?? true;
}

/** For the main picture: what to call once it is loaded (decoded) or a placeholder; nothing outside a gate. */
export function useSettleMainPicture(): ((state: PictureState) => void) | undefined {
  return useContext(MainPictureContext)?.settle;
}
