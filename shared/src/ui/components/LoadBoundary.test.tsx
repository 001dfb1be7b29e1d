import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadBoundary } from './LoadBoundary';
import { lazyWithPreload } from '../hooks/preload';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A part whose chunk fails to load `failures` times, then loads. */
function flakyPart(failures: number) {
  const part = { attempts: 0 };
  const Part = lazyWithPreload(async () => {
    part.attempts += 1;
    if (part.attempts <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return () => <p>The part</p>;
  });
  return Object.assign(part, { Part });
}

/** Renders the page; awaited in act, since React 19 waits inside act for what suspends only when it is awaited. */
async function renderPage({ Part }: ReturnType<typeof flakyPart>) {
  await act(async () => {
    render(
      <main>
        <h1>The page</h1>
        <LoadBoundary
          title="The part could not be loaded"
          retry={Part.preload}
          wrap={(banner) => <section data-testid="card">{banner}</section>}
        >
          <Suspense fallback={<p>Loading the part…</p>}>
            <Part />
          </Suspense>
        </LoadBoundary>
      </main>,
    );
  });
}

describe('LoadBoundary with a lazyWithPreload part', () => {
  // React reports each caught error on the console; the tests read what the person sees instead.
  const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

  it('says a part whose code failed to load could not be loaded, in its card; Retry loads it once more', async () => {
    quiet();
    const flaky = flakyPart(1);
    await renderPage(flaky);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The part could not be loaded');
    expect(alert.textContent).toContain('Check your connection, then try again.');
    expect(screen.getByTestId('card').contains(alert)).toBe(true);
    expect(screen.getByRole('heading', { name: 'The page' })).toBeTruthy();
    // Rendering again after the failure (React does, after an error) started no load of its own.
    expect(flaky.attempts).toBe(1);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The part')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(flaky.attempts).toBe(2);
  });

  it('a Retry that fails again says so again, and the next one can still succeed', async () => {
    quiet();
    const flaky = flakyPart(2);
    await renderPage(flaky);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('button', { name: 'Retry' })).hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('alert').textContent).toContain('The part could not be loaded');
    expect(flaky.attempts).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The part')).toBeTruthy();
    expect(flaky.attempts).toBe(3);
  });

  it('shows its part unchanged when nothing fails', async () => {
    const flaky = flakyPart(0);
    await renderPage(flaky);
    expect(screen.getByText('The part')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failed preload that no page waited for (idle, hover) is tried again when the part is shown', async () => {
    const flaky = flakyPart(1);
    await expect(flaky.Part.preload()).rejects.toThrow('Failed to fetch');
    await renderPage(flaky);
    expect(await screen.findByText('The part')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(flaky.attempts).toBe(2);
  });
});
