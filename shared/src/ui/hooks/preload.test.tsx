import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWhenLandingReady } from './preload';

afterEach(() => {
  vi.useRealTimers();
});

/** A promise settled from outside. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('renderWhenLandingReady', () => {
  it('renders at once when the opened screen has no chunk of its own', () => {
    const render = vi.fn();
    renderWhenLandingReady(undefined, render);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('renders once the screen’s chunk has loaded, not before', async () => {
    const render = vi.fn();
    const chunk = deferred();
    renderWhenLandingReady(chunk.promise, render);
    await Promise.resolve();
    expect(render).not.toHaveBeenCalled();
    chunk.resolve();
    await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
  });

  it('renders when the chunk failed to load, so that the screen can say so with Retry', async () => {
    const render = vi.fn();
    const chunk = deferred();
    renderWhenLandingReady(chunk.promise, render);
    chunk.reject(new Error('Failed to fetch dynamically imported module'));
    await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
  });

  it('renders after the wait at most when the chunk is slow, and not again when it arrives', async () => {
    vi.useFakeTimers();
    const render = vi.fn();
    const chunk = deferred();
    renderWhenLandingReady(chunk.promise, render, 3_000);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(render).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(render).toHaveBeenCalledTimes(1);
    chunk.resolve();
    await vi.advanceTimersByTimeAsync(10);
    expect(render).toHaveBeenCalledTimes(1);
  });
});
