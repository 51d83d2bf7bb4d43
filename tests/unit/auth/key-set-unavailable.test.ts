import { beforeAll, describe, expect, it } from "vitest";

import { AuthError } from "@/lib/auth/errors";
import { verifyIdToken } from "@/lib/auth/id-token";
import { resetConfigForTests } from "@/lib/config";
import { SITE_ANSWER_BYTE_CAPS } from "@/lib/site/site-call-policy";
import { SITE_CALL_TIMEOUT_MS } from "@/lib/site/site-deadline";

import { configureDashboard, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";

/**
 * A key set the site does not serve says nothing of the id_token: the token is refused all the same,
 * but as `site_unavailable` (detail `jwks`), which the member reads as "try again in a few minutes",
 * never as `id_token_invalid`, which tells them (and the operator's alerts) that the site's proof of who
 * they are was forged or broken. Each case has its own jwks_uri, so its own key set, fetched afresh.
 */
const site = setUpFakeSite();

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});

async function verifyAgainst(keySet: string) {
  const now = Math.floor(Date.now() / 1000);
  const idToken = await site.signIdToken({ iss: site.url, aud: TEST_CLIENT_ID, sub: "member-42", iat: now, exp: now + 600, nonce: "n" });
  return verifyIdToken(idToken, { issuer: site.url, clientId: TEST_CLIENT_ID, nonce: "n", jwksUri: `${site.url}/jwks?case=${keySet}` });
}

async function expectSiteUnavailable(keySet: string) {
  const error: unknown = await verifyAgainst(keySet).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ code: "site_unavailable", detail: "jwks" });
  expect(site.callsTo("/jwks")).toHaveLength(1);
}

describe("a key set the site does not serve", () => {
  it.each<[string, Handler]>([
    ["a 503", () => ({ status: 503, json: { error: "temporarily_unavailable" } })],
    ["a redirect", () => ({ status: 302, headers: { location: "https://elsewhere.example/jwks" } })],
    ["an HTML page", () => ({ text: "<html>Maintenance</html>", headers: { "content-type": "text/html" } })],
    ["JSON that is not a JWK Set", () => ({ json: { keys: "none" } })],
    ["an answer over its cap", () => ({ json: { keys: [], padding: "x".repeat(SITE_ANSWER_BYTE_CAPS.jwks) } })],
  ])("%s: the id_token is refused as site_unavailable, not id_token_invalid", async (name, answer) => {
    site.handlers.set("GET /jwks", answer);
    await expectSiteUnavailable(name.replace(/\W+/g, "-"));
  });

  it(
    "no answer in time: refused as site_unavailable once the call's limit has passed",
    async () => {
      site.handlers.set("GET /jwks", () => ({ delayMs: 60_000, json: { keys: [] } }));
      await expectSiteUnavailable("hangs");
    },
    SITE_CALL_TIMEOUT_MS + 10_000,
  );

  it("a key set that answers is still the judge: the same token verifies once the site serves it", async () => {
    await expect(verifyAgainst("served")).resolves.toMatchObject({ sub: "member-42" });
  });
});
