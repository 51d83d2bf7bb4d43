"use client";

import { createContext, use, type ReactNode } from "react";

/** The site the dashboard serves: its name as the site gives it (null when it gives none) and its address. */
export interface SiteInfo {
  name: string | null;
  url: string;
}

const SiteInfoContext = createContext<SiteInfo | null>(null);
const SiteInfoUnavailableContext = createContext(false);

/**
 * Hands the site's name and address (read on the server, lib/auth/site-name.ts) to the pages' links and
 * sentences; null while the prerendered signed-out page is still asking for them (signed-out-shell.tsx),
 * and for good, with `unavailable`, when that request failed.
 */
export function SiteInfoProvider({
  site,
  unavailable = false,
  children,
}: {
  site: SiteInfo | null;
  unavailable?: boolean;
  children?: ReactNode;
}) {
  return (
    <SiteInfoContext value={site}>
      <SiteInfoUnavailableContext value={unavailable}>{children}</SiteInfoUnavailableContext>
    </SiteInfoContext>
  );
}

/** The site's name and address; null outside the provider, or while they are not known yet. */
export function useSiteInfo(): SiteInfo | null {
  return use(SiteInfoContext);
}

/** Whether the site's name and address could not be had: a sentence about the site then says "the site". */
export function useSiteInfoUnavailable(): boolean {
  return use(SiteInfoUnavailableContext);
}

/** The site's pages the dashboard links to when a list is empty: its course catalog and its events. */
export function sitePageUrl(site: SiteInfo, page: "courses" | "events"): string {
  return new URL(`/${page}`, site.url).toString();
}
