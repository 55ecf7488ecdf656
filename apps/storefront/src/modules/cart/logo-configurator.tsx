'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Lang } from '@lib/i18n';
import { addConfiguredLineAction, type AddState } from './actions';
import { cartTexts } from './texts';

/** The modal's SERVICE_LOGO_ADD_TO_ORDER message (spec 3), the fields the cart uses. */
interface AddToOrder {
  type: 'SERVICE_LOGO_ADD_TO_ORDER';
  transactionId: string;
  productSku: string;
  variantSku?: string;
  quantity?: number;
  techniqueCode: string;
  logoConfig?: { position?: string; colors?: string[] };
  screenshotUrl?: string;
  pdfUrl?: string;
}

/**
 * "Customize with your logo": runs the preflight, opens the logo modal (spec 3) in an iframe
 * with its URL parameters, and listens to its messages. The modal is served on the shop's own
 * host (the proxy routes /modal and its /api paths there), so its origin is this page's origin:
 * a message counts only when it comes from that origin and from this iframe's window. On
 * 'Add to Order' the configured line goes into the cart; on close the shopper goes to the cart.
 * Cancel closes the modal and leaves the cart as it was.
 */
export function LogoConfigurator({
  sku,
  variant,
  quantity,
  lang,
}: {
  sku: string;
  variant: string;
  quantity: number;
  lang: Lang;
}) {
  const tx = cartTexts(lang);
  const router = useRouter();
  const frame = useRef<HTMLIFrameElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const added = useRef<Promise<AddState> | null>(null);

  const close = useCallback(() => {
    setSrc(null);
    const pending = added.current;
    added.current = null;
    if (!pending) return;
    void pending.then((res) => {
      if (res.ok) router.push(`/${lang}/cart`);
      else setError(res.error ?? 'error');
    });
  }, [lang, router]);

  useEffect(() => {
    if (!src) return;
    const onMessage = (event: MessageEvent) => {
      // Spec 3: only the modal's origin, and only our own iframe.
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { type?: unknown } | null;
      if (!data || typeof data !== 'object') return;
      switch (data.type) {
        case 'SERVICE_LOGO_ADD_TO_ORDER': {
          const m = data as AddToOrder;
          added.current = addConfiguredLineAction({
            sku: m.productSku,
            variantSku: m.variantSku,
            quantity: typeof m.quantity === 'number' && m.quantity > 0 ? m.quantity : quantity,
            transactionId: m.transactionId,
            techniqueCode: m.techniqueCode,
            position: m.logoConfig?.position,
            colors: m.logoConfig?.colors,
            pdfUrl: m.pdfUrl,
            screenshotUrl: m.screenshotUrl,
          });
          break;
        }
        case 'CLOSE_MODAL':
        case 'CONFIGURATION_CANCELLED':
          close();
          break;
        default:
          break;
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('message', onMessage);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('keydown', onKey);
    };
  }, [src, quantity, close]);

  async function open() {
    setError(null);
    setBusy(true);
    try {
      // The preflight (spec 3): the modal opens only for a product with template and coordinates.
      const res = await fetch(`/api/config-check/${encodeURIComponent(sku)}`, { cache: 'no-store' });
      const check = res.ok ? ((await res.json()) as { available?: boolean }) : { available: false };
      if (!check.available) {
        setError(tx.notConfigurable);
        return;
      }
      const params = new URLSearchParams({ sku, quantity: String(quantity), source: 'storefront' });
      if (variant) params.set('variant', variant);
      setSrc(`/modal/?${params.toString()}`);
    } catch {
      setError(tx.notConfigurable);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="secondary" onClick={open} disabled={busy} data-testid="customize">
        {tx.customize}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {src && (
        <div
          className="logo-modal-backdrop"
          role="dialog"
          aria-modal="true"
          aria-label={tx.configuratorTitle}
        >
          <div className="logo-modal-frame">
            <button type="button" className="logo-modal-close" onClick={close} aria-label={tx.close}>
              ×
            </button>
            <iframe ref={frame} src={src} title={tx.configuratorTitle} data-testid="logo-modal" />
          </div>
        </div>
      )}
    </>
  );
}
