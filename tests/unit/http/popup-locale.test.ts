/**
 * The windows the embedded panel opens (its sign-in, Revoke access's confirmation) are top-level: the
 * panel's `locale` cookie, kept in the site's partition, does not reach them. Their address carries the
 * panel's language instead, and the proxy hands it to the render as that request's `locale` cookie.
 */
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";

import { popupPagePath } from "@/lib/i18n/locales";
import { proxy } from "@/proxy";

import { configureDashboard, TEST_APP_URL } from "../../support/env";

beforeAll(() => configureDashboard("https://school.example"));

/** The Cookie header the proxy hands to the page's render (Next.js carries it as x-middleware-request-cookie). */
async function cookieForRender(path: string, cookie = "locale=en"): Promise<{ cookie: string | null; setCookies: string[] }> {
  const response = await proxy(new NextRequest(`${TEST_APP_URL}${path}`, { headers: { cookie, "sec-fetch-dest": "document" } }));
  return { cookie: response.headers.get("x-middleware-request-cookie"), setCookies: response.headers.getSetCookie() };
}

describe("a page the panel opens in a window", () => {
  it("is rendered in the language its address asks for, in place of the top-level cookie, which stays as it was", async () => {
    for (const path of [
      "/settings/revoke?from=frame&lang=zh-TW",
      "/auth/popup-done?lang=zh-TW",
      "/sign-in-problem?code=login_expired&lang=zh-TW",
    ]) {
      const { cookie, setCookies } = await cookieForRender(path);
      expect(cookie, path).toBe("locale=zh-TW");
      expect(
        setCookies.filter((line) => line.startsWith("locale=")),
        path,
      ).toEqual([]);
    }
    // Without a cookie of its own (a browser that never chose), the address still decides.
    expect((await cookieForRender("/auth/popup-done?lang=zh-TW", "")).cookie).toBe("locale=zh-TW");
  });

  it("keeps the cookie's language for a language it does not speak, and on every page that is not such a window", async () => {
    for (const path of [
      "/settings/revoke?from=frame&lang=fr",
      "/auth/popup-done?lang=zh-CN",
      "/courses?lang=zh-TW",
      "/settings?lang=zh-TW",
    ]) {
      expect((await cookieForRender(path)).cookie, path).toBe("locale=en");
    }
  });
});

describe("a window's address with the panel's language", () => {
  it("adds it to a path with or without a query, and nothing without one", () => {
    expect(popupPagePath("/settings/revoke?from=frame", "zh-TW")).toBe("/settings/revoke?from=frame&lang=zh-TW");
    expect(popupPagePath("/auth/popup-done", "en")).toBe("/auth/popup-done?lang=en");
    expect(popupPagePath("/auth/popup-done", null)).toBe("/auth/popup-done");
  });
});
