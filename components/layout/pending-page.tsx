"use client";

import { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

import { PageSkeleton } from "@/components/ui/page-skeleton";

import { NAV_ITEMS, type NavKey } from "./nav-items";

/**
 * The page an in-app link is opening, shown as that page's skeleton until it arrives.
 *
 * The pages have no `loading.tsx` on purpose: a route's loading state is a Suspense boundary around the
 * page, and on a document load React then sends the skeleton first and reveals the page's content no
 * sooner than 300 ms after the first paint (its reveal throttle, `$RC` in react-dom's server), although
 * the member's data is in the same HTML a few milliseconds later. Without the boundary the first paint
 * already shows the member's courses (issue 26, LCP). A tab click still shows the page's skeleton at once:
 * each link reports that it is pending (`useLinkStatus`), and the main area shows the skeleton of the page
 * the link opens instead of the page it leaves (kept mounted, hidden) until the router has the new page.
 */
interface PendingPageState {
  pendingPath: string | null;
  setPendingPath: (update: (current: string | null) => string | null) => void;
}

const PendingPageContext = createContext<PendingPageState | null>(null);

export function PendingPageProvider({ children }: { children: ReactNode }) {
  const [pendingPath, setPendingPath] = useState<string | null>(null);
  const state = useMemo(() => ({ pendingPath, setPendingPath }), [pendingPath]);
  return <PendingPageContext value={state}>{children}</PendingPageContext>;
}

/** The dashboard page a link's `href` opens (its path without the query), when it is one. */
function pageOf(path: string): NavKey | null {
  return NAV_ITEMS.find((item) => item.href === path)?.key ?? null;
}

/**
 * Inside a Next.js `Link` to `href` (PageLink puts it in every link to a page): reports whether its
 * navigation is pending, so the main area shows the skeleton of the page on the way.
 */
export function ReportLinkPending({ href }: { href: string }) {
  const { pending } = useLinkStatus();
  const setPendingPath = useContext(PendingPageContext)?.setPendingPath;
  const path = href.split("?")[0] ?? href;
  useEffect(() => {
    if (!pending || !setPendingPath) return;
    setPendingPath(() => path);
    // Done (the page arrived) or replaced by another link's navigation: only this link's report is withdrawn.
    return () => setPendingPath((current) => (current === path ? null : current));
  }, [pending, path, setPendingPath]);
  return null;
}

/** The path of a page on the way to replace the router's, or null. */
export function usePendingPath(): string | null {
  const routerPath = usePathname();
  const pendingPath = useContext(PendingPageContext)?.pendingPath ?? null;
  return pendingPath !== null && pendingPath !== routerPath && pageOf(pendingPath) !== null ? pendingPath : null;
}

/** Where the page renders: the skeleton of the page on the way while there is one (the page it leaves stays mounted, hidden). */
export function PendingOutlet({ children }: { children: ReactNode }) {
  const pendingPath = usePendingPath();
  const pendingPage = pendingPath === null ? null : pageOf(pendingPath);
  return (
    <>
      {pendingPage ? <PageSkeleton page={pendingPage} /> : null}
      <div hidden={pendingPage !== null} className="contents">
        {children}
      </div>
    </>
  );
}
