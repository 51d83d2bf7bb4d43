import "server-only";

import { readFileSync } from "node:fs";
import path from "node:path";

import type { NextRequest } from "next/server";

import { readEndSessionState } from "@/lib/auth/end-session";
import { getConfig } from "@/lib/config";
import { isSignedOutReason, PAGE_PATHS } from "@/lib/contract/paths";
import { sanitizeReturnTo } from "@/lib/contract/return-to";
import { signedOutCopyPath, signedOutNotice } from "@/lib/contract/signed-out-copies";
import { localeOfRequest } from "@/lib/i18n/locales";
import { logEvent } from "@/lib/log/logger";
import { readOnlyJar } from "@/lib/session/cookie-jar";
import { hasSessionCookie, loadSession } from "@/lib/session/session";

import { isFramedRequest } from "./embedding";
import { canonicalPath } from "./security-headers";
import { STATIC_PAGE_HASHES_FILE } from "./static-page-hashes-file";

/** Where the proxy sends a copy's own path asked for directly: no page has it, so the member's 404 answers. */
const COPY_NOT_SERVED = `${PAGE_PATHS.signedOut}/not-served`;

/**
 * Where the proxy sends a page request instead of its own path: a prerendered copy, a refusal (a 404), or
 * (redirected, not rewritten) back into the dashboard.
 */
export type PageRewrite =
  { kind: "prerendered_copy"; path: string } | { kind: "not_served"; path: string } | { kind: "signed_in"; path: string };

/**
 * What the proxy does with a page request's path: `/signed-out` is served from the prerendered copy that
 * fits the request, unless the member is signed in; a copy's own path (however spelled) is not served, so
 * that no address makes the page claim the site's sign-out without the `state` this dashboard sealed
 * (checklist case 63); any other path (null) is rendered as it is.
 */
export async function signedOutRewrite(request: NextRequest): Promise<PageRewrite | null> {
  const { pathname, searchParams } = request.nextUrl;
  if (pathname === PAGE_PATHS.signedOut) {
    if (await isSignedIn(request)) return { kind: "signed_in", path: sanitizeReturnTo(searchParams.get("returnTo"), getConfig().appUrl) };
    return { kind: "prerendered_copy", path: signedOutCopyPath(await signedOutCopyFor(request, searchParams)) };
  }
  return canonicalPath(pathname).startsWith(`${PAGE_PATHS.signedOut}/`) ? { kind: "not_served", path: COPY_NOT_SERVED } : null;
}

/**
 * The copy for this request: the member's language (cookie, then Accept-Language), the panel's copy
 * when the document is loaded in a frame, and what the page says from its query. Back from the site's
 * end-session endpoint (RP-Initiated Logout 1.0), only a `state` this dashboard sealed for a sign-out is
 * believed; a missing or changed one lands on the same page, which then claims nothing about the site.
 */
async function signedOutCopyFor(request: NextRequest, query: URLSearchParams) {
  const reason = query.get("reason");
  const state = query.get("state");
  const notice = signedOutNotice(isSignedOutReason(reason) ? reason : null, state === null ? undefined : await readEndSessionState(state));
  return {
    ...notice,
    locale: localeOfRequest(request),
    framing: isFramedRequest(request.headers) ? ("framed" as const) : ("page" as const),
  };
}

/**
 * A member signed in again (in another tab, another window of the panel) who opens or reloads the
 * signed-out page is not told they are signed out: they go back to the page it would have signed them in
 * to. A session this request cannot open, one ended elsewhere, or one the shared state cannot vouch for
 * (not answering) leaves the page as it is.
 */
async function isSignedIn(request: NextRequest): Promise<boolean> {
  const jar = readOnlyJar(request.cookies);
  if (!hasSessionCookie(jar)) return false;
  try {
    return (await loadSession(jar)) !== null;
  } catch {
    return false;
  }
}

let hashes: Record<string, string[]> | undefined;

/** The hashes of a prerendered page's inline scripts; undefined (and logged) when the build wrote none for it. */
export function prerenderedScriptHashes(pagePath: string): readonly string[] | undefined {
  if (!hashes) {
    try {
      hashes = JSON.parse(readFileSync(path.join(process.cwd(), ".next", STATIC_PAGE_HASHES_FILE), "utf8")) as Record<string, string[]>;
    } catch {
      hashes = {};
    }
  }
  const found = hashes[pagePath];
  if (!found) logEvent("prerendered_page_unhashed", { page: pagePath }, "error");
  return found;
}
