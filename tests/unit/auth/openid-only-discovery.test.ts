import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { getSiteMetadata, resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";

import { configureDashboard } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";

/**
 * Issue 30, item 0: a provider that publishes only OpenID Connect Discovery. When the RFC 8414 document
 * answers 404, discovery falls back to `/.well-known/openid-configuration`, with the same exact-issuer rule.
 */
const site = setUpFakeSite();
let metadata: Record<string, unknown>;
const RFC8414 = "GET /.well-known/oauth-authorization-server";
const OPENID = "GET /.well-known/openid-configuration";

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  metadata = site.handlers.get(RFC8414)!({ method: "GET", path: "", body: "", headers: {} }).json as Record<string, unknown>;
});
beforeEach(() => {
  resetDiscoveryCacheForTests();
  site.calls.length = 0;
  site.handlers.set(OPENID, () => ({ json: metadata }));
});

describe("OpenID-only discovery", () => {
  it("falls back to the OpenID configuration when the RFC 8414 document answers 404, and signs in from it", async () => {
    site.handlers.set(RFC8414, () => ({ status: 404, json: { error: "not_found" } }));
    await expect(getSiteMetadata()).resolves.toMatchObject({ as: { issuer: site.url }, metadataSource: "openid-configuration" });
    resetDiscoveryCacheForTests();
    const url = await startLogin(memoryJar(), "/");
    expect(url.origin + url.pathname).toBe(`${site.url}/oauth/authorize`);
  });

  it("keeps the exact-issuer rule for the OpenID document (a trailing slash is refused)", async () => {
    site.handlers.set(RFC8414, () => ({ status: 404, text: "Not found" }));
    site.handlers.set(OPENID, () => ({ json: { ...metadata, issuer: `${site.url}/` } }));
    await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_misconfigured" });
  });

  it("does not fall back when the RFC 8414 document fails for another reason (500)", async () => {
    site.handlers.set(RFC8414, () => ({ status: 500, json: { error: "server_error" } }));
    await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_unavailable" });
    expect(site.callsTo("/.well-known/openid-configuration")).toHaveLength(0);
  });

  it("says the site is unavailable when neither document exists", async () => {
    site.handlers.set(RFC8414, () => ({ status: 404, text: "" }));
    site.handlers.set(OPENID, () => ({ status: 404, text: "" }));
    await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_unavailable" });
  });

  it("with the RFC 8414 document present, it is the authority (metadataSource says so)", async () => {
    site.handlers.set(RFC8414, () => ({ json: metadata }));
    await expect(getSiteMetadata()).resolves.toMatchObject({ metadataSource: "oauth-authorization-server" });
  });
});
