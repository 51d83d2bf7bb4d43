"use client";

import { interpolate, siteCalled } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";

import { sitePageUrl, useSiteInfo } from "./site-info";

/** A link to one of the site's pages (its catalog, its events), named with the site's name: an empty list's next step. */
export function SiteLink({ page, label }: { page: "courses" | "events"; label: string }) {
  const { messages } = useI18n();
  const site = useSiteInfo();
  if (!site) return null;
  return (
    <a className="btn btn-secondary mt-2" href={sitePageUrl(site, page)} target="_top">
      {interpolate(label, { site: siteCalled(messages, site.name) })}
    </a>
  );
}
