"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { siteInfoQueryOptions } from "@/lib/client/queries";

import { AppShell } from "./app-shell";
import { SiteInfoProvider } from "./site-info";

/**
 * The frame of the prerendered signed-out page: the app shell without navigation, and the site's name,
 * address and framing origins, which the build cannot know (SITE_URL, EMBED_ORIGINS and the site's own
 * metadata are read at run time), asked for once the page is in the browser (`GET /api/site`).
 */
export function SignedOutShell({ embedded, children }: { embedded: boolean; children: ReactNode }) {
  const { data: site, isError } = useQuery(siteInfoQueryOptions());
  return (
    <SiteInfoProvider site={site ? { name: site.name, url: site.url } : null} unavailable={isError}>
      <AppShell showNav={false} embedded={embedded} parentOrigins={site?.embedOrigins}>
        {children}
      </AppShell>
    </SiteInfoProvider>
  );
}
