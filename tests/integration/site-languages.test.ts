/**
 * The site's own sign-in and consent pages in the member's language: the dashboard sends `ui_locales`
 * (OpenID Connect Core 3.1.2.1) to a site whose metadata lists `ui_locales_supported` (RFC 8414 section 2),
 * and nothing to one that lists none, as the Site Access API's documentation names no such parameter.
 * The sandbox's `localizedSignIn` knob is a site of the first kind; tried with and without PAR, which
 * carries the parameter in the pushed request instead of the address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as endSessionRoute } from "@/app/api/auth/end-session/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import type { RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

const BINDING = "b".repeat(43);

interface SiteSignInPage {
  uiLocales: string | null;
  lang?: string | undefined;
  heading?: string | undefined;
}

/** Starts a sign-in through the login route and opens the site's page it leads to, as a new browser would. */
async function siteSignInPage(path: string, headers: Record<string, string>): Promise<SiteSignInPage> {
  const login = await loginRoute(new RouteBrowser().request(path, { headers }));
  const authorizationUrl = new URL(login.headers.get("location")!);
  const page = await (await fetch(authorizationUrl)).text();
  return {
    uiLocales: authorizationUrl.searchParams.get("ui_locales"),
    lang: /<html lang="([^"]+)"/.exec(page)?.[1],
    heading: /<h1>([^<]*)<\/h1>/.exec(page)?.[1],
  };
}

/** Signs in, signs out with `acceptLanguage`, and returns the `ui_locales` of the site's end-session address. */
async function endSessionUiLocales(acceptLanguage: string): Promise<string | null> {
  const browser = new RouteBrowser();
  await signInThroughRoutes(browser, { returnTo: "/" });
  const headers = { ...SAME_ORIGIN_HEADERS, "accept-language": acceptLanguage };
  const signedOut = (await (await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers }))).json()) as {
    endSessionUrl: string;
  };
  const toSite = await endSessionRoute(new RouteBrowser().request(signedOut.endSessionUrl));
  return new URL(toSite.headers.get("location")!).searchParams.get("ui_locales");
}

describe.each(["off", "required"] as const)("a site that lists the languages of its sign-in pages (PAR %s)", (par) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ localizedSignIn: true, par });
  });
  afterAll(async () => sandbox.close());

  it("is asked for the member's language, then English, and shows its pages in it", async () => {
    const chinese = await siteSignInPage("/api/auth/login", { "accept-language": "zh-TW,zh;q=0.9,en;q=0.8" });
    expect(chinese).toMatchObject({ lang: "zh-TW", heading: "登入 Demo Academy" });
    // The language chosen in the dashboard wins over the browser's, as on the dashboard's own pages.
    const english = await siteSignInPage("/api/auth/login", { "accept-language": "zh-TW", cookie: "locale=en" });
    expect(english).toMatchObject({ lang: "en", heading: "Sign in to Demo Academy" });
    if (par === "off") {
      expect(chinese.uiLocales).toBe("zh-TW en");
      expect(english.uiLocales).toBe("en");
    } else {
      // Pushed (RFC 9126): the address carries only the request_uri.
      expect([chinese.uiLocales, english.uiLocales]).toEqual([null, null]);
    }
  });

  it("is asked for the member's language on its sign-out page too (RP-Initiated Logout 1.0 section 2)", async () => {
    expect(await endSessionUiLocales("zh-TW")).toBe("zh-TW en");
    expect(await endSessionUiLocales("en-GB")).toBe("en");
  });

  it("is asked, from the panel's popup, for the panel's language rather than the browser's", async () => {
    const popup = await siteSignInPage(`/api/auth/login?display=popup&binding=${BINDING}&lang=zh-TW`, { "accept-language": "en" });
    expect(popup).toMatchObject({ lang: "zh-TW", heading: "登入 Demo Academy" });
  });
});

describe("a site that lists no languages (the documented site)", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard();
  });
  afterAll(async () => sandbox.close());

  it("gets no ui_locales, and its pages stay in English", async () => {
    const page = await siteSignInPage("/api/auth/login", { "accept-language": "zh-TW" });
    expect(page).toEqual({ uiLocales: null, lang: "en", heading: "Sign in to Demo Academy" });
    expect(await endSessionUiLocales("zh-TW")).toBeNull();
  });
});
