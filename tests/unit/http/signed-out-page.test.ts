import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { signedOutCopies, signedOutCopyOf, signedOutCopyPath, signedOutNotice } from "@/lib/contract/signed-out-copies";
import { sealWithSessionSecret } from "@/lib/session/seal";
import { markSessionEnded, saveSession, type SessionVariant } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests, SharedStateUnavailableError } from "@/lib/session/shared-state";
import { signedOutRewrite } from "@/lib/http/signed-out-page";
import { proxy } from "@/proxy";

import { configureDashboard, TEST_APP_URL } from "../../support/env";
import { memoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";

beforeAll(() => configureDashboard("https://school.example"));

function request(path: string, headers: Record<string, string> = {}): NextRequest {
  return new NextRequest(`${TEST_APP_URL}${path}`, { headers });
}

describe("what the signed-out page says", () => {
  it("keeps the site's session open after a sign-out that did not pass the site's end-session endpoint", () => {
    expect(signedOutNotice("signed_out")).toEqual({ reason: "signed_out", siteSession: "open" });
    expect(signedOutNotice("revoked")).toEqual({ reason: "revoked", siteSession: "open" });
    // The member did not sign out: nothing to say about the site.
    expect(signedOutNotice("expired")).toEqual({ reason: "expired", siteSession: null });
    expect(signedOutNotice("access_withdrawn")).toEqual({ reason: "access_withdrawn", siteSession: null });
    expect(signedOutNotice(null)).toEqual({ reason: "signed_out", siteSession: "open" });
  });

  it("believes the site's sign-out only from a state it opened, whatever the query's reason says (checklist 63)", () => {
    expect(signedOutNotice("expired", "revoked")).toEqual({ reason: "revoked", siteSession: "ended" });
    expect(signedOutNotice("revoked", null)).toEqual({ reason: "signed_out", siteSession: "unconfirmed" });
  });

  it("has one prerendered copy per language, framing and notice, each found again from its path", () => {
    const copies = signedOutCopies();
    const paths = copies.map(signedOutCopyPath);
    expect(new Set(paths).size).toBe(copies.length);
    // 2 languages × 2 framings × (6 reasons as they come + 6 after the site's sign-out + the unconfirmed one).
    expect(copies).toHaveLength(2 * 2 * 13);
    for (const copy of copies) {
      const [, , locale, framing, reason, site] = signedOutCopyPath(copy).split("/");
      expect(signedOutCopyOf({ locale: locale!, framing: framing!, reason: reason!, site: site! })).toEqual(copy);
    }
    expect(signedOutCopyOf({ locale: "en", framing: "page", reason: "expired", site: "ended" })).toEqual({
      locale: "en",
      framing: "page",
      reason: "expired",
      siteSession: "ended",
    });
    expect(signedOutCopyOf({ locale: "fr", framing: "page", reason: "expired", site: "none" })).toBeNull();
    // Never shown: the member was not signed out at the site, yet it claims "unconfirmed".
    expect(signedOutCopyOf({ locale: "en", framing: "page", reason: "expired", site: "unconfirmed" })).toBeNull();
  });
});

describe("the proxy's choice of the signed-out page's copy", () => {
  it("serves the copy of the query's reason, in the member's language, for the tab or the panel", async () => {
    expect(await signedOutRewrite(request("/signed-out?reason=expired"))).toEqual({
      kind: "prerendered_copy",
      path: "/signed-out/en/page/expired/none",
    });
    expect(await signedOutRewrite(request("/signed-out?reason=nonsense"))).toEqual({
      kind: "prerendered_copy",
      path: "/signed-out/en/page/signed_out/open",
    });
    expect(await signedOutRewrite(request("/signed-out?reason=revoked", { "accept-language": "zh-TW,zh;q=0.9" }))).toMatchObject({
      path: "/signed-out/zh-TW/page/revoked/open",
    });
    // The language switch's cookie wins over the browser's languages.
    expect(await signedOutRewrite(request("/signed-out", { "accept-language": "zh-TW", cookie: "locale=en" }))).toMatchObject({
      path: "/signed-out/en/page/signed_out/open",
    });
    expect(await signedOutRewrite(request("/signed-out?reason=revoked", { "sec-fetch-dest": "iframe" }))).toMatchObject({
      path: "/signed-out/en/framed/revoked/open",
    });
  });

  it("says the site's sign-out happened only with the state this dashboard sealed for it (checklist 63)", async () => {
    const sealed = await sealWithSessionSecret({ purpose: "end_session", reason: "revoked" }, 600);
    expect(await signedOutRewrite(request(`/signed-out?state=${encodeURIComponent(sealed)}`))).toMatchObject({
      path: "/signed-out/en/page/revoked/ended",
    });
    const changed = `${sealed.slice(0, -4)}AAAA`;
    expect(await signedOutRewrite(request(`/signed-out?reason=revoked&state=${encodeURIComponent(changed)}`))).toMatchObject({
      path: "/signed-out/en/page/signed_out/unconfirmed",
    });
    const otherPurpose = await sealWithSessionSecret({ purpose: "sign_in", reason: "revoked" }, 600);
    expect(await signedOutRewrite(request(`/signed-out?state=${encodeURIComponent(otherPurpose)}`))).toMatchObject({
      path: "/signed-out/en/page/signed_out/unconfirmed",
    });
  });

  it.each([
    "/signed-out/en/page/revoked/ended",
    "/signed-out/en/page/revoked/ended/",
    "/signed-out/%65n/page/revoked/ended",
    "/signed-out/%2565n/page/revoked/ended",
    "//signed-out/en/page/revoked/ended",
    "/SIGNED-OUT/en/page/revoked/ended",
    "/x/../signed-out/en/page/revoked/ended",
    "/signed-out/en",
  ])("does not serve a copy asked for by its own path: %s", async (path) => {
    expect(await signedOutRewrite(request(path))).toEqual({ kind: "not_served", path: "/signed-out/not-served" });
  });

  it("leaves every other page as it is", async () => {
    for (const path of ["/", "/courses", "/signed-outside", "/settings/revoke"]) expect(await signedOutRewrite(request(path))).toBeNull();
  });
});

describe("the signed-out page opened by a member who is signed in (again)", () => {
  beforeEach(() => setSharedStateForTests(new InMemorySharedState()));

  async function signedIn(variant: SessionVariant = "top") {
    const browser = memoryJar();
    const session = expiringSession();
    await saveSession(browser, session, variant);
    return { cookie: browser.header(), session };
  }

  async function open(path: string, headers: Record<string, string>): Promise<Response> {
    return proxy(request(path, headers));
  }

  it("goes back to the page the member was on, or the Overview, instead of saying they are signed out", async () => {
    const { cookie } = await signedIn();
    const back = await open(`/signed-out?reason=expired&returnTo=${encodeURIComponent("/orders?page=2")}`, { cookie });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`${TEST_APP_URL}/orders?page=2`);
    expect(back.headers.get("cache-control")).toBe("no-store");
    expect(back.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect((await open("/signed-out?reason=signed_out", { cookie })).headers.get("location")).toBe(`${TEST_APP_URL}/`);
    // Never off the dashboard (OWASP ASVS 5 V3.7.2): the returnTo is the one the Sign in link would take.
    const elsewhere = await open(`/signed-out?returnTo=${encodeURIComponent("//evil.example/x")}`, { cookie });
    expect(elsewhere.headers.get("location")).toBe(`${TEST_APP_URL}/`);
  });

  it("does the same in the site's page, with the panel's own cookie", async () => {
    const { cookie } = await signedIn("embedded");
    const back = await open("/signed-out?reason=signed_out", { cookie, "sec-fetch-dest": "iframe" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`${TEST_APP_URL}/`);
  });

  it("still shows the page for a session ended elsewhere, a cookie that does not open, or no answer from the shared state", async () => {
    const ended = await signedIn();
    await markSessionEnded(ended.session);
    const unopenable = { cookie: "dash_session=Fe26.2**not-a-seal" };
    const unanswered = await signedIn();
    class NotAnswering extends InMemorySharedState {
      override recall(): Promise<string | undefined> {
        return Promise.reject(new SharedStateUnavailableError("Redis did not answer (recall)."));
      }
    }
    for (const [cookie, before] of [
      [ended.cookie, undefined],
      [unopenable.cookie, undefined],
      [unanswered.cookie, () => setSharedStateForTests(new NotAnswering())],
    ] as const) {
      before?.();
      const page = await open("/signed-out?reason=expired", { cookie });
      expect(page.headers.get("location")).toBeNull();
      expect(page.headers.get("x-middleware-rewrite")).toContain("/signed-out/en/page/expired/none");
    }
  });
});
