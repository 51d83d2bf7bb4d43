import { NextResponse, type NextRequest } from "next/server";

import { isPrefetch } from "@/lib/auth/login";
import { isDocumentNavigation } from "@/lib/http/document-navigation";
import { refreshMemberSession } from "@/lib/auth/member-session";
import { apiErrorResponse, SHARED_STATE_RETRY_AFTER_SECONDS } from "@/lib/http/error-responses";
import { RequestError } from "@/lib/http/request-errors";
import { baseSecurityHeaders, contentSecurityPolicy, isPopupPage, prerenderedPagePolicy } from "@/lib/http/security-headers";
import { LOCALE_COOKIE, popupLocaleOf } from "@/lib/i18n/locales";
import { prerenderedScriptHashes, signedOutRewrite } from "@/lib/http/signed-out-page";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { handOffPageSession, PAGE_SESSION_TICKET_HEADER } from "@/lib/session/page-session-handoff";
import { loadSession, type SessionData } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";
import { getConfig } from "@/lib/config";
import { signedOutPath } from "@/lib/contract/paths";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";
import { runWithRequestId } from "@/lib/log/logger";

/**
 * Runs before every page: security headers with a per-request CSP nonce, and the token refresh a page
 * render needs. (API routes carry static security headers from next.config.mjs and refresh themselves.)
 * A Server Component cannot set cookies, so the refresh happens here, where the rotated refresh token can
 * be persisted, and the render sees the fresh session.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) return percentEncodedDataPath(pathname);
  // One id for the page request: on what the proxy logs (a refresh), handed to the render in the request's
  // headers (app/_lib/member-page.tsx logs the site's answer with it), and in the answer's X-Request-Id.
  const requestId = requestIdOf(request.headers);
  const response = await runWithRequestId(requestId, () => answerPage(request, pathname, requestId));
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

async function answerPage(request: NextRequest, pathname: string, requestId: string): Promise<NextResponse> {
  const development = process.env.NODE_ENV === "development";
  const rewrite = await signedOutRewrite(request);
  if (rewrite?.kind === "signed_in") {
    const back = NextResponse.redirect(new URL(rewrite.path, getConfig().appUrl), 303);
    return withPageHeaders(back, pathname, prerenderedPagePolicy(undefined, pathname));
  }
  // The signed-out page is prerendered (app/(public)/signed-out): nothing of the member's session to
  // refresh, and no nonce, since the page is not rendered per request (in development it is, with one).
  if (rewrite?.kind === "prerendered_copy" && !development) {
    const policy = prerenderedPagePolicy(prerenderedScriptHashes(rewrite.path), pathname);
    // Not rendered, so no nonce is read; still, no path hands Next.js a CSP the request brought (CVE-2026-44581).
    const requestHeaders = new Headers(request.headers);
    requestHeaders.delete("content-security-policy");
    const copy = NextResponse.rewrite(rewrittenUrl(request, rewrite.path), { request: { headers: requestHeaders } });
    return withPageHeaders(copy, pathname, policy);
  }
  const buffer = new CookieBuffer();
  // A prefetch gets the page's headers like any request; only the refresh waits for a real navigation.
  // The router's own fetches (a Link prefetch, a client-side navigation) never refresh: Next.js hides its
  // prefetch header from the proxy, and a prefetch that met a withdrawn grant would end the session in the
  // background, so the member's next page would say "signed out" without the reason. Their render prefetches
  // only with a token still valid (app/_lib/member-page.tsx); the browser's data routes refresh and end.
  const background = isPrefetch(request.headers) || !isDocumentNavigation(request.headers);
  const before = background ? await checkBeforeRender(request, buffer) : await refreshBeforeRender(request, buffer);

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const csp = contentSecurityPolicy(nonce, pathname, development);
  // A window the embedded panel opened speaks the panel's language, which its address carries: for this
  // render only, in place of the top-level `locale` cookie (no cookie is written).
  const panelLocale = isPopupPage(pathname) ? popupLocaleOf(request.nextUrl.searchParams) : null;
  if (panelLocale) request.cookies.set(LOCALE_COOKIE, panelLocale);
  const requestHeaders = new Headers(request.headers);
  // Next.js reads the nonce from the request's CSP header: always ours, never one the request brought
  // (CVE-2026-44581). The proxy runs for every page request, whatever its headers (see `config`).
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set(REQUEST_ID_HEADER, requestId);
  // The session just checked, for the render to take rather than open again; never a ticket the request brought
  // (OWASP ASVS 5 V4.1.3: a header the proxy sets for the render cannot be overridden by the end-user).
  requestHeaders.delete(PAGE_SESSION_TICKET_HEADER);
  if (before.kind === "member") requestHeaders.set(PAGE_SESSION_TICKET_HEADER, handOffPageSession(before.session));

  // While the shared state does not answer, a signed-in member's page says "temporarily unavailable"
  // (app/_lib/member-page.tsx) and answers 503 with Retry-After, as the API routes do (RFC 9110
  // sections 15.6.4 and 10.2.3): a load balancer or monitor sees the outage, the cookie stays.
  const unavailable = before.kind === "shared_state_unavailable";
  const init = { request: { headers: requestHeaders }, ...(unavailable ? { status: 503 } : {}) };
  // The site refused to renew access (400 or 401 at its token endpoint): the member is told so.
  const response =
    before.kind === "access_withdrawn"
      ? NextResponse.redirect(new URL(signedOutPath("access_withdrawn", `${pathname}${request.nextUrl.search}`), getConfig().appUrl), 303)
      : rewrite
        ? NextResponse.rewrite(rewrittenUrl(request, rewrite.path), init)
        : NextResponse.next(init);
  if (unavailable) response.headers.set("retry-after", String(SHARED_STATE_RETRY_AFTER_SECONDS));
  buffer.applyTo(response);
  return withPageHeaders(response, pathname, csp);
}

/**
 * The request's URL with another path, as Next.js's router reads it. (With a loopback IP as its host the
 * router would take the rewrite for another server's: scripts/start.ts binds such an APP_URL by the name
 * "localhost", vercel/next.js#94745.)
 */
