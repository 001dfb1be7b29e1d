import { useEffect, useRef, type ReactNode } from 'react';
import '../styles/confirm.css';

export interface ConfirmFigure {
  label: string;
  value: string;
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What the action does, in words (the member, the card's last four). */
  children?: ReactNode;
  /** The amounts, each named (the amount, the fee, what arrives). */
  figures: readonly ConfirmFigure[];
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** The confirm button waits (what it names is still being read); Cancel stays available. */
  confirmDisabled?: boolean;
  /** Why the action was refused, shown in the dialog. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** The dismiss button's words (default "Cancel"), where the action itself is a cancel. */
  dismissLabel?: string;
}

/**
 * A money action's confirmation: a modal `<dialog>` (the browser keeps focus inside and Escape
 * closes it) naming what moves before anything moves. Focus goes to Cancel first, so Enter on
 * the opener never confirms by accident; the opener gets focus back when it closes.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { open, onCancel, busy } = props;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      cancelRef.current?.focus();
      return () => {
        if (opener?.isConnected) opener.focus();
      };
    }
    if (!open && dialog.open) {
      // A DOM without <dialog> methods (jsdom) has the attribute only.
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
    return undefined;
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape: the browser fires `cancel`; while the action runs the dialog stays.
    const onCancelEvent = (event: Event) => {
      event.preventDefault();
      if (!busy) onCancel();
    };
    dialog.addEventListener('cancel', onCancelEvent);
    return () => dialog.removeEventListener('cancel', onCancelEvent);
  }, [busy, onCancel]);

  const titleId = 'confirm-dialog-title';
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} aria-busy={busy}>
      {open ? (
        <div className="confirm-dialog__body">
          <h2 className="confirm-dialog__title" id={titleId}>
            {props.title}
          </h2>
          {props.children}
          <dl className="confirm-dialog__figures">
            {props.figures.map((figure) => (
              <div key={figure.label} className="confirm-dialog__figure">
                <dt>{figure.label}</dt>
                <dd>{figure.value}</dd>
              </div>
            ))}
          </dl>
          {props.error ? (
            <p className="confirm-dialog__error" role="alert">
              {props.error}
            </p>
          ) : null}
          <div className="confirm-dialog__actions">
            <button ref={cancelRef} type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
              {props.dismissLabel ?? 'Cancel'}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={props.onConfirm}
              disabled={busy || props.confirmDisabled === true}
              aria-busy={busy}
            >
              {busy ? props.busyLabel : props.confirmLabel}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
