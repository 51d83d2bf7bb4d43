import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { AuthError } from "@/lib/auth/errors";
import { startLogin } from "@/lib/auth/login";
import { MAX_RETURN_TO_LENGTH, sanitizeReturnTo } from "@/lib/contract/return-to";
import { MAX_TRANSACTION_COOKIE_BYTES, saveTransaction } from "@/lib/auth/transaction";
import { resetConfigForTests } from "@/lib/config";
import { InMemoryBackend, InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";

import { configureDashboard, TEST_APP_URL } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";

const site = setUpFakeSite();
let backend: InMemoryBackend;

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  resetDiscoveryCacheForTests();
});
beforeEach(() => {
  backend = new InMemoryBackend();
  setSharedStateForTests(new InMemorySharedState(backend));
});

async function caught(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe("returnTo is capped (finding 5)", () => {
  it(`keeps a path of ${MAX_RETURN_TO_LENGTH} characters and sends a longer one to /`, () => {
    const fits = `/courses?q=${"a".repeat(MAX_RETURN_TO_LENGTH - 11)}`;
    expect(sanitizeReturnTo(fits, TEST_APP_URL)).toBe(fits);
    expect(sanitizeReturnTo(`/courses?x=${"a".repeat(8_000)}`, TEST_APP_URL)).toBe("/");
  });

  it("caps what the URL parser made of it, too (percent-encoding lengthens it)", () => {
    expect(sanitizeReturnTo(`/courses?q=${"é".repeat(600)}`, TEST_APP_URL)).toBe("/");
  });

  it("answers a sign-in with an 8,000-character returnTo with a transaction cookie under 4,096 bytes", async () => {
    const jar = memoryJar();
    await startLogin(jar, `/courses?x=${"a".repeat(8_000)}`);
    const cookies = [...jar.cookies];
    expect(cookies).toHaveLength(1);
    const [name, value] = cookies[0]!;
    expect(name.length + value.length).toBeLessThan(MAX_TRANSACTION_COOKIE_BYTES - 100);
  });

  it("refuses to write a transaction that would not fit in a cookie, with a clean sign-in error", async () => {
    const transaction = { state: "s".repeat(43), codeVerifier: "v".repeat(43), nonce: "n".repeat(43), createdAt: Date.now() };
    const error = await caught(saveTransaction(memoryJar(), { ...transaction, returnTo: `/${"a".repeat(4_000)}` }));
    expect(error.code).toBe("sign_in_too_large");
  });
});

describe("the callback-state claim is written only after the authorization response validates (finding 4)", () => {
  it.each([
    ["a foreign iss", (state: string) => ({ code: "c", state, iss: "https://evil.example" })],
    ["no iss", (state: string) => ({ code: "c", state })],
    ["an error response", (state: string) => ({ error: "access_denied", state, iss: site.url })],
  ])("writes nothing to the shared state for %s", async (_name, params) => {
    const jar = memoryJar();
    const state = (await startLogin(jar, "/")).searchParams.get("state")!;
    const url = new URL("/api/auth/callback", TEST_APP_URL);
    for (const [key, value] of Object.entries(params(state))) url.searchParams.set(key, value);
    await caught(handleCallback(jar, url));
    expect(backend.size("callback-state")).toBe(0);
  });
});

describe("a session that would need more than four cookies (checklist 46)", () => {
  it("ends the sign-in with a clean error and writes no cookie", async () => {
    const { startNewSession } = await import("@/lib/auth/new-session");
    const { sessionData } = await import("../../support/session-data");
    const jar = memoryJar();
    const error = await caught(startNewSession(jar, sessionData({ accessToken: "a".repeat(20_000) })));
    expect(error.code).toBe("sign_in_too_large");
    expect(jar.cookies.size).toBe(0);
  });
});