function rewrittenUrl(request: NextRequest, pathname: string): URL {
  const url = request.nextUrl.clone();
  url.pathname = pathname;
  return url;
}

function withPageHeaders(response: NextResponse, pathname: string, csp: string): NextResponse {
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(baseSecurityHeaders(pathname))) response.headers.set(name, value);
  // Every page is personal, sets cookies or says why the member was signed out: never cached by the
  // browser or a shared cache.
  response.headers.set("cache-control", "no-store");
  return response;
}

/**
 * What the proxy learned of the member's session before the render: the session itself when it opened
 * (handed to the render, lib/session/page-session-handoff.ts), else what the page must say, or nothing
 * (no session, or the site did not answer: the render opens the cookie itself and shows its own state).
 */
type BeforeRender =
  { kind: "member"; session: SessionData } | { kind: "render_opens" } | { kind: "shared_state_unavailable" } | { kind: "access_withdrawn" };

/**
 * The data routes' refresh path (refreshMemberSession): a rotated refresh token is persisted, and a
 * session the site no longer accepts is ended (unless the shared state cannot record the end: the cookie
 * then stays and the render says "temporarily unavailable"). Anything else that fails (no session, the
 * site or the shared state not answering) keeps the session: the page shows its own error with Retry.
 */
async function refreshBeforeRender(request: NextRequest, buffer: CookieBuffer): Promise<BeforeRender> {
  const jar = requestResponseJar(request.cookies, buffer, request.cookies);
  try {
    return { kind: "member", session: await refreshMemberSession(jar) };
  } catch (error) {
    // By code and detail, not class: the proxy's bundle and the routes' may each hold their own error classes.
    const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
    if (code === "unauthenticated" && detail === "access_withdrawn") return { kind: "access_withdrawn" };
    return isSharedStateUnavailable(error) ? { kind: "shared_state_unavailable" } : { kind: "render_opens" };
  }
}

/**
 * A router fetch's check: the session is only read (its "ended" marker looked up in the shared state),
 * never refreshed or ended, so that an outage of the shared state still answers 503 with Retry-After.
 */
async function checkBeforeRender(request: NextRequest, buffer: CookieBuffer): Promise<BeforeRender> {
  try {
    const loaded = await loadSession(requestResponseJar(request.cookies, buffer, request.cookies));
    return loaded ? { kind: "member", session: loaded.data } : { kind: "render_opens" };
  } catch (error) {
    return isSharedStateUnavailable(error) ? { kind: "shared_state_unavailable" } : { kind: "render_opens" };
  }
}

/**
 * A data route's path with a percent sign (the only API paths the matcher sends here). Next.js's router
 * decodes a dynamic segment before any handler runs, and answers a malformed encoding (`%ZZ`, a cut-off
 * UTF-8 sequence) with a plain-text 500 (Next.js 16.4 and 16.5: its router renders the DecodeError as a "/400"
 * page, which an App Router app does not have). Such a path names no page, so it gets the data routes'
 * own "no such page" answer (OWASP ASVS 5 V16.5, no 500 on bad input); a well-formed one goes on to the
 * route unchanged.
 */
function percentEncodedDataPath(pathname: string): NextResponse {
  try {
    decodeURIComponent(pathname);
    return NextResponse.next();
  } catch {
    return apiErrorResponse(new RequestError("not_found", "There is no such account page."));
  }
}

/**
 * Every page request, prefetches included: no request header may switch the page's headers off. Of the
 * API paths, only a data route's path with a percent sign (percentEncodedDataPath): the others never pay
 * for the proxy.
 */
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg|manifest.webmanifest|fonts/).*)", "/api/account/:encoded(.*%.*)"],
};
