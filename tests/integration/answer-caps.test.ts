import { generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { getSiteMetadata, resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { verifyIdToken } from "@/lib/auth/id-token";
import { revokeAtSite } from "@/lib/auth/revocation";
import { oauthClient, siteRequestOptions } from "@/lib/site/oauth-http";
import { fetchUserInfoClaims } from "@/lib/auth/userinfo";
import * as logger from "@/lib/log/logger";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { loadSession, type SessionData } from "@/lib/session/session";
import { SITE_ANSWER_BYTE_CAPS, siteFailureOf } from "@/lib/site/site-call-policy";
import type { EndpointName, RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

let sandbox: RunningSandbox;
let session: SessionData;
/** A well-formed ES256 JWT naming a key the site does not have: verifying it makes jose fetch the JWKS. */
let foreignJwt: string;

/** A new member session, whose refresh token the site has not yet renewed. */
async function signIn(): Promise<SessionData> {
  const browser = new RouteBrowser();
  await signInThroughRoutes(browser);
  const loaded = await loadSession(requestResponseJar(browser.request("/").cookies, new CookieBuffer()));
  if (!loaded) throw new Error("no session");
  return loaded.data;
}

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
  const { privateKey } = await generateKeyPair("ES256");
  foreignJwt = await new SignJWT({ nonce: "n" })
    .setProtectedHeader({ alg: "ES256", kid: "not-at-the-site" })
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
});
afterAll(async () => sandbox.close());
afterEach(() => {
  sandbox.reset();
  resetDiscoveryCacheForTests();
  vi.restoreAllMocks();
});

let jwksReads = 0;

/** Each kind of answer, read the way the dashboard reads it. */
const reads: [string, EndpointName, number, () => Promise<unknown>][] = [
  ["metadata", "discovery", SITE_ANSWER_BYTE_CAPS.oauth, () => getSiteMetadata()],
  [
    "JWKS",
    "jwks",
    SITE_ANSWER_BYTE_CAPS.jwks,
    () =>
      verifyIdToken(foreignJwt, {
        issuer: sandbox.url,
        clientId: "any",
        nonce: "n",
        // A key set of its own each time: one already read (or refused) is remembered.
        jwksUri: `${sandbox.url}/.well-known/jwks.json?not-cached=${(jwksReads += 1)}`,
      }),
  ],
  [
    "token",
    "token",
    SITE_ANSWER_BYTE_CAPS.oauth,
    async () => {
      const { as } = await getSiteMetadata();
      const { client, auth } = oauthClient();
      const response = await oauth.refreshTokenGrantRequest(as, client, auth, session.refreshToken ?? "", siteRequestOptions());
      return oauth.processRefreshTokenResponse(as, client, response);
    },
  ],
  ["UserInfo", "userinfo", SITE_ANSWER_BYTE_CAPS.oauth, async () => fetchUserInfoClaims((await getSiteMetadata()).as, session.accessToken)],
];

/**
 * Plain, and compressed as a web server in front of the site may send it (RFC 9110 section 8.4): a few KiB on
 * the wire that open to more than the cap are stopped like a plain answer over it (OWASP ASVS 5 V5.2.3).
 */
describe.each([null, "gzip", "br"] as const)(
  "every answer from the site is read with the byte cap of its kind (content coding %s)",
  (coding) => {
    // The token case renews the session's refresh token, which a site answers only once.
    beforeAll(async () => {
      session = await signIn();
    });
    beforeEach(() => sandbox.setKnobs({ contentCoding: coding }));

    it.each(reads)("%s: one byte over the cap stops the read with too_large and a site_error line", async (_kind, endpoint, cap, read) => {
      await getSiteMetadata(); // discovery itself is under test only in its own case
      if (endpoint === "discovery") resetDiscoveryCacheForTests();
      const log = vi.spyOn(logger, "logEvent");
      sandbox.resetRequests();
      sandbox.setKnobs({ answerPaddingBytes: { [endpoint]: cap + 1 } });
      const error: unknown = await read().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(siteFailureOf(error)?.code).toBe("too_large");
      expect(log).toHaveBeenCalledWith("site_error", expect.objectContaining({ reason: "too_large", capBytes: cap }), "warn");
      const answer = sandbox.requests().find((entry) => entry.endpoint === endpoint);
      expect(answer?.contentCoding).toBe(coding ?? undefined);
    });

    it.each(reads)("%s: an answer just under the cap is read", async (_kind, endpoint, cap, read) => {
      if (endpoint !== "discovery") await getSiteMetadata();
      sandbox.setKnobs({ answerPaddingBytes: { [endpoint]: cap } });
      const error: unknown = await read().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      // Whatever else the read decides (a foreign key, a replayed refresh token), the size was not the problem.
      expect(siteFailureOf(error)).toBeUndefined();
    });

    it("revocation: a 200 is success whatever its body (RFC 7009 section 2.2), so a huge body is never read", async () => {
      await getSiteMetadata();
      sandbox.setKnobs({ answerPaddingBytes: { revoke: 10 * 1024 * 1024 } });
      await expect(revokeAtSite({ ...session, accessToken: "not-an-access-token", refreshToken: null })).resolves.toBeUndefined();
    });
  },
);
