/**
 * The site rotates its id_token signing key moments after the dashboard fetched its key set (OpenID
 * Connect Core 10.1.1): a refresh whose answer carries an id_token under the new key, and two sign-ins
 * verifying id_tokens under it at the same time while the re-fetch is still on its way. The sign-in
 * itself, and refusals, are tested against the sandbox in tests/integration/signing-key-rotation.test.ts.
 */
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeEach, describe, expect, it } from "vitest";

import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { verifyIdToken } from "@/lib/auth/id-token";
import { ensureFreshTokens } from "@/lib/auth/tokens";

import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";
import { TEST_CLIENT_ID } from "../../support/env";
import type { Handler } from "../../support/fake-site";
import { expiringSession } from "../../support/session-fixture";

const site = setUpDashboardOnFakeSite();
const DISCOVERY_PATHS = ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"];
const noCall = { method: "GET", path: "", body: "", headers: {} };

let keySetsServed = 0;
let served: JWK[] = [];
let keySetDelayMs = 0;
let jwksPath = "";

/** A key set of its own for each test (jose keeps one per jwks_uri), served from `served`. */
beforeEach(() => {
  keySetsServed += 1;
  jwksPath = `/jwks-rotation-${keySetsServed}`;
  served = [(site.handlers.get("GET /jwks")!(noCall).json as { keys: JWK[] }).keys[0]!];
  keySetDelayMs = 0;
  site.handlers.set(`GET ${jwksPath}`, () => ({ json: { keys: served }, delayMs: keySetDelayMs }));
});

/** Discovery names this test's key set. */
function discoveryNamesTheKeySet(): void {
  for (const key of DISCOVERY_PATHS) {
    const metadata = site.handlers.get(key)!(noCall).json as Record<string, unknown>;
    const handler: Handler = () => ({ json: { ...metadata, jwks_uri: `${site.url}${jwksPath}` } });
    site.handlers.set(key, handler);
  }
  resetDiscoveryCacheForTests();
}

/** The site's next key: published (first in the set) from now on, and the key that signs. */
async function rotateTheSiteKey(kid: string): Promise<CryptoKey> {
  const next = await generateKeyPair("ES256", { extractable: true });
  served = [{ ...(await exportJWK(next.publicKey)), kid, alg: "ES256", use: "sig" }, ...served];
  return next.privateKey;
}

function claims(): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return { iss: site.url, aud: TEST_CLIENT_ID, sub: "s", iat: now, exp: now + 600 };
}

describe("an id_token under a key the site published moments after the dashboard fetched its key set", () => {
  it("a refresh whose answer carries one is accepted, after one re-fetch of the key set", async () => {
    discoveryNamesTheKeySet();
    const refreshAnswering = (idToken: string) =>
      site.handlers.set("POST /api/oauth/token", () => ({
        json: { access_token: "at-9", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-9", id_token: idToken },
      }));
    refreshAnswering(await site.signIdToken(claims()));
    await ensureFreshTokens(expiringSession({ refreshToken: "rt-a" }));
    expect(site.callsTo(jwksPath)).toHaveLength(1);

    const key = await rotateTheSiteKey("rotated-for-refresh");
    refreshAnswering(await site.signIdToken(claims(), { kid: "rotated-for-refresh", key }));
    const { session } = await ensureFreshTokens(expiringSession({ refreshToken: "rt-b" }));
    expect(session.accessToken).toBe("at-9");
    expect(site.callsTo(jwksPath)).toHaveLength(2);
  });

  it("two verified at once, while the one re-fetch is still on its way, both pass", async () => {
    const expected = { issuer: site.url, clientId: TEST_CLIENT_ID, jwksUri: `${site.url}${jwksPath}` };
    await verifyIdToken(await site.signIdToken(claims()), expected);
    expect(site.callsTo(jwksPath)).toHaveLength(1);

    const key = await rotateTheSiteKey("rotated-for-two");
    const tokens = [
      await site.signIdToken(claims(), { kid: "rotated-for-two", key }),
      await site.signIdToken({ ...claims(), sub: "t" }, { kid: "rotated-for-two", key }),
    ];
    keySetDelayMs = 300;
    const verified = await Promise.all(tokens.map((token) => verifyIdToken(token, expected)));
    expect(verified.map((payload) => payload.sub)).toEqual(["s", "t"]);
    expect(site.callsTo(jwksPath)).toHaveLength(2);
  });
});
