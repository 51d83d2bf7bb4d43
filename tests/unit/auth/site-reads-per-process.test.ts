/**
 * What the dashboard reads of the site and keeps for a while (its metadata, its name, its id_token keys,
 * the anonymous MCP answer, its latest DPoP nonce) is read once per process. Next.js bundles the proxy, the pages and the route
 * handlers apart, each with its own copy of a module; a fresh import here stands for another bundle's
 * copy, which must not ask the site again for what the first copy already holds.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { decodeJwt } from "jose";
import { customFetch } from "oauth4webapi";

import type * as DiscoveryModule from "@/lib/auth/discovery";
import type * as DpopModule from "@/lib/auth/dpop";
import type * as IdTokenModule from "@/lib/auth/id-token";
import type * as SiteNameModule from "@/lib/auth/site-name";
import type * as McpClientModule from "@/lib/site/mcp-client";

import { anotherBundlesCopy } from "../../support/another-bundle";
import { configureDashboard, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";

const site = setUpFakeSite();

beforeAll(() => configureDashboard(site.url));
beforeEach(async () => {
  (await anotherBundlesCopy<typeof DiscoveryModule>("@/lib/auth/discovery")).resetDiscoveryCacheForTests();
  (await anotherBundlesCopy<typeof SiteNameModule>("@/lib/auth/site-name")).resetSiteNameCacheForTests();
  (await anotherBundlesCopy<typeof McpClientModule>("@/lib/site/mcp-client")).resetPublicToolsCacheForTests();
});

describe("what is read of the site, once per process", () => {
  it("discovery read by the proxy's copy serves the route handlers' copy", async () => {
    const proxy = await anotherBundlesCopy<typeof DiscoveryModule>("@/lib/auth/discovery");
    await expect(proxy.getSiteMetadata()).resolves.toMatchObject({ as: { issuer: site.url } });
    const routes = await anotherBundlesCopy<typeof DiscoveryModule>("@/lib/auth/discovery");
    expect(routes).not.toBe(proxy);
    await expect(routes.getSiteMetadata()).resolves.toMatchObject({ as: { issuer: site.url } });
    expect(site.callsTo("/.well-known/oauth-authorization-server")).toHaveLength(1);
  });

  it("the site's name read for a page's layout serves the signed-out page's `/api/site`", async () => {
    site.handlers.set("GET /.well-known/oauth-protected-resource", () => ({
      json: { resource: site.url, authorization_servers: [site.url], resource_name: "Demo Academy" },
    }));
    const pages = await anotherBundlesCopy<typeof SiteNameModule>("@/lib/auth/site-name");
    await expect(pages.getSiteName()).resolves.toBe("Demo Academy");
    const routes = await anotherBundlesCopy<typeof SiteNameModule>("@/lib/auth/site-name");
    expect(routes).not.toBe(pages);
    await expect(routes.getSiteName()).resolves.toBe("Demo Academy");
    expect(site.callsTo("/.well-known/oauth-protected-resource")).toHaveLength(1);
  });

  it("the id_token key set fetched at sign-in serves the proxy's refresh (and its re-fetch cooldown with it)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expected = { issuer: site.url, clientId: TEST_CLIENT_ID, jwksUri: `${site.url}/jwks`, nonce: "n-1" };
    const idToken = () => site.signIdToken({ iss: site.url, aud: TEST_CLIENT_ID, sub: "member-1", nonce: "n-1", iat: now, exp: now + 600 });
    const callback = await anotherBundlesCopy<typeof IdTokenModule>("@/lib/auth/id-token");
    await expect(callback.verifyIdToken(await idToken(), expected)).resolves.toMatchObject({ sub: "member-1" });
    const proxy = await anotherBundlesCopy<typeof IdTokenModule>("@/lib/auth/id-token");
    expect(proxy).not.toBe(callback);
    await expect(proxy.verifyIdToken(await idToken(), expected)).resolves.toMatchObject({ sub: "member-1" });
    expect(site.callsTo("/jwks")).toHaveLength(1);
  });

  it("the anonymous MCP answer found by Settings' render serves the connections route", async () => {
    // A site without an MCP server (an answer that is kept; "unreachable" is not).
    site.handlers.set("POST /mcp", () => ({ status: 404, json: { error: "not_found" } }));
    const page = await anotherBundlesCopy<typeof McpClientModule>("@/lib/site/mcp-client");
    await expect(page.probeMcpAnonymously()).resolves.toMatchObject({ on: false, reason: "not_offered" });
    const route = await anotherBundlesCopy<typeof McpClientModule>("@/lib/site/mcp-client");
    expect(route).not.toBe(page);
    await expect(route.probeMcpAnonymously()).resolves.toMatchObject({ on: false, reason: "not_offered" });
    expect(site.callsTo("/mcp")).toHaveLength(1);
  });

  it("the DPoP nonce the site gave a data route is the one the proxy's refresh proves with next (RFC 9449 section 8)", async () => {
    // What a site call's fetch sees: an answer carrying the site's current nonce.
    const hear = (copy: typeof DpopModule, nonce: string) => {
      const answer = () => Promise.resolve(new Response(null, { status: 200, headers: { "dpop-nonce": nonce } }));
      const observing = copy.rememberingDpopNonces<Record<typeof customFetch, (url: string, init: object) => Promise<Response>>>({
        [customFetch]: answer,
      });
      return observing[customFetch](`${site.url}/api/oauth/token`, { method: "POST" });
    };
    const proxy = await anotherBundlesCopy<typeof DpopModule>("@/lib/auth/dpop");
    await hear(proxy, "nonce-1");
    // The site moves on to a new nonce, and a data route in another bundle hears it first.
    const routes = await anotherBundlesCopy<typeof DpopModule>("@/lib/auth/dpop");
    expect(routes).not.toBe(proxy);
    await hear(routes, "nonce-2");
    const proof = await proxy.dpopProof(await proxy.newDpopKey(), "POST", `${site.url}/api/oauth/token`);
    expect(decodeJwt(proof).nonce).toBe("nonce-2");
  });
});
