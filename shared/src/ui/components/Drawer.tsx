import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { CloseIcon } from './icons';

export interface DrawerProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name. */
  label?: string;
  id?: string;
  children: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The side drawer: an overlay over the content (never pushes it), 200px wide from 500px up and the
 * full width below 500px, bordered, with a backdrop that closes it, a close button and Escape.
 * It is a modal dialog: focus moves into it when it opens, Tab stays inside, and focus returns to
 * whatever opened it (the menu button) when it closes.
 */
export function Drawer({ open, onClose, label = 'Menu', id = 'app-drawer', children }: DrawerProps) {
  if (!open) return null;
  return (
    <DrawerPanel onClose={onClose} label={label} id={id}>
      {children}
    </DrawerPanel>
  );
}

function DrawerPanel({ onClose, label, id, children }: Omit<DrawerProps, 'open'> & { label: string; id: string }) {
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  // A layout effect: the opener is read, and focus moved, in the task that opened the drawer.
  // Preact runs plain effects a frame later, when a fast keyboard may already be inside it.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    document.body.classList.add('has-drawer');
    return () => {
      document.body.classList.remove('has-drawer');
      if (opener && opener.isConnected) opener.focus();
    };
  }, []);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="drawer-layer">
      <div className="drawer-backdrop" data-testid="drawer-backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={panelRef}
        id={id}
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-label={label}
        onKeyDown={trapTab}
      >
        <div className="drawer__header">
          <span className="drawer__heading">{label}</span>
          <button ref={closeRef} type="button" className="icon-button" aria-label="Close menu" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="drawer__body">{children}</div>
      </div>
    </div>
  );
}
