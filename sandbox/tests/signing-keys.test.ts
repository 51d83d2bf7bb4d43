import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, generateKeyPair, jwtVerify, SignJWT } from "jose";
import type { JSONWebKeySet } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { KeyRotationResult, RunningSandbox } from "../server";
import { MAX_PUBLISHED_KEYS } from "../signing-keys";
import { postSandboxControl, SandboxBrowser } from "../testing";
import { obtainTokens } from "./helpers";

/**
 * The site rotates its id_token signing key (signing-keys.ts): `POST /__sandbox/rotate-signing-key` with
 * `graceful` (the old key stays published), `abrupt` (it is dropped at once) or `unpublished` (a site's
 * mistake: the new key is not published).
 */
let sandbox: RunningSandbox;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, control: true });
});
afterEach(async () => {
  await sandbox.close();
});

async function jwks(): Promise<JSONWebKeySet> {
  const response = await fetch(`${sandbox.url}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as JSONWebKeySet;
}

async function rotate(mode: string): Promise<KeyRotationResult> {
  const response = await postSandboxControl(sandbox.url, "/__sandbox/rotate-signing-key", { mode });
  expect(response.status).toBe(200);
  return (await response.json()) as KeyRotationResult;
}

async function idToken(): Promise<string> {
  const { idToken: token } = await obtainTokens(sandbox);
  if (token === undefined) throw new Error("no id_token");
  return token;
}

/** Verifies an id_token against the JWKS the site publishes now, as a client would. */
async function verifiesNow(token: string): Promise<boolean> {
  const keySet = createLocalJWKSet(await jwks());
  try {
    await jwtVerify(token, keySet, { algorithms: ["ES256"], issuer: sandbox.url, audience: SEEDED_DASHBOARD_CLIENT.clientId });
    return true;
  } catch (error) {
    if (error instanceof joseErrors.JWKSNoMatchingKey) return false;
    throw error;
  }
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const kidsOf = (set: JSONWebKeySet) => set.keys.map((key) => key.kid);

describe("rotating the id_token signing key", () => {
  it("graceful: a new ES256 key with a new kid signs from now on, and the old key stays published", async () => {
    const before = await idToken();
    const oldKid = kidOf(before);
    expect(kidsOf(await jwks())).toEqual([oldKid]);

    const rotation = await rotate("graceful");
    expect(rotation.mode).toBe("graceful");
    expect(rotation.kid).not.toBe(oldKid);
    expect(rotation.publishedKids).toEqual([rotation.kid, oldKid]);
    const set = await jwks();
    expect(kidsOf(set)).toEqual([rotation.kid, oldKid]);
    for (const key of set.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(key).not.toHaveProperty("d");
    }

    const after = await idToken();
    expect(decodeProtectedHeader(after)).toMatchObject({ alg: "ES256", kid: rotation.kid });
    expect(await verifiesNow(after)).toBe(true);
    // An id_token issued before the rotation still verifies.
    expect(await verifiesNow(before)).toBe(true);
  });

  it("abrupt: the new key signs and is the only one published; the old key's id_tokens no longer verify", async () => {
    const before = await idToken();
    const rotation = await rotate("abrupt");
    expect(rotation.kid).not.toBe(kidOf(before));
    expect(rotation.publishedKids).toEqual([rotation.kid]);
    expect(kidsOf(await jwks())).toEqual([rotation.kid]);

    const after = await idToken();
    expect(kidOf(after)).toBe(rotation.kid);
    expect(await verifiesNow(after)).toBe(true);
    expect(await verifiesNow(before)).toBe(false);
  });

  it("unpublished: the new key signs but the JWKS stays as it was, so its id_tokens verify against nothing", async () => {
    const before = await idToken();
    const rotation = await rotate("unpublished");
    expect(rotation.publishedKids).toEqual([kidOf(before)]);
    expect(kidsOf(await jwks())).toEqual([kidOf(before)]);
    const after = await idToken();
    expect(kidOf(after)).toBe(rotation.kid);
    expect(await verifiesNow(after)).toBe(false);
    expect(await verifiesNow(before)).toBe(true);
  });

  it("gives every rotation a new kid, and graceful rotations keep the newest keys published only", async () => {
    const first = kidOf(await idToken());
    const kids = [first];
    for (let index = 0; index < MAX_PUBLISHED_KEYS + 1; index += 1) kids.unshift((await rotate("graceful")).kid);
    expect(new Set(kids).size).toBe(kids.length);
    expect(kidsOf(await jwks())).toEqual(kids.slice(0, MAX_PUBLISHED_KEYS));
    expect(kidOf(await idToken())).toBe(kids[0]);
  });

  it("is what sandbox.rotateSigningKey does in-process", async () => {
    const rotation = sandbox.rotateSigningKey("abrupt");
    expect(kidsOf(await jwks())).toEqual([rotation.kid]);
    expect(kidOf(await idToken())).toBe(rotation.kid);
  });

  it("still takes an id_token_hint signed with a key it has dropped (the site issued it), and refuses a forged one", async () => {
    const browser = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const hint = (await obtainTokens(sandbox, { email: "olivia@example.com" })).idToken!;
    sandbox.rotateSigningKey("abrupt");
    const logout = (token: string) =>
      browser.get(
        `/oauth/logout?${new URLSearchParams({
          id_token_hint: token,
          client_id: SEEDED_DASHBOARD_CLIENT.clientId,
          post_logout_redirect_uri: "http://localhost:3000/signed-out",
          state: "s-1",
        }).toString()}`,
      );
    // Another key under the dropped key's kid: not the site's.
    const forger = await generateKeyPair("ES256");
    const forged = await new SignJWT({ sub: "member-olivia" })
      .setProtectedHeader({ alg: "ES256", kid: kidOf(hint) })
      .setIssuer(sandbox.url)
      .setAudience(SEEDED_DASHBOARD_CLIENT.clientId)
      .sign(forger.privateKey);
    const refused = await logout(forged);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The id_token_hint was not issued by this site.");

    const response = await logout(hint);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:3000/signed-out?state=s-1");
  });
});

describe("the rotate-signing-key control route", () => {
  let uncontrolled: RunningSandbox;
  beforeAll(async () => {
    uncontrolled = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await uncontrolled.close();
  });

  it("does not exist unless control is enabled (SANDBOX_CONTROL)", async () => {
    const response = await postSandboxControl(uncontrolled.url, "/__sandbox/rotate-signing-key", { mode: "abrupt" });
    expect(response.status).toBe(404);
    expect(uncontrolled.state.signingKeys.published).toHaveLength(1);
  });

  const MODES = "mode must be one of graceful, abrupt, unpublished";
  it.each([
    [{}, MODES],
    [{ mode: "sudden" }, MODES],
    [{ mode: 1 }, MODES],
    [["graceful"], MODES],
    [null, "The body must be JSON"],
  ])("refuses the body %j with a 400: %s", async (body, description) => {
    const kids = kidsOf(await jwks());
    const response = await postSandboxControl(sandbox.url, "/__sandbox/rotate-signing-key", body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request", error_description: description });
    expect(kidsOf(await jwks())).toEqual(kids);
  });

  it("takes JSON with the site's own Origin only, as every control route", async () => {
    const kids = kidsOf(await jwks());
    const crossSite = await fetch(`${sandbox.url}/__sandbox/rotate-signing-key`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ mode: "abrupt" }),
    });
    expect(crossSite.status).toBe(403);
    const form = await fetch(`${sandbox.url}/__sandbox/rotate-signing-key`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sandbox.url },
      body: "mode=abrupt",
    });
    expect(form.status).toBe(415);
    expect(kidsOf(await jwks())).toEqual(kids);
  });
});
