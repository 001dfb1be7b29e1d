import { AlertIcon } from './icons';

export interface ErrorBannerProps {
  /** What went wrong, in words (an ApiError's message). */
  message: string;
  title?: string;
  /** 'h1' when the banner is all the screen shows (its title is then the page's heading). */
  titleAs?: 'p' | 'h1';
  onRetry?: () => void;
  retrying?: boolean;
  onDismiss?: () => void;
}

/** A failed call, told to the person: role="alert" so it is announced when it appears. */
export function ErrorBanner({
  message,
  title,
  titleAs: Title = 'p',
  onRetry,
  retrying = false,
  onDismiss,
}: ErrorBannerProps) {
  return (
    <div className="banner banner--error" role="alert">
      <AlertIcon className="banner__icon" />
      <div className="banner__body">
        {title ? <Title className="banner__title">{title}</Title> : null}
        <p className="banner__message">{message}</p>
      </div>
      {onRetry || onDismiss ? (
        <div className="banner__actions">
          {onRetry ? (
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={onRetry}
              disabled={retrying}
            >
              {retrying ? 'Retrying…' : 'Retry'}
            </button>
          ) : null}
          {onDismiss ? (
            <button type="button" className="button button--ghost button--small" onClick={onDismiss}>
              Dismiss
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
