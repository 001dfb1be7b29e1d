import { useEffect, useId, useState } from 'react';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';
import { ShareIcon } from '@portal/shared/ui/components/icons';
import { copyText } from '@portal/shared/ui/components/ShareButton';

/**
 * The member app's public page a share link opens: `/shop/<productId>?ref=<shareCode>` (the app's
 * SHOP_ROUTE). Here rather than beside the API's schemas: the detail screen then loads no schema
 * code (zod) to show a product and its link.
 */
export const shareLinkPath = (productId: string, shareCode: string): string =>
  `/shop/${encodeURIComponent(productId)}?ref=${encodeURIComponent(shareCode)}`;

/** The member's personal link to a product: the customer's shop page with their share code. */
export function personalLink(productId: string, shareCode: string, origin = window.location.origin): string {
  return `${origin}${shareLinkPath(productId, shareCode)}`;
}

/**
 * 'Share' on the member's product detail: the member's personal link (orders through it earn them
 * the commission). The button opens the device's share sheet where there is one (Web Share API),
 * otherwise copies the link and says "Link copied"; the link also shows in a read-only field with
 * its own Copy button. Without a share code yet, it says so.
 */
export function ShareLink({ productId, productName }: { productId: string; productName: string }) {
  const { userProfile } = useAuth();
  const fieldId = useId();
  const [status, setStatus] = useState<string>('');
  const shareCode = userProfile?.shareCode ?? null;

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(''), 4000);
    return () => clearTimeout(timer);
  }, [status]);

  if (!shareCode) {
    return (
      <p className="share__status share-link__none" role="status">
        Your share link is not ready yet: you have no share code. Reload the page in a moment.
      </p>
    );
  }
  const link = personalLink(productId, shareCode);

  const copy = async () => {
    const outcome = await copyText(link);
    setStatus(outcome === 'copied' ? 'Link copied' : 'Copy the link from the field below.');
  };

  const share = async () => {
    const data = { title: productName, text: productName, url: link };
    if (typeof navigator.share === 'function' && (!navigator.canShare || navigator.canShare(data))) {
      try {
        await navigator.share(data);
        setStatus('Link shared');
        return;
      } catch (error) {
        // The person closed the share sheet: nothing to say.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    await copy();
  };

  return (
    <div className="share share-link">
      <button type="button" className="button button--secondary button--small" onClick={() => void share()}>
        <ShareIcon className="button__icon" />
        Share
      </button>
      <p className="share__status" role="status" aria-live="polite">
        {status}
      </p>
      <div className="share-link__field">
        <label className="field__label" htmlFor={fieldId}>
          Your link
        </label>
        <div className="share-link__row">
          <input
            id={fieldId}
            className="field__input"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="button button--ghost button--small" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      </div>
    </div>
  );
}
