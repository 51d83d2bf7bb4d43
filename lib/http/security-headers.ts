import "server-only";

import { getConfig, type AppConfig } from "@/lib/config";

import { decodeRepeatedly } from "@/lib/contract/percent-decoding";
import { PAGE_PATHS } from "@/lib/contract/paths";

/**
 * Pages that must never be framed (RFC 9700 section 4.16, clickjacking). The sign-in routes under
 * /api/auth are never framable either, through next.config.mjs.
 */
export function isNeverFramable(pathname: string): boolean {
  return canonicalPath(pathname) === PAGE_PATHS.signInProblem || isPopupPage(pathname);
}

/**
 * Pages the embedded dashboard opens as popups, or where its popup sign-in may stop (the sign-in problem
 * page, whose "try again" resumes that popup sign-in): they must keep their opener to post back to it.
 */
export function isPopupPage(pathname: string): boolean {
  const path = canonicalPath(pathname);
  return path === PAGE_PATHS.popupDone || path === PAGE_PATHS.revoke || path === PAGE_PATHS.signInProblem;
}

/**
 * The path as the router may read it, so that `/settings/revoke/`, `/settings/%72evoke`,
 * `//settings/revoke` or `/Settings/Revoke` get the policy of `/settings/revoke` (OWASP ASVS 5 V3.4.6:
 * the framing policy must not depend on how the URL was spelled).
 */
export function canonicalPath(pathname: string): string {
  let path = decodeRepeatedly(pathname) ?? pathname;
  path = path.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  // Dot segments (`/settings/%2e/revoke` once decoded): resolved the way a URL parser does.
  path = new URL(path, "http://canonical.invalid").pathname;
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return path.toLowerCase();
}

/**
 * The Content-Security-Policy of a page rendered per request: scripts only with this request's nonce,
 * `frame-ancestors` from EMBED_ORIGINS (or 'none' for routes never to be framed), images from the site
 * (course covers).
 */
export function contentSecurityPolicy(nonce: string, pathname: string, development: boolean): string {
  return pagePolicy(pathname, {
    scripts: `'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    styleElements: `'self' 'nonce-${nonce}'${development ? " 'unsafe-inline'" : ""}`,
  });
}

/**
 * The Content-Security-Policy of a prerendered page (the signed-out page's copies), which has no nonce:
 * each inline script of its HTML by the SHA-256 of its text, written at build time
 * (scripts/static-page-hashes.ts), and the build's chunks by their folder on the dashboard's origin.
 * No 'self' for scripts (no other script of the origin), no 'unsafe-inline', no 'strict-dynamic' (it would
 * trust what a trusted script inserts, from anywhere; and Next.js's client writes some chunk tags without
 * the integrity that hashes with 'strict-dynamic' would need). Without the page's hashes: no script at all.
 */
export function prerenderedPagePolicy(scriptHashes: readonly string[] | undefined, pathname: string): string {
  const chunks = `${new URL(getConfig().appUrl).origin}/_next/static/chunks/`;
  return pagePolicy(pathname, {
    scripts: scriptHashes ? [...scriptHashes.map((hash) => `'${hash}'`), chunks].join(" ") : "'none'",
    styleElements: "'self'",
  });
}

/**
 * The origins besides the dashboard's own that the pages take images from: the site's and SITE_IMAGE_ORIGINS
 * (the course covers; lib/account-api/cover-url.ts gives the pages only covers from these).
 */
export function imageOrigins(config: Pick<AppConfig, "siteUrl" | "siteImageOrigins">): string[] {
  return [config.siteUrl, ...config.siteImageOrigins];
}

/**
 * Whether the pages' policy says `upgrade-insecure-requests`: a dashboard served over https (its cookies are
 * then Secure) has the browser ask for every http image over https (lib/account-api/cover-url.ts reads it too).
 */
export function upgradesInsecureRequests(config: Pick<AppConfig, "secureCookies">): boolean {
  return config.secureCookies;
}

function pagePolicy(pathname: string, sources: { scripts: string; styleElements: string }): string {
  const config = getConfig();
  // Exactly the embedding site's origins: the dashboard never frames itself, so no 'self' (OWASP ASVS 5 V3.4.6).
  const frameAncestors = isNeverFramable(pathname) ? "'none'" : config.embedOrigins.join(" ");
  return [
    "default-src 'self'",
    `script-src ${sources.scripts}`,
    `style-src-elem ${sources.styleElements}`,
    // Inline style attributes only (progress bars' widths); style elements still need the nonce.
    "style-src-attr 'unsafe-inline'",
    // The site's own images and, when its covers are on a CDN of another host, exactly the origins listed.
    ["img-src 'self' data: blob:", ...imageOrigins(config)].join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
    ...(upgradesInsecureRequests(config) ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * The headers of a page that depend on its path (OWASP ASVS 5 V3.4). Those of every response (nosniff,
 * HSTS, Referrer-Policy, Permissions-Policy) come from next.config.mjs, for every path.
 */
export function baseSecurityHeaders(pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // COOP would sever a popup from the embedded dashboard that opened it; elsewhere it isolates our pages.
  if (!isPopupPage(pathname)) headers["cross-origin-opener-policy"] = "same-origin-allow-popups";
  if (isNeverFramable(pathname)) headers["x-frame-options"] = "DENY";
  return headers;
}
