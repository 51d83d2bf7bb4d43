"use client";

import { useLinkStatus } from "next/link";

/**
 * Inside a navigation link: a bar that shows at once, while the page the link opens is on its way
 * (`useLinkStatus`), which the main area meanwhile shows as that page's skeleton (pending-page.tsx).
 * Decorative: the skeleton says "Loading" to assistive technology.
 */
export function LinkPending({ className = "" }: { className?: string }) {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      data-link-pending={pending ? "true" : undefined}
      className={`pointer-events-none absolute h-0.5 rounded-full bg-accent transition-opacity ${
        pending ? "animate-pulse opacity-100" : "opacity-0"
      } ${className}`}
    />
  );
}
