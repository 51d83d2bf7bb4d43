import { generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";

import { verifyIdToken } from "@/lib/auth/id-token";
import { fetchUserInfoClaims } from "@/lib/auth/userinfo";
import { resetConfigForTests } from "@/lib/config";
import { oauthClient, siteRequestOptions } from "@/lib/site/oauth-http";

import { configureDashboard, TEST_CLIENT_ID } from "../../support/env";

/**
 * Security checklist 2 (RFC 9700 section 2.6, RFC 6750 section 5.3): on a site served over https, an
 * endpoint its metadata lists with http:// is refused before any request is sent: no downgrade.
 * site.example is never resolved: every refusal here happens before a connection would be opened.
 */
const SITE = "https://site.example";
const as: oauth.AuthorizationServer = {
  issuer: SITE,
  authorization_endpoint: `${SITE}/oauth/authorize`,
  token_endpoint: "http://site.example/api/oauth/token",
  userinfo_endpoint: "http://site.example/api/oauth/userinfo",
  revocation_endpoint: "http://site.example/api/oauth/revoke",
  jwks_uri: "http://site.example/jwks",
};

beforeAll(() => {
  configureDashboard(SITE);
  resetConfigForTests();
});

describe("checklist 2: an endpoint over http:// on an https site fails closed", () => {
  it.each<[string, () => Promise<unknown>]>([
    ["token", () => oauth.refreshTokenGrantRequest(as, oauthClient().client, oauthClient().auth, "rt", siteRequestOptions())],
    ["revocation", () => oauth.revocationRequest(as, oauthClient().client, oauthClient().auth, "rt", siteRequestOptions())],
  ])("checklist 2: the %s endpoint is refused before any request", async (_name, call) => {
    await expect(call()).rejects.toMatchObject({ code: oauth.HTTP_REQUEST_FORBIDDEN });
  });

  it("checklist 2: the UserInfo endpoint is refused before any request, and no claims come back", async () => {
    const error: unknown = await fetchUserInfoClaims(as, "at").catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: "AuthError", cause: { code: oauth.HTTP_REQUEST_FORBIDDEN } });
  });

  it("checklist 2: a jwks_uri over http:// is a configuration error, and the id_token is not accepted", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ iss: SITE, aud: TEST_CLIENT_ID, sub: "s", iat: now, exp: now + 600 })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .sign(privateKey);
    await expect(verifyIdToken(idToken, { issuer: SITE, clientId: TEST_CLIENT_ID, jwksUri: as.jwks_uri! })).rejects.toMatchObject({
      code: "site_misconfigured",
    });
  });
});
