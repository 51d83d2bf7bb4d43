import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as loginRoute } from "@/app/api/auth/login/route";
import { DISCOVERY_TTL_MS, getSiteMetadata, resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";

import { captureLog } from "../../support/captured-log";
import { configureDashboard, TEST_APP_URL } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";
import { RouteBrowser } from "../../support/route-browser";

const site = setUpFakeSite();
let metadata: Record<string, unknown>;

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  metadata = site.handlers.get("GET /.well-known/oauth-authorization-server")!({ method: "GET", path: "", body: "", headers: {} })
    .json as Record<string, unknown>;
});
beforeEach(() => {
  resetDiscoveryCacheForTests();
});

/** Serves metadata naming `issuer`; a refused issuer is refused at the first document, the other is never asked. */
function serveIssuer(
  issuer: string,
  paths: readonly string[] = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"],
): void {
  for (const path of paths) {
    site.handlers.set(`GET ${path}`, () => ({ json: { ...metadata, issuer } }));
  }
}

describe("discovery's issuer (RFC 8414 section 3.3)", () => {
  it("accepts metadata whose issuer is SITE_URL exactly", async () => {
    serveIssuer(site.url);
    await expect(getSiteMetadata()).resolves.toMatchObject({ as: { issuer: site.url } });
  });

  // oauth4webapi compares against the URL it fetched from, which a URL parser ends with "/": without the
  // BFF's own comparison, a trailing slash would pass.
  it.each([
    ["a trailing slash", (url: string) => `${url}/`],
    ["another letter case", (url: string) => url.replace("http://", "HTTP://")],
  ])("refuses an issuer that differs by %s, and no sign-in starts", async (_name, change) => {
    serveIssuer(change(site.url), ["/.well-known/oauth-authorization-server"]);
    await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_misconfigured" });
    resetDiscoveryCacheForTests();
    const jar = memoryJar();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "site_misconfigured" });
    expect(jar.cookies.size).toBe(0);
  });

  it.each([
    ["a trailing slash", (url: string) => `${url}/`],
    ["another letter case", (url: string) => url.replace("http://", "HTTP://")],
  ])(
    "checklist 1: with an issuer that differs by %s login logs a configuration error, sends nowhere near the site, caches nothing",
    async (_name, change) => {
      const log = captureLog();
      serveIssuer(change(site.url));
      const browser = new RouteBrowser();
      const response = browser.absorb(await loginRoute(browser.request("/api/auth/login?returnTo=%2Fcourses")));
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get("location")!);
      expect(location.origin).toBe(new URL(TEST_APP_URL).origin);
      expect(location.searchParams.get("code")).toBe("site_misconfigured");
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(log.events()).toContainEqual(
        expect.objectContaining({ event: "sign_in_failed", errorCode: "site_misconfigured", level: "warn" }),
      );
      expect(site.callsTo("/oauth/authorize")).toHaveLength(0);

      // Nothing cached: the refusal is remembered only briefly, so the site's corrected metadata is read again.
      serveIssuer(site.url);
      await expect(getSiteMetadata(Date.now() + DISCOVERY_TTL_MS / 60)).resolves.toMatchObject({ as: { issuer: site.url } });
    },
  );

  // The RFC 8414 document is ours; the OpenID configuration beside it, whose issuer passes oauth4webapi's
  // normalised comparison, must not lend the dashboard its keys and id_token algorithms.
  it.each([
    ["a trailing slash", (url: string) => `${url}/`],
    ["another letter case", (url: string) => url.replace("http://", "HTTP://")],
  ])("checklist 1: takes nothing from an OpenID configuration whose issuer differs by %s", async (_name, change) => {
    const oauthOnly: Record<string, unknown> = { ...metadata, issuer: site.url };
    delete oauthOnly.jwks_uri;
    delete oauthOnly.id_token_signing_alg_values_supported;
    site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({ json: oauthOnly }));
    site.handlers.set("GET /.well-known/openid-configuration", () => ({ json: { ...metadata, issuer: change(site.url) } }));
    const discovered = await getSiteMetadata();
    expect(site.callsTo("/.well-known/openid-configuration").length).toBeGreaterThan(0);
    expect(discovered.as.issuer).toBe(site.url);
    expect(discovered.as.jwks_uri).toBeUndefined();
    expect(discovered.as.id_token_signing_alg_values_supported).toBeUndefined();
    expect(discovered.idTokenSupported).toBe(false);
  });
});

