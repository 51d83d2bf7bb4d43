import "server-only";

import type { NextResponse } from "next/server";

import type { CookieBuffer } from "@/lib/session/cookie-jar";

/**
 * The answer of a route that ended the session: the session cookies are expired (the buffer), and
 * `Clear-Site-Data: "cookies"` asks the browser to drop every cookie of the dashboard's origin too
 * (OWASP ASVS 5 V14.3.1; W3C Clear Site Data), whatever name or partition they were set under.
 */
export function withClearedSiteCookies<T extends NextResponse>(buffer: CookieBuffer, response: T): T {
  buffer.applyTo(response);
  response.headers.set("clear-site-data", '"cookies"');
  response.headers.set("cache-control", "no-store");
  return response;
}
