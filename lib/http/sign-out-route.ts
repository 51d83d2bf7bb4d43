import "server-only";

import type { CookieJar } from "iron-session";
import type { NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { loadSessionsForSignOut } from "@/lib/auth/sign-out";
import { localeOfRequest, type Locale } from "@/lib/i18n/locales";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import type { LoadedSession } from "@/lib/session/session";

import { apiErrorResponse } from "./error-responses";
import { rateLimited } from "./rate-limit";

/** What a route that ends the session works with: the member's cookies, and the session to end (null when none). */
export interface SignOutContext {
  jar: CookieJar;
  buffer: CookieBuffer;
  loaded: LoadedSession | null;
  /** Every session the browser holds (top-level and embedded cookies); `loaded` is the first of them. */
  sessions: LoadedSession[];
  /** The language the member sees the dashboard in (in the site's panel, the panel's). */
  locale: Locale;
}

/**
 * The handler of a route that ends the member's session (Sign out, Revoke access): a cross-site request
 * is refused first (OWASP ASVS 5 V3.5.1, lib/auth/csrf.ts), the session is opened even while the shared
 * state does not answer (lib/auth/sign-out.ts), and any failure becomes the API's JSON error. `end`
 * revokes what it revokes, ends the session and answers.
 */
export function signOutHandler(end: (context: SignOutContext) => Promise<Response>): (request: NextRequest) => Promise<Response> {
  return async (request) => {
    const limited = await rateLimited(request);
    if (limited) return limited;
    try {
      assertSameOriginRequest(request);
      const buffer = new CookieBuffer();
      const jar = requestResponseJar(request.cookies, buffer);
      const sessions = await loadSessionsForSignOut(jar);
      return await end({ jar, buffer, loaded: sessions[0] ?? null, sessions, locale: localeOfRequest(request) });
    } catch (error) {
      return apiErrorResponse(error);
    }
  };
}