describe("endpoints pinned to the issuer's origin (finding 7)", () => {
  function serveEndpoint(name: string, url: string): void {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      site.handlers.set(`GET ${path}`, () => ({ json: { ...metadata, issuer: site.url, [name]: url } }));
    }
  }

  // RFC 9126: the pushed authorization request carries the client secret too (RFC 9700 section 4.4).
  it.each(["token_endpoint", "userinfo_endpoint", "revocation_endpoint", "jwks_uri", "pushed_authorization_request_endpoint"])(
    "refuses metadata whose %s is on another origin, unless SITE_ENDPOINT_ORIGINS lists it",
    async (name) => {
      const elsewhere = site.url.replace("127.0.0.1", "localhost");
      serveEndpoint(name, `${elsewhere}/somewhere`);
      await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_misconfigured", detail: "endpoint_origin" });
      process.env.SITE_ENDPOINT_ORIGINS = elsewhere;
      resetConfigForTests();
      resetDiscoveryCacheForTests();
      try {
        await expect(getSiteMetadata()).resolves.toMatchObject({ as: { [name]: `${elsewhere}/somewhere` } });
      } finally {
        delete process.env.SITE_ENDPOINT_ORIGINS;
        resetConfigForTests();
      }
    },
  );
});

describe("what the metadata must name", () => {
  /** Serves both documents without `names`. */
  function serveWithout(...names: string[]): void {
    const document: Record<string, unknown> = { ...metadata, issuer: site.url };
    for (const name of names) delete document[name];
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      site.handlers.set(`GET ${path}`, () => ({ json: document }));
    }
  }

  // RFC 8414 section 2: the code flow needs both endpoints; without one no sign-in can start.
  it.each(["authorization_endpoint", "token_endpoint"])("refuses metadata without %s", async (name) => {
    serveWithout(name);
    await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_misconfigured" });
  });

  // docs/architecture.md section 6.4: id_tokens are relied on only with both the algorithms and the keys to check them.
  it("id_tokens are supported with id_token_signing_alg_values_supported and jwks_uri, not without jwks_uri", async () => {
    serveWithout();
    await expect(getSiteMetadata()).resolves.toMatchObject({ idTokenSupported: true });
    resetDiscoveryCacheForTests();
    serveWithout("jwks_uri");
    const discovered = await getSiteMetadata();
    expect(discovered.as.id_token_signing_alg_values_supported).toEqual(["ES256"]);
    expect(discovered.idTokenSupported).toBe(false);
  });
});

describe("a site that limits how often its metadata answers", () => {
  it.each([429, 403])(
    "%s with a wait: the sign-in ends on its problem page saying the site is busy, as long as it asked",
    async (status) => {
      const real = site.handlers.get("GET /.well-known/oauth-authorization-server")!;
      site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({
        status,
        json: { error: "slow_down" },
        headers: { "retry-after": "12" },
      }));
      try {
        await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_unavailable", detail: "site_busy" });
        const login = await loginRoute(new RouteBrowser().request("/api/auth/login"));
        const problem = new URL(login.headers.get("location")!);
        expect(problem.pathname).toBe("/sign-in-problem");
        expect(Object.fromEntries(problem.searchParams)).toEqual({ code: "site_unavailable", detail: "site_busy", retryAfter: "12" });
        // A site that is down is not busy.
        resetDiscoveryCacheForTests();
        site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({ status: 503, text: "Down" }));
        await expect(getSiteMetadata()).rejects.toMatchObject({ code: "site_unavailable", detail: undefined });
      } finally {
        site.handlers.set("GET /.well-known/oauth-authorization-server", real);
      }
    },
  );
});
