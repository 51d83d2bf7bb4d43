import Link from "next/link";
import type { ComponentProps } from "react";

/**
 * A link to one of the dashboard's pages, never prefetched. Every page is rendered per request with the
 * member's data, so a prefetch can fetch only the route's tree and its layouts, which the click's own
 * request brings anyway: on Overview the tabs and its two "see all" links made eight prefetch requests
 * per page load, costing the server 18 ms of CPU against the page's own 7.9 ms (issue 26). A click still
 * answers at once: the link's pending state shows the page's skeleton (components/layout/pending-page.tsx).
 */
export function PageLink(props: Omit<ComponentProps<typeof Link>, "prefetch">) {
  return <Link {...props} prefetch={false} />;
}
