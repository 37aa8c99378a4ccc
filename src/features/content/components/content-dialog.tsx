import { useEffect, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { ContentIcon } from './content-icons';

const FOCUSABLE = 'a[href], button:not([disabled]), video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * A modal layer for the photo viewer and the video player: rendered over the page, Esc and the close
 * button close it, Tab stays inside, focus returns to where it came from, the page does not scroll under it.
 */
export function ContentDialog({
  label,
  onClose,
  onKeyDown,
  className,
  closeLabel,
  children,
}: {
  label: string;
  onClose: () => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  className?: string;
  closeLabel?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const handlers = useRef({ onClose, onKeyDown });
  useLayoutEffect(() => {
    handlers.current = { onClose, onKeyDown };
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        handlers.current.onClose();
        return;
      }
      if (event.key === 'Tab' && ref.current) {
        const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
        if (!items.length) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        } else if (!ref.current.contains(document.activeElement)) {
          event.preventDefault();
          first.focus();
        }
        return;
      }
      handlers.current.onKeyDown?.(event);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  return createPortal(
    <div className={className ? `content-dialog ${className}` : 'content-dialog'} role="presentation">
      <div className="content-dialog__backdrop" aria-hidden onClick={onClose} />
      <div className="content-dialog__panel" role="dialog" aria-modal="true" aria-label={label} ref={ref}>
        <button
          type="button"
          className="content-dialog__close"
          onClick={onClose}
          ref={closeRef}
          aria-label={closeLabel ?? t('content.gallery.close')}
        >
          <ContentIcon name="close" size={22} />
        </button>
        {children}
      </div>
    </div>,
    document.body,
  );
}
