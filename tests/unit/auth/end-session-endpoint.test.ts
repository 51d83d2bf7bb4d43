/**
 * Which end-session endpoint the sign-out sends the member to (OpenID Connect RP-Initiated Logout 1.0):
 * only one the site's own OpenID configuration lists, read afresh, under the configured issuer, over
 * https (or http on loopback), and within the sign-out's wait for it. The URL carries the member's ID token
 * as `id_token_hint`, so anything else sends the member nowhere.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { endSessionRedirect } from "@/lib/auth/end-session";
import { resetConfigForTests } from "@/lib/config";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { sessionData } from "../../support/session-data";

const site = setUpFakeSite();
const OPENID = "GET /.well-known/openid-configuration";
let metadata: Record<string, unknown>;

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  metadata = site.handlers.get(OPENID)!({ method: "GET", path: "", body: "", headers: {} }).json as Record<string, unknown>;
});
beforeEach(() => {
  site.handlers.set(OPENID, () => ({ json: { ...metadata, end_session_endpoint: `${site.url}/oauth/logout` } }));
});

const signedIn = () => sessionData({ idToken: "header.payload.signature" });

describe("the site's end_session_endpoint", () => {
  it("is where the member goes, with the ID token as id_token_hint", async () => {
    const url = new URL((await endSessionRedirect(signedIn(), "signed_out")) ?? "");
    expect(`${url.origin}${url.pathname}`).toBe(`${site.url}/oauth/logout`);
    expect(url.searchParams.get("id_token_hint")).toBe("header.payload.signature");
  });

  it("over http:// to a host that is not loopback, sends the member nowhere and tells the operator (checklist 2)", async () => {
    const log = captureLog();
    site.handlers.set(OPENID, () => ({ json: { ...metadata, end_session_endpoint: "http://school.example.com/oauth/logout" } }));
    expect(await endSessionRedirect(signedIn(), "signed_out")).toBeNull();
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "site_error", endpoint: "end_session_endpoint", siteErrorCode: "insecure_endpoint" }),
    );
  });

  it.each([
    ["another issuer", "https://other.example"],
    ["the issuer with a trailing slash (exact match, as at discovery)", "/"],
  ])("from an OpenID configuration under %s, sends the member nowhere", async (_name, issuer) => {
    site.handlers.set(OPENID, () => ({
      json: { ...metadata, issuer: issuer === "/" ? `${site.url}/` : issuer, end_session_endpoint: `${site.url}/oauth/logout` },
    }));
    expect(await endSessionRedirect(signedIn(), "signed_out")).toBeNull();
  });

  it("from a site that does not answer within the sign-out's wait (3 s, not a site call's 8 s), sends the member nowhere", async () => {
    site.handlers.set(OPENID, () => ({ json: { ...metadata, end_session_endpoint: `${site.url}/oauth/logout` }, delayMs: 30_000 }));
    const started = Date.now();
    expect(await endSessionRedirect(signedIn(), "signed_out")).toBeNull();
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});
