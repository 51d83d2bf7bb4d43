import { createHash } from "node:crypto";

import { decodeJwt, decodeProtectedHeader } from "jose";
import * as oauth from "oauth4webapi";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { dpopProof, newDpopKey, rememberingDpopNonces } from "@/lib/auth/dpop";
import { startLogin } from "@/lib/auth/login";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { revokeAtSite } from "@/lib/auth/revocation";
import { resetConfigForTests } from "@/lib/config";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { loadSession, saveSession, type SessionData } from "@/lib/session/session";
import { runAccountOperation } from "@/lib/account-api/client";

import { captureLog } from "../../support/captured-log";
import { configureDashboard, TEST_APP_URL } from "../../support/env";
import { setUpFakeSite, type RecordedCall } from "../../support/fake-site";
import { memoryJar, type MemoryJar } from "../../support/memory-jar";
import { PROBE_OPERATION } from "../../support/probe-operation";

/** Issue 30 item 2: DPoP (RFC 9449) as the dashboard speaks it, on the wire of a fake site. */
const site = setUpFakeSite({ idTokens: false });
let metadata: Record<string, unknown>;
const DISCOVERY = ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"];
const MEMBER = { sub: "member-1", email: "maya@example.com" };

function advertise(dpop: boolean): void {
  const document = { ...metadata, ...(dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}) };
  for (const key of DISCOVERY) site.handlers.set(key, () => ({ json: document }));
  resetDiscoveryCacheForTests();
}

function proofOf(call: RecordedCall): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const dpop = call.headers.dpop;
  if (typeof dpop !== "string") throw new Error(`no DPoP proof on ${call.method} ${call.path}`);
  return { header: decodeProtectedHeader(dpop), claims: decodeJwt(dpop) };
}

function tokenAnswer(tokenType: string, n = 1) {
  return {
    json: { access_token: `at-${n}`, token_type: tokenType, expires_in: 3600, refresh_token: `rt-${n}`, scope: "openid account:read" },
  };
}

async function signIn(tokenType = "DPoP"): Promise<MemoryJar> {
  const jar = memoryJar();
  const url = await startLogin(jar, "/");
  site.handlers.set("POST /api/oauth/token", () => tokenAnswer(tokenType));
  site.handlers.set("GET /api/oauth/userinfo", () => ({ json: MEMBER }));
  const callback = new URL("/api/auth/callback", TEST_APP_URL);
  callback.search = new URLSearchParams({ code: "c", state: url.searchParams.get("state")!, iss: site.url }).toString();
  await handleCallback(jar, callback);
  return jar;
}

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  metadata = site.handlers.get(DISCOVERY[0]!)!({ method: "GET", path: "", body: "", headers: {} }).json as Record<string, unknown>;
});
beforeEach(() => {
  setSharedStateForTests(new InMemorySharedState());
  site.calls.length = 0;
  site.handlers.delete("POST /account/graphql");
});

describe("a site that does not advertise DPoP sees exactly today's requests", () => {
  it("no dpop_jkt, no DPoP header anywhere, Bearer tokens, and a DPoP token type refused", async () => {
    advertise(false);
    const url = await startLogin(memoryJar(), "/");
    expect(url.searchParams.has("dpop_jkt")).toBe(false);
    const jar = await signIn("Bearer");
    site.handlers.set("POST /account/graphql", () => ({ json: { data: { viewer: { id: "v" } } } }));
    await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    for (const call of site.calls) expect(call.headers.dpop, `${call.method} ${call.path}`).toBeUndefined();
    expect(site.callsTo("/api/oauth/userinfo")[0]!.headers.authorization).toBe("Bearer at-1");
    expect(site.callsTo("/account/graphql")[0]!.headers.authorization).toBe("Bearer at-1");
    const session = (await loadSession(jar))!.data;
    expect(session.dpopKey).toBeUndefined();
    site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
    await revokeAtSite(session);
    expect(site.callsTo("/api/oauth/revoke")).toHaveLength(2);
    for (const call of site.calls) expect(call.headers.dpop, `${call.method} ${call.path}`).toBeUndefined();
    await expect(signIn("DPoP")).rejects.toMatchObject({ code: "token_exchange_failed", detail: "token_type" });
  });
});

