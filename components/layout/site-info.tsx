"use client";

import { createContext, use, type ReactNode } from "react";

/** The site the dashboard serves: its name as the site gives it (null when it gives none) and its address. */
export interface SiteInfo {
  name: string | null;
  url: string;
}

const SiteInfoContext = createContext<SiteInfo | null>(null);

/**
 * Hands the site's name and address (read on the server, lib/auth/site-name.ts) to the pages' links and
 * sentences; null while the prerendered signed-out page is still asking for them (signed-out-shell.tsx).
 */
export function SiteInfoProvider({ site, children }: { site: SiteInfo | null; children: ReactNode }) {
  return <SiteInfoContext value={site}>{children}</SiteInfoContext>;
}

/** The site's name and address; null outside the provider, or while they are not known yet. */
export function useSiteInfo(): SiteInfo | null {
  return use(SiteInfoContext);
}

/** The site's pages the dashboard links to when a list is empty: its course catalog and its events. */
export function sitePageUrl(site: SiteInfo, page: "courses" | "events"): string {
  return new URL(`/${page}`, site.url).toString();
}
