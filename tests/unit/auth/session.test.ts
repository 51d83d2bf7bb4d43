import { randomBytes } from "node:crypto";

import { sealData } from "iron-session";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { saveTransaction, TRANSACTION_TTL_SECONDS, transactionCookieName, type LoginTransaction } from "@/lib/auth/transaction";
import { resetConfigForTests } from "@/lib/config";
import { readOnlyJar } from "@/lib/session/cookie-jar";
import {
  endSession,
  loadSession,
  remainingLifeMs,
  saveSession,
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_IDLE_LIFETIME_MS,
} from "@/lib/session/session";

import { configureDashboard } from "../../support/env";
import { sessionData } from "../../support/session-data";
import { memoryJar } from "../../support/memory-jar";

const OLD_SECRET = randomBytes(32).toString("base64url");
const NEW_SECRET = randomBytes(32).toString("base64url");

const session = sessionData;

function useSecrets(value: string, appUrl = "http://localhost:3999") {
  configureDashboard("http://127.0.0.1:4000", { SESSION_SECRET: value, APP_URL: appUrl });
  resetConfigForTests();
}

beforeEach(() => useSecrets(NEW_SECRET));

describe("session cookie", () => {
  it("round-trips, HttpOnly, SameSite=Lax, Path=/, not Secure only on plain-http loopback", async () => {
    const jar = memoryJar();
    await saveSession(jar, session());
    expect((await loadSession(jar))?.data.claims.email).toBe("maya@example.com");
    expect(jar.options.get("dash_session")).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: false });
  });

  it("uses the __Host- prefix and Secure on https", async () => {
    useSecrets(NEW_SECRET, "https://dashboard.example.com");
    const jar = memoryJar();
    await saveSession(jar, session());
    expect(jar.options.get("__Host-dash_session")).toMatchObject({ secure: true, path: "/", httpOnly: true });
    expect(jar.options.get("__Host-dash_session")).not.toHaveProperty("domain");
  });

  it("rejects a tampered cookie", async () => {
    const jar = memoryJar();
    await saveSession(jar, session());
    const value = jar.cookies.get("dash_session")!;
    const index = Math.floor(value.length / 2);
    jar.cookies.set("dash_session", `${value.slice(0, index)}${value[index] === "a" ? "b" : "a"}${value.slice(index + 1)}`);
    expect(await loadSession(jar)).toBeNull();
  });

  it("rejects a cookie sealed with a foreign secret", async () => {
    const foreign = await sealData(session(), { password: { "1": randomBytes(32).toString("base64url") } });
    expect(await loadSession(memoryJar({ dash_session: foreign }))).toBeNull();
  });

  it("opens a cookie sealed with the previous secret and re-seals it with the new one", async () => {
    useSecrets(OLD_SECRET);
    const jar = memoryJar();
    await saveSession(jar, session());
    useSecrets(`${NEW_SECRET},${OLD_SECRET}`);
    const loaded = await loadSession(jar);
    expect(loaded?.needsSave).toBe(true);
    await saveSession(jar, loaded!.data);
    useSecrets(NEW_SECRET);
    expect(await loadSession(jar)).not.toBeNull();
  });

  it("keeps a session with a 2 KB access token in cookies that each stay under 4096 bytes", async () => {
    const jar = memoryJar();
    const big = session({ accessToken: randomBytes(1536).toString("base64url"), refreshToken: randomBytes(512).toString("base64url") });
    await saveSession(jar, big);
    expect(jar.cookies.size).toBeGreaterThan(1);
    for (const [name, value] of jar.cookies) {
      const options = jar.options.get(name)!;
      const setCookie = `${name}=${value}; Max-Age=${String(options.maxAge)}; Path=/; HttpOnly; SameSite=Lax`;
      expect(Buffer.byteLength(setCookie)).toBeLessThanOrEqual(4096);
    }
    expect((await loadSession(jar))?.data.accessToken).toBe(big.accessToken);
  });

  it("ends after the idle lifetime and after the absolute lifetime", async () => {
    const now = Date.now();
    const idle = memoryJar();
    await saveSession(idle, session({ lastSeenAt: now - SESSION_IDLE_LIFETIME_MS - 1000 }));
    expect(await loadSession(idle)).toBeNull();
    const old = memoryJar();
    await saveSession(old, session({ createdAt: now - SESSION_ABSOLUTE_LIFETIME_MS - 1000, lastSeenAt: now }));
    expect(await loadSession(old)).toBeNull();
  });

  it("stays ended: a request in flight cannot write an ended session back", async () => {
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    const inFlight = memoryJar(Object.fromEntries(jar.cookies));
    await endSession(jar, data);
    expect(jar.cookies.size).toBe(0);
    // The browser is told to drop it at once, with the attributes it was set with (else it would not match).
    expect(jar.options.get("dash_session")).toMatchObject({ maxAge: 0, httpOnly: true, path: "/" });
    expect(await saveSession(inFlight, { ...data, accessToken: "rotated" })).toBe(false);
    expect(await loadSession(inFlight)).toBeNull();
  });
});