describe("a site that advertises ES256 DPoP proofs", () => {
  it("binds the sign-in: dpop_jkt, a proof on the exchange and UserInfo, a sealed key, DPoP on the Account API with ath", async () => {
    advertise(true);
    const log = captureLog();
    const jar = await signIn();
    const session = (await loadSession(jar))!.data;
    expect(session.tokenType).toBe("DPoP");
    expect(session.dpopKey?.d).toMatch(/^[\w-]{43}$/);
    // The private key is never logged, nor readable in the cookie.
    expect(log.text()).not.toContain(session.dpopKey!.d!);
    for (const value of jar.cookies.values()) expect(value).not.toContain(session.dpopKey!.d!);

    const exchange = proofOf(site.callsTo("/api/oauth/token")[0]!);
    expect(exchange.header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256", x: session.dpopKey!.x } });
    expect(exchange.header.jwk).not.toHaveProperty("d");
    expect(exchange.claims).toMatchObject({ htm: "POST", htu: `${site.url}/api/oauth/token` });
    expect(exchange.claims.ath).toBeUndefined();
    const info = site.callsTo("/api/oauth/userinfo")[0]!;
    expect(info.headers.authorization).toBe("DPoP at-1");
    expect(proofOf(info).claims).toMatchObject({ htm: "GET", htu: `${site.url}/api/oauth/userinfo` });

    site.handlers.set("POST /account/graphql", () => ({ json: { data: { viewer: { id: "v" } } } }));
    await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    const call = site.callsTo("/account/graphql")[0]!;
    expect(call.headers.authorization).toBe("DPoP at-1");
    const resource = proofOf(call);
    expect(resource.claims).toMatchObject({
      htm: "POST",
      htu: `${site.url}/account/graphql`,
      ath: createHash("sha256").update("at-1").digest("base64url"),
    });
    expect(resource.claims.jti).not.toBe(exchange.claims.jti);
  });

  it("retries exactly once on use_dpop_nonce with the site's nonce, and remembers it for the next call", async () => {
    advertise(true);
    const jar = await signIn();
    let answered = 0;
    site.handlers.set("POST /account/graphql", (call) => {
      answered += 1;
      if (proofOf(call).claims.nonce === "n-1") return { json: { data: { viewer: { id: "v" } } } };
      return {
        status: 401,
        headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "n-1" },
        json: { error: "use_dpop_nonce" },
      };
    });
    await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    expect(answered).toBe(2);
    await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    // The next request already carries the remembered nonce: no second challenge.
    expect(answered).toBe(3);
  });

  it("never loops: a site that always asks for a new nonce gets a bounded number of requests and the member a clean answer", async () => {
    advertise(true);
    const jar = await signIn();
    let n = 0;
    site.handlers.set("POST /account/graphql", () => {
      n += 1;
      return {
        status: 401,
        headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": `n-${n}` },
        json: { error: "use_dpop_nonce" },
      };
    });
    site.handlers.set("POST /api/oauth/token", () => tokenAnswer("DPoP", 2));
    const error = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION)).catch(
      (thrown: unknown) => thrown,
    );
    // One retry, then one refresh and one retry with its own single nonce retry: four at most.
    expect(n).toBeLessThanOrEqual(4);
    const response = apiErrorResponse(error);
    expect([401, 503]).toContain(response.status);
  });

  it("proves possession on refresh; a refresh asking for a nonce twice is temporary (503), not withdrawn access", async () => {
    advertise(true);
    const jar = await signIn();
    const loaded = (await loadSession(jar))!.data;
    const expiring: SessionData = { ...loaded, accessTokenExpiresAt: Date.now() + 1_000, accessTokenRenewAt: Date.now() };
    await saveSession(jar, expiring);
    site.calls.length = 0;
    site.handlers.set("POST /api/oauth/token", () => ({
      status: 400,
      headers: { "dpop-nonce": "again" },
      json: { error: "use_dpop_nonce" },
    }));
    const error = await callWithMemberSession(jar, () => Promise.resolve("never")).catch((thrown: unknown) => thrown);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(2);
    expect(proofOf(site.callsTo("/api/oauth/token")[1]!).claims.nonce).toBe("again");
    expect(error).toMatchObject({ code: "refresh_unavailable" });
    expect(apiErrorResponse(error).status).toBe(503);
    expect(await loadSession(jar)).not.toBeNull();

    site.handlers.set("POST /api/oauth/token", () => tokenAnswer("DPoP", 3));
    await callWithMemberSession(jar, () => Promise.resolve("ok"));
    const renewed = (await loadSession(jar))!.data;
    expect(renewed.accessToken).toBe("at-3");
    expect(renewed.tokenType).toBe("DPoP");
    expect(proofOf(site.callsTo("/api/oauth/token").at(-1)!).claims).toMatchObject({ htm: "POST", htu: `${site.url}/api/oauth/token` });
  });

  // RFC 9449 section 8: use_dpop_nonce comes with a 400 (token endpoint) or 401 (resource). Anything else
  // is not a nonce challenge: re-sending it would replay a refresh token (RFC 9700 section 4.14).
  it.each([200, 500])("a refresh answered %i with use_dpop_nonce and a DPoP-Nonce is sent once, never re-sent", async (status) => {
    advertise(true);
    const jar = await signIn();
    await saveSession(jar, { ...(await loadSession(jar))!.data, accessTokenExpiresAt: Date.now() + 1_000, accessTokenRenewAt: Date.now() });
    site.calls.length = 0;
    site.handlers.set("POST /api/oauth/token", () => ({ status, headers: { "dpop-nonce": "n-500" }, json: { error: "use_dpop_nonce" } }));
    await callWithMemberSession(jar, () => Promise.resolve("never")).catch((thrown: unknown) => thrown);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("a refresh refused with invalid_dpop_proof ends the session without claiming access was withdrawn", async () => {
    advertise(true);
    const jar = await signIn();
    await saveSession(jar, { ...(await loadSession(jar))!.data, accessTokenExpiresAt: Date.now() + 1_000, accessTokenRenewAt: Date.now() });
    site.handlers.set("POST /api/oauth/token", () => ({ status: 400, json: { error: "invalid_dpop_proof" } }));
    const error = await callWithMemberSession(jar, () => Promise.resolve("never")).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "unauthenticated" });
    expect((error as { detail?: string }).detail).not.toBe("access_withdrawn");
    expect(await loadSession(jar)).toBeNull();
  });

  it("revokes with a proof of the session's key on each call (htm POST, htu the revocation endpoint, no ath)", async () => {
    advertise(true);
    const jar = await signIn();
    const session = (await loadSession(jar))!.data;
    site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
    await revokeAtSite(session);
    const calls = site.callsTo("/api/oauth/revoke");
    expect(calls.map((call) => (call.body as URLSearchParams).get("token"))).toEqual(["rt-1", "at-1"]);
    const proofs = calls.map(proofOf);
    for (const { header, claims } of proofs) {
      expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256", x: session.dpopKey!.x } });
      expect(header.jwk).not.toHaveProperty("d");
      expect(claims).toMatchObject({ htm: "POST", htu: `${site.url}/api/oauth/revoke` });
      expect(claims.ath).toBeUndefined();
      expect(Math.abs(Number(claims.iat) - Date.now() / 1000)).toBeLessThan(5);
      expect(String(claims.jti)).toMatch(/^[\w-]{43}$/);
    }
    expect(proofs[0]!.claims.jti).not.toBe(proofs[1]!.claims.jti);
    // The access token is not sent as a credential: client authentication only.
    for (const call of calls) expect(call.headers.authorization).toBeUndefined();
  });

  it("revocation retries exactly once on use_dpop_nonce, with the site's nonce; a second ask is temporary, never a loop", async () => {
    advertise(true);
    const jar = await signIn();
    const session = (await loadSession(jar))!.data;
    site.handlers.set("POST /api/oauth/revoke", (call) =>
      proofOf(call).claims.nonce === "r-1"
        ? { status: 200, text: "" }
        : { status: 400, headers: { "dpop-nonce": "r-1" }, json: { error: "use_dpop_nonce" } },
    );
    await revokeAtSite(session);
    // The first proof carries whatever nonce an earlier test left; the retry the one the site just sent, and
    // the access token's revocation after it that nonce too.
    const nonces = site.callsTo("/api/oauth/revoke").map((call) => proofOf(call).claims.nonce);
    expect(nonces).toHaveLength(3);
    expect(nonces[0]).not.toBe("r-1");
    expect(nonces.slice(1)).toEqual(["r-1", "r-1"]);

    site.calls.length = 0;
    let n = 0;
    site.handlers.set("POST /api/oauth/revoke", () => {
      n += 1;
      return { status: 400, headers: { "dpop-nonce": `again-${n}` }, json: { error: "use_dpop_nonce" } };
    });
    await expect(revokeAtSite(session)).rejects.toMatchObject({
      code: "revocation_unavailable",
      detail: "use_dpop_nonce",
    });
    expect(n).toBe(2);
  });

  // RFC 9449 section 8: a nonce is an opaque printable-ASCII token; a malformed one is neither sent back
  // in a proof nor shared with the other instances.
  it.each([
    ["a space", "bad nonce"],
    ["300 characters", "n".repeat(300)],
  ])("a DPoP-Nonce with %s is not used in the next proof nor written to the shared state", async (_name, bad) => {
    advertise(true);
    const jar = await signIn();
    const session = (await loadSession(jar))!.data;
    const shared = new InMemorySharedState();
    setSharedStateForTests(shared);
    site.calls.length = 0;
    site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, headers: { "dpop-nonce": bad }, text: "" }));
    await revokeAtSite(session);
    const nonces = site.callsTo("/api/oauth/revoke").map((call) => proofOf(call).claims.nonce);
    expect(nonces).toHaveLength(2);
    // The access token's proof, after the refresh token's answer named the malformed nonce, keeps the one before.
    expect(nonces[1]).not.toBe(bad);
    expect(nonces[1]).toBe(nonces[0]);
    expect(await shared.recall(`dpop-nonce:${new URL(site.url).origin}`)).not.toBe(bad);
  });

  it("a session holding a DPoP key with a Bearer token calls the Account API with Bearer and no proof", async () => {
    advertise(true);
    // The site advertises DPoP, so the sign-in makes a key, but it issues a Bearer token all the same.
    const jar = await signIn("Bearer");
    const session = (await loadSession(jar))!.data;
    expect(session.dpopKey).toBeDefined();
    expect(session.tokenType).toBeUndefined();
    site.handlers.set("POST /account/graphql", () => ({ json: { data: { viewer: { id: "v" } } } }));
    await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    const call = site.callsTo("/account/graphql")[0]!;
    expect(call.headers.authorization).toBe("Bearer at-1");
    expect(call.headers.dpop).toBeUndefined();
  });

  it("DPOP=off: a site that advertises DPoP still gets today's requests", async () => {
    advertise(true);
    process.env.DPOP = "off";
    resetConfigForTests();
    try {
      const url = await startLogin(memoryJar(), "/");
      expect(url.searchParams.has("dpop_jkt")).toBe(false);
      await signIn("Bearer");
      for (const call of site.calls) expect(call.headers.dpop).toBeUndefined();
    } finally {
      delete process.env.DPOP;
      resetConfigForTests();
    }
  });
});

