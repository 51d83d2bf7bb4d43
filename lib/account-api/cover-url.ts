import "server-only";

import type { AppConfig } from "@/lib/config";
import { imageOrigins, upgradesInsecureRequests } from "@/lib/http/security-headers";
import { logEvent } from "@/lib/log/logger";
import { processWide } from "@/lib/server/process-wide";

import { httpUrl } from "./lecture-url";

/** Where the pages' Content Security Policy lets an image come from (its `img-src`), read once per configuration. */
export interface CoverSources {
  /** The dashboard's own origin ('self'), the site's and SITE_IMAGE_ORIGINS, each parsed. */
  origins: readonly URL[];
  /** The policy says `upgrade-insecure-requests` (an https APP_URL): the browser asks for an http cover over https. */
  upgradesInsecure: boolean;
}

const sourcesOfConfig = new WeakMap<object, CoverSources>();

export function coverSourcesOf(config: Pick<AppConfig, "appUrl" | "siteUrl" | "siteImageOrigins" | "secureCookies">): CoverSources {
  let sources = sourcesOfConfig.get(config);
  if (!sources) {
    sources = {
      origins: [config.appUrl, ...imageOrigins(config)].map((origin) => new URL(origin)),
      upgradesInsecure: upgradesInsecureRequests(config),
    };
    sourcesOfConfig.set(config, sources);
  }
  return sources;
}

/** The hosts named in a `site_image_unlisted` warning so far: one line per host and process, at most this many hosts. */
const MAX_WARNED_HOSTS = 20;
const warned = processWide("cover-url", () => ({ origins: new Set<string>() }));

/**
 * A course's cover as the pages may show it: an http(s) URL (one the site gives relative to itself read on
 * the site) that the pages' policy lets the browser load, else null, and the card shows the plain cover from
 * its first paint. A cover on a host the policy does not name would be refused by the browser anyway, with
 * an error in the member's console and nothing in the dashboard's log to tell the operator why every card
 * shows the plain cover: so the operator is told once per host, naming SITE_IMAGE_ORIGINS.
 */
export function coverUrl(value: string | null | undefined, siteUrl: string, sources: CoverSources): string | null {
  const url = httpUrl(value, siteUrl);
  if (!url) return null;
  if (isAllowedBy(sources, url)) return url.toString();
  if (!warned.origins.has(url.origin) && warned.origins.size < MAX_WARNED_HOSTS) {
    warned.origins.add(url.origin);
    logEvent("site_image_unlisted", { origin: url.origin, setting: "SITE_IMAGE_ORIGINS" }, "warn");
  }
  return null;
}

/**
 * Whether `img-src` lets the browser load `url`, as CSP Level 3 matches a URL against a host source (section
 * 6.7.2.7 to 6.7.2.9): the same host, the same port (none written: the scheme's own), and the same scheme or
 * http's upgrade to https. Under `upgrade-insecure-requests` an http URL is asked for over https first, its
 * port 80 becoming 443 (Upgrade Insecure Requests, section 4.1).
 */
function isAllowedBy(sources: CoverSources, url: URL): boolean {
  const scheme = sources.upgradesInsecure && url.protocol === "http:" ? "https:" : url.protocol;
  return sources.origins.some(
    (source) =>
      source.hostname === url.hostname &&
      source.port === url.port &&
      (source.protocol === scheme || (source.protocol === "http:" && scheme === "https:")),
  );
}

/** Tests only: warn again about hosts already named. */
export function forgetCoverWarningsForTests(): void {
  warned.origins.clear();
}
