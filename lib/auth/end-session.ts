import "server-only";

import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { isLoopbackHost } from "@/lib/config/env-schema";
import { API_ROUTES, PAGE_PATHS, isSignedOutReason, type SignedOutReason } from "@/lib/contract/paths";
import { uiLocalesForSite, type Locale } from "@/lib/i18n/locales";
import { logEvent } from "@/lib/log/logger";
import type { SessionData } from "@/lib/session/session";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";
import { siteRequestOptions } from "@/lib/site/oauth-http";

/** How long the member may take at the site's sign-out page before the `state` we gave it is no longer accepted. */
const END_SESSION_STATE_TTL_SECONDS = 10 * 60;
const STATE_PURPOSE = "end_session";
/** Sign-out waits at most this long for the site's OpenID configuration before it leaves the site session as it is. */
const DISCOVERY_TIMEOUT_MS = 3000;

interface EndSessionState {
  purpose: typeof STATE_PURPOSE;
  reason: SignedOutReason;
}

/** How long after Sign out the browser may take to follow its ticket to the site's end-session endpoint. */
const END_SESSION_TICKET_TTL_SECONDS = 60;
const TICKET_PURPOSE = "end_session_ticket";
/** A ticket holds one sealed end-session URL: a few KB with its id_token_hint. Longer is not one of ours. */
const MAX_TICKET_LENGTH = 8192;

interface EndSessionTicket {
  purpose: typeof TICKET_PURPOSE;
  url: string;
}

/** `APP_URL/signed-out`: the one post-logout redirect URI the dashboard registers and sends. */
export function postLogoutRedirectUri(): string {
  return new URL(PAGE_PATHS.signedOut, getConfig().appUrl).toString();
}

/**
 * Where the browser goes after Sign out to end the member's session at the site too (OpenID Connect
 * RP-Initiated Logout 1.0 section 2), or null when the site's discovery lists no `end_session_endpoint`
 * (or cannot be read): then the signed-out page says the site session is still open.
 *
 * The `state` is sealed with the session secret and lives ten minutes: on return, only a state this
 * dashboard made for a sign-out is believed (RP-Initiated Logout 1.0 section 3; checklist case 63).
 */
export async function endSessionRedirect(
  session: SessionData | undefined,
  reason: SignedOutReason,
  locale?: Locale,
): Promise<string | null> {
  const discovered = await readEndSessionEndpoint();
  if (!discovered) return null;
  let url: URL;
  try {
    url = new URL(discovered.endpoint);
  } catch {
    return null;
  }
  // The same rule as every other endpoint of the site: https, or http on loopback (lib/config).
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    logEvent("site_error", { endpoint: "end_session_endpoint", siteErrorCode: "insecure_endpoint" }, "warn");
    return null;
  }
  const state: EndSessionState = { purpose: STATE_PURPOSE, reason };
  if (session?.idToken) url.searchParams.set("id_token_hint", session.idToken);
  url.searchParams.set("client_id", getConfig().clientId);
  url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri());
  // RP-Initiated Logout 1.0 section 2 `ui_locales`: a sign-out page the site shows, in the member's language,
  // asked only of a site that lists its pages' languages, as at sign-in (lib/auth/login.ts).
  const uiLocales = uiLocalesForSite(locale, discovered.languages);
  if (uiLocales) url.searchParams.set("ui_locales", uiLocales);
  url.searchParams.set("state", await sealWithSessionSecret(state, END_SESSION_STATE_TTL_SECONDS));
  return url.toString();
}

/**
 * The dashboard's own path that sends the browser on to `endSessionUrl`: the URL, which carries the member's
 * ID token as `id_token_hint`, goes to the browser sealed, so no token reaches its JavaScript (DESIGN.md
 * section 1; OWASP ASVS 5 V10.1.1). The browser follows it at once; the ticket lives a minute.
 */
export async function endSessionTicketPath(endSessionUrl: string): Promise<string> {
  const ticket: EndSessionTicket = { purpose: TICKET_PURPOSE, url: endSessionUrl };
  const sealed = await sealWithSessionSecret(ticket, END_SESSION_TICKET_TTL_SECONDS);
  return `${API_ROUTES.endSession}?ticket=${encodeURIComponent(sealed)}`;
}

/** The end-session URL a ticket holds, or null when it is missing, changed, expired or not a ticket of ours. */
export async function openEndSessionTicket(ticket: string | null): Promise<string | null> {
  if (!ticket || ticket.length > MAX_TICKET_LENGTH) return null;
  try {
    const opened = await openSessionSeal<Partial<EndSessionTicket>>(ticket);
    return opened.purpose === TICKET_PURPOSE && typeof opened.url === "string" ? opened.url : null;
  } catch {
    return null;
  }
}

/**
 * The site's `end_session_endpoint`, read afresh from its OpenID configuration at each sign-out (not the
 * cached discovery): a site that stopped offering it must not receive the member, and the signed-out page
 * must not claim a sign-out that did not happen. The issuer is checked as everywhere (oauth4webapi).
 */
async function readEndSessionEndpoint(): Promise<{ endpoint: string; languages: unknown } | undefined> {
  try {
    const issuer = new URL(getConfig().issuer);
    const response = await oauth.discoveryRequest(issuer, {
      algorithm: "oidc",
      ...siteRequestOptions(),
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    const metadata = await oauth.processDiscoveryResponse(issuer, response);
    return metadata.issuer === getConfig().issuer && typeof metadata.end_session_endpoint === "string"
      ? { endpoint: metadata.end_session_endpoint, languages: metadata.ui_locales_supported }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sign-out reason a returning `state` carries, or null when it is missing, changed, expired or not
 * ours: the signed-out page then claims nothing about the site (checklist case 63).
 */
export async function readEndSessionState(state: string | undefined): Promise<SignedOutReason | null> {
  if (!state || state.length > 2048) return null;
  try {
    const opened = await openSessionSeal<Partial<EndSessionState>>(state);
    return opened.purpose === STATE_PURPOSE && isSignedOutReason(opened.reason) ? opened.reason : null;
  } catch {
    return null;
  }
}
