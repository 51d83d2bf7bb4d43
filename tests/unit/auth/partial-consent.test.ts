import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { AuthError } from "@/lib/auth/errors";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";
import { signInProblemRedirect } from "@/lib/http/auth-redirects";
import { loadSession } from "@/lib/session/session";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";

/**
 * Issue 30, item 0: partial consent (RFC 6749 section 3.3). The granted scope of the token response is
 * read and kept; a sign-in without a scope the dashboard needs names it and offers to sign in again;
 * a member who declined `email` is signed in, never met with a security alarm.
 */
const site = setUpFakeSite();
const member = { sub: "member-42", name: "Maya Chen", org_id: "school_1", roles: ["student"] };

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  resetDiscoveryCacheForTests();
});
beforeEach(() => {
  site.calls.length = 0;
});
afterEach(() => {
  site.handlers.delete("POST /api/oauth/token");
  site.handlers.delete("GET /api/oauth/userinfo");
});

/** Signs in with `scope` granted; without `userInfo`, the site has no UserInfo handler (a call to it fails the test). */
async function signInGranting(scope: string, claims: { idToken: Record<string, unknown>; userInfo?: Record<string, unknown> }) {
  const jar = memoryJar();
  const url = await startLogin(jar, "/");
  const now = Math.floor(Date.now() / 1000);
  const idToken = await site.signIdToken({
    iss: site.url,
    aud: TEST_CLIENT_ID,
    iat: now,
    exp: now + 600,
    nonce: url.searchParams.get("nonce")!,
    ...claims.idToken,
  });
  site.handlers.set("POST /api/oauth/token", () => ({
    json: { access_token: "at-1", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-1", scope, id_token: idToken },
  }));
  const { userInfo } = claims;
  if (userInfo) site.handlers.set("GET /api/oauth/userinfo", () => ({ json: userInfo }));
  const callback = new URL("/api/auth/callback", TEST_APP_URL);
  callback.search = new URLSearchParams({ code: "c", state: url.searchParams.get("state")!, iss: site.url }).toString();
  const result = await handleCallback(jar, callback).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { jar, result };
}

describe("partial consent", () => {
  it("signs in a member who declined email: no userinfo_mismatch, no missing_claims, the granted scopes kept", async () => {
    const { jar, result } = await signInGranting("openid profile account:read", { idToken: member, userInfo: member });
    expect(result.ok).toBe(true);
    const loaded = await loadSession(jar);
    expect(loaded?.data.scopes).toEqual(["openid", "profile", "account:read"]);
    expect(loaded?.data.claims).toMatchObject({ sub: member.sub, email: "", name: member.name });
  });

  it.each([
    ["openid,profile,account:read", ["openid", "profile", "account:read"]],
    ["openid, profile, account:read", ["openid", "profile", "account:read"]],
  ])("reads scopes written with commas (%s), as GitHub's OAuth apps write them", async (scope, kept) => {
    const { jar, result } = await signInGranting(scope, { idToken: member, userInfo: member });
    expect(result.ok).toBe(true);
    expect((await loadSession(jar))?.data.scopes).toEqual(kept);
  });

  it("takes no comma reading that names a scope it never asked for: the needed scopes are not granted", async () => {
    const { result } = await signInGranting("openid,account:read,admin", { idToken: member, userInfo: member });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: "scope_not_granted", detail: "openid account:read" });
  });

  it("still refuses a UserInfo email that the id_token does not carry (the claims must agree)", async () => {
    const { result } = await signInGranting("openid profile account:read", {
      idToken: member,
      userInfo: { ...member, email: "someone@example.com" },
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error).toMatchObject({ code: "userinfo_mismatch", detail: "email" });
  });

  it("reads an id_token's claim written null (a serializer of every field) as left out, and still checks the rest", async () => {
    const withNulls = { ...member, email: null, email_verified: null };
    const { jar, result } = await signInGranting("openid profile account:read", { idToken: withNulls, userInfo: withNulls });
    expect(result.ok).toBe(true);
    expect((await loadSession(jar))?.data.claims).toMatchObject({ sub: member.sub, email: "", name: member.name });
    // A null email in the id_token does not let UserInfo name one the grant left out, nor another name pass.
    const email = await signInGranting("openid profile account:read", {
      idToken: withNulls,
      userInfo: { ...member, email: "x@example.com" },
    });
    expect(email.result.ok ? undefined : email.result.error).toMatchObject({ code: "userinfo_mismatch", detail: "email" });
    const name = await signInGranting("openid profile account:read", { idToken: withNulls, userInfo: { ...withNulls, name: "Someone" } });
    expect(name.result.ok ? undefined : name.result.error).toMatchObject({ code: "userinfo_mismatch", detail: "name" });
  });

  it("names account:read when it was not granted: no UserInfo, no session, the problem page offers to sign in again", async () => {
    const { jar, result } = await signInGranting("openid profile email", {
      idToken: { ...member, email: "maya@example.com" },
    });
    expect(result.ok).toBe(false);
    const error = result.ok ? undefined : result.error;
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "scope_not_granted", detail: "account:read" });
    expect(site.callsTo("/api/oauth/userinfo")).toHaveLength(0);
    expect(await loadSession(jar)).toBeNull();
    const location = new URL(signInProblemRedirect(error).headers.get("location")!);
    expect(location.pathname).toBe("/sign-in-problem");
    expect(location.searchParams.get("code")).toBe("scope_not_granted");
    expect(location.searchParams.get("detail")).toBe("account:read");
  });

  it("names openid when only account:read was granted (no security alarm about a missing id_token)", async () => {
    const { result } = await signInGranting("account:read", { idToken: member });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: "scope_not_granted", detail: "openid" });
    expect(site.callsTo("/api/oauth/userinfo")).toHaveLength(0);
  });
});
