import { NextRequest } from "next/server";

import { SetCookieJar } from "@/sandbox/cookie-jar";

import { TEST_APP_URL } from "./env";

/** A browser's cookies over the route handlers' Set-Cookie headers, for calling route handlers directly. */
export class RouteBrowser extends SetCookieJar {
  request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): NextRequest {
    return new NextRequest(new URL(path, TEST_APP_URL), {
      method: init.method ?? "GET",
      headers: { ...this.headers(), ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  }
}

export const SAME_ORIGIN_HEADERS = { origin: TEST_APP_URL, "x-requested-with": "companion-dashboard" };

/** Signs in through the dashboard's login and callback route handlers and the sandbox's real pages. */
export async function signInThroughRoutes(
  browser: RouteBrowser,
  options: { email?: string; returnTo?: string; login?: string; loginHeaders?: Record<string, string>; decision?: "allow" | "deny" } = {},
): Promise<Response> {
  const { GET: loginRoute } = await import("@/app/api/auth/login/route");
  const { GET: callbackRoute } = await import("@/app/api/auth/callback/route");
  const { authorizeWithoutBrowser } = await import("@/sandbox/testing");
  const loginPath = options.login ?? `/api/auth/login?returnTo=${encodeURIComponent(options.returnTo ?? "/")}`;
  const login = browser.absorb(await loginRoute(browser.request(loginPath, { headers: options.loginHeaders })));
  if (login.status !== 303) throw new Error(`login answered ${login.status}`);
  const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, {
    email: options.email ?? "maya@example.com",
    ...(options.decision ? { decision: options.decision } : {}),
  });
  return browser.absorb(await callbackRoute(browser.request(`/api/auth/callback${redirect.search}`)));
}
