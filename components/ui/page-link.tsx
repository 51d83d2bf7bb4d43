import Link from "next/link";
import type { ComponentProps } from "react";

import { ReportLinkPending } from "@/components/layout/pending-page";

/**
 * A link to one of the dashboard's pages. Never prefetched: every page is rendered per request with the
 * member's data, so a prefetch can fetch only the route's tree and its layouts, which the click's own
 * request brings anyway: on Overview the tabs and its two "see all" links made eight prefetch requests
 * per page load, costing the server 18 ms of CPU against the page's own 7.9 ms (issue 26). A click still
 * answers at once: the link reports its pending state, and the main area shows the page's skeleton
 * (components/layout/pending-page.tsx).
 */
export function PageLink({ href, children, ...props }: Omit<ComponentProps<typeof Link>, "prefetch" | "href"> & { href: string }) {
  return (
    <Link {...props} href={href} prefetch={false}>
      {children}
      <ReportLinkPending href={href} />
    </Link>
  );
}