describe("a page render's cookie jar", () => {
  it("opens the request's session and refuses to write one: a render cannot persist what it would rotate", async () => {
    const browser = memoryJar();
    await saveSession(browser, session());
    const cookie = (name: string) => ({ name, value: browser.cookies.get(name)! });
    const request = {
      get: (name: string) => (browser.cookies.has(name) ? cookie(name) : undefined),
      getAll: () => [...browser.cookies.keys()].map(cookie),
    };
    const render = readOnlyJar(request);
    expect((await loadSession(render))?.data.claims.email).toBe("maya@example.com");
    await expect(saveSession(render, session())).rejects.toThrow("A Server Component render cannot write cookies.");
  });
});

describe("an ended session's mark lasts as long as a copy of its cookie could", () => {
  afterEach(() => vi.useRealTimers());

  it("a copy of the cookie taken before sign-out is still refused hours later, within the session's lifetimes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    const copied = memoryJar(Object.fromEntries(jar.cookies));
    await endSession(jar, data);
    // OWASP ASVS 5 V7.4.1: the end holds for as long as the cookie's seal and the session's idle lifetime would let it in.
    vi.setSystemTime(Date.now() + SESSION_IDLE_LIFETIME_MS - 60_000);
    expect(await loadSession(copied)).toBeNull();
  });

  it("is kept for the idle lifetime, or what is left of the absolute one when that is shorter", () => {
    const now = Date.now();
    expect(remainingLifeMs({ createdAt: now }, now)).toBe(SESSION_IDLE_LIFETIME_MS);
    expect(remainingLifeMs({ createdAt: now - SESSION_ABSOLUTE_LIFETIME_MS + 3_600_000 }, now)).toBe(3_600_000);
    expect(remainingLifeMs({ createdAt: now - SESSION_ABSOLUTE_LIFETIME_MS }, now)).toBe(1_000);
  });
});

describe("sign-in transaction cookie (checklist 47)", () => {
  const transaction = (): LoginTransaction => ({
    state: randomBytes(32).toString("base64url"),
    codeVerifier: randomBytes(32).toString("base64url"),
    nonce: randomBytes(32).toString("base64url"),
    returnTo: "/",
    createdAt: Date.now(),
  });

  it.each([
    ["plain-http loopback", "http://localhost:3999", "dash_tx_", false],
    ["https", "https://dashboard.example.com", "__Host-dash_tx_", true],
  ] as const)(
    "on %s: HttpOnly, SameSite=Lax, Path=/, no Domain, ten minutes, its secrets sealed",
    async (_name, appUrl, prefix, secure) => {
      useSecrets(NEW_SECRET, appUrl);
      const jar = memoryJar();
      const attempt = transaction();
      await saveTransaction(jar, attempt);
      const name = transactionCookieName(attempt.state);
      expect(name.startsWith(prefix)).toBe(true);
      expect(jar.options.get(name)).toEqual({ httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: TRANSACTION_TTL_SECONDS });
      for (const secret of [attempt.codeVerifier, attempt.nonce, attempt.state]) expect(jar.cookies.get(name)).not.toContain(secret);
    },
  );
});
