'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * A supplier's picture, on the supplier's host; when it does not load (missing, offline) the
 * product's initial stands in, so a card never shows a broken image. An image that failed before
 * the page was hydrated fired its error event before React listened: the effect checks for that.
 */
export function ProductImage({ src, name, large }: { src: string | null; name: string; large?: boolean }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  if (!src || failed)
    return (
      <span className={large ? 'placeholder large' : 'placeholder'} aria-hidden>
        {name.slice(0, 1)}
      </span>
    );
  return (
    <img
      ref={ref}
      src={src}
      alt={large ? name : ''}
      loading={large ? 'eager' : 'lazy'}
      onError={() => setFailed(true)}
    />
  );
}
