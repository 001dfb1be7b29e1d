import { Component, Suspense, type ReactNode } from 'react';
import { ErrorBanner } from './ErrorBanner';
import { Loading } from './Loading';
import type { PreloadableComponent } from '../hooks/preload';

export interface LoadBoundaryProps {
  /** What could not be loaded, as the banner's title: 'The checkout could not be loaded'. */
  title: string;
  /** Asks for the part's code again (its `preload`); the banner says Retrying… until it settles. */
  retry: () => Promise<unknown>;
  /** Puts the banner where the part would be (its card); the banner alone without it. */
  wrap?: (banner: ReactNode) => ReactNode;
  children: ReactNode;
}

/**
 * Around a part of a page whose code is a chunk of its own, loaded after the page (a lost
 * connection, a deploy that replaced the chunk): when it fails, the part says so where it would
 * be, with Retry, instead of the whole page going blank. Retry asks for the chunk again (`retry`:
 * a `lazyWithPreload` component's `preload`), then renders the part again.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean; retrying: boolean }> {
  override state = { failed: false, retrying: false };

  static getDerivedStateFromError(): { failed: boolean; retrying: boolean } {
    return { failed: true, retrying: false };
  }

  private readonly onRetry = () => {
    this.setState({ retrying: true });
    // Rendered again once the code is here; failed again, the banner stays, ready for another Retry.
    this.props.retry().then(
      () => this.setState({ failed: false, retrying: false }),
      () => this.setState({ retrying: false }),
    );
  };

  override render() {
    const { title, wrap = (banner: ReactNode) => banner, children } = this.props;
    if (!this.state.failed) return children;
    return wrap(
      <ErrorBanner
        title={title}
        message="Check your connection, then try again."
        onRetry={this.onRetry}
        retrying={this.state.retrying}
      />,
    );
  }
}

/**
 * A screen that is a chunk of its own (`lazyWithPreload`): a loading state while the chunk
 * arrives, and, when it cannot be loaded, says so in the page with Retry. `props` are the screen's
 * own (a work list's `list`), required where the screen requires them.
 */
export function LazyScreen<P extends object = object>({
  screen: Screen,
  loadingLabel = 'Loading…',
  props,
}: {
  screen: PreloadableComponent<P>;
  loadingLabel?: string;
} & (object extends P ? { props?: NoInfer<P> } : { props: NoInfer<P> })) {
  return (
    <LoadBoundary title="This page could not be loaded" retry={Screen.preload}>
      <Suspense fallback={<Loading label={loadingLabel} />}>
        <Screen {...(props as P)} />
      </Suspense>
    </LoadBoundary>
  );
}