describe("proofs and remembered nonces", () => {
  // RFC 9449 section 4.2 and 4.3: htu is the target URI without query and fragment.
  it("a proof's htu leaves out the query and the fragment", async () => {
    const proof = await dpopProof(await newDpopKey(), "POST", "https://s.example/revoke?a=1#f");
    expect(decodeJwt(proof)).toMatchObject({ htm: "POST", htu: "https://s.example/revoke" });
  });

  it("remembers the nonces of at most 100 origins: the 101st evicts the oldest", async () => {
    // A shared state that forgets, so that only this instance's memory is what a proof reads.
    class ForgetfulSharedState extends InMemorySharedState {
      override recall(): Promise<string | undefined> {
        return Promise.resolve(undefined);
      }
    }
    setSharedStateForTests(new ForgetfulSharedState());
    const options = rememberingDpopNonces<Record<typeof oauth.customFetch, (url: string, init: object) => Promise<Response>>>({
      [oauth.customFetch]: (url) => Promise.resolve(new Response(null, { headers: { "dpop-nonce": `nonce-${new URL(url).hostname}` } })),
    });
    for (let i = 1; i <= 101; i += 1) await options[oauth.customFetch](`https://o${i}.example/token`, {});
    const key = await newDpopKey();
    const nonceFor = async (origin: string) => decodeJwt(await dpopProof(key, "POST", `${origin}/token`)).nonce;
    expect(await nonceFor("https://o101.example")).toBe("nonce-o101.example");
    expect(await nonceFor("https://o2.example")).toBe("nonce-o2.example");
    expect(await nonceFor("https://o1.example")).toBeUndefined();
  });
});
