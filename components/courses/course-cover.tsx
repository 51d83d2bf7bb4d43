"use client";

import { useCallback, useState } from "react";

/** What a card shows where a course has no cover, or its cover did not load: the accent's soft gradient. */
const NO_COVER = "bg-gradient-to-br from-accent-soft to-surface-muted";

/**
 * A course's cover, from the site's image host. A cover that does not load (gone from the host, the host
 * down, not an image) gives way to the gradient of a course without one, never the browser's broken-image
 * mark. A cover that failed before the page was interactive fired its `error` event with no one listening:
 * once mounted, a finished image is checked with `decode()`, which rejects for a broken one (HTML, "The img
 * element", decode()). Decorative: the course's name is the card's heading.
 */
export function CourseCover({ src, className }: { src: string | null; className: string }) {
  // The address that failed: a card given another cover tries that one.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const brokenBeforeMount = useCallback((image: HTMLImageElement | null) => {
    if (!image?.complete) return;
    const tried = image.getAttribute("src");
    image.decode().catch(() => setFailedSrc(tried));
  }, []);
  if (!src || failedSrc === src) return <div aria-hidden="true" className={`${className} ${NO_COVER}`} />;
  return (
    // Course covers come from the site's own CDN, whose hosts are not known at build time for next/image.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      ref={brokenBeforeMount}
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailedSrc(src)}
      className={`${className} object-cover`}
    />
  );
}
