import { randomBytes } from "node:crypto";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { resetConfigForTests } from "@/lib/config";
import { BoundedTtlMap } from "@/lib/session/opened-seals";
import { sealWithSessionSecret } from "@/lib/session/seal";
import type * as SessionModule from "@/lib/session/session";
import { endSession, loadSession, saveSession, SESSION_IDLE_LIFETIME_MS, type SessionData } from "@/lib/session/session";

import { anotherBundlesCopy } from "../../support/another-bundle";
import { configureDashboard } from "../../support/env";
import { sessionData } from "../../support/session-data";
import { memoryJar } from "../../support/memory-jar";

const OLD_SECRET = randomBytes(32).toString("base64url");
const NEW_SECRET = randomBytes(32).toString("base64url");

function useSecrets(value: string) {
  configureDashboard("http://127.0.0.1:4000", { SESSION_SECRET: value });
  resetConfigForTests();
}

function session(): SessionData {
  return sessionData({ accessToken: `access-${randomBytes(8).toString("hex")}` });
}

/** A cookie this process never wrote: sealed the way iron-session seals, with the dashboard's secret. */
async function foreignlyWrittenCookie(data: SessionData): Promise<string> {
  return sealWithSessionSecret(data, Math.ceil(SESSION_IDLE_LIFETIME_MS / 1000));
}

beforeEach(() => useSecrets(NEW_SECRET));
afterEach(() => vi.restoreAllMocks());

describe("opened session cookies are remembered, not re-opened", () => {
  it("opens a cookie with WebCrypto once; the next request with the same cookie costs no key derivation", async () => {
    const derivations = vi.spyOn(crypto.subtle, "deriveKey");
    const data = session();
    const jar = memoryJar({ dash_session: await foreignlyWrittenCookie(data) });
    const sealingDerivations = derivations.mock.calls.length;

    expect((await loadSession(jar))?.data.accessToken).toBe(data.accessToken);
    const afterFirst = derivations.mock.calls.length;
    expect(afterFirst).toBeGreaterThan(sealingDerivations);

    expect((await loadSession(memoryJar(Object.fromEntries(jar.cookies))))?.data.accessToken).toBe(data.accessToken);
    expect(derivations.mock.calls.length).toBe(afterFirst);
  });

  it("remembers what it just wrote: the member's next request is not opened again", async () => {
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    const derivations = vi.spyOn(crypto.subtle, "deriveKey");
    expect((await loadSession(memoryJar(Object.fromEntries(jar.cookies))))?.data.sid).toBe(data.sid);
    expect(derivations).not.toHaveBeenCalled();
  });

  it("forgets a remembered cookie once its secret is no longer configured", async () => {
    useSecrets(OLD_SECRET);
    const jar = memoryJar();
    await saveSession(jar, session());
    expect(await loadSession(jar)).not.toBeNull();
    useSecrets(NEW_SECRET);
    expect(await loadSession(jar)).toBeNull();
  });

  it("still applies the idle lifetime and the ended mark to a remembered cookie", async () => {
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    expect(await loadSession(jar)).not.toBeNull();
    expect(await loadSession(jar, data.lastSeenAt + SESSION_IDLE_LIFETIME_MS + 1000)).toBeNull();
    const copy = memoryJar(Object.fromEntries(jar.cookies));
    await endSession(jar, data);
    expect(await loadSession(copy)).toBeNull();
  });

  it("one memory for the process: a cookie one bundle's copy of the module wrote, another's does not open again", async () => {
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    const another = await anotherBundlesCopy<typeof SessionModule>("@/lib/session/session");
    expect(another.loadSession).not.toBe(loadSession);
    const derivations = vi.spyOn(crypto.subtle, "deriveKey");
    expect((await another.loadSession(memoryJar(Object.fromEntries(jar.cookies))))?.data.sid).toBe(data.sid);
    expect(derivations).not.toHaveBeenCalled();
  });

  it("hands each caller its own copy", async () => {
    const jar = memoryJar();
    const data = session();
    await saveSession(jar, data);
    const first = await loadSession(jar);
    first!.data.accessToken = "changed by one caller";
    expect((await loadSession(jar))?.data.accessToken).toBe(data.accessToken);
  });
});

describe("BoundedTtlMap", () => {
  it("keeps at most maxEntries, dropping the oldest", () => {
    const map = new BoundedTtlMap<number>(3, 60_000);
    for (const key of ["a", "b", "c", "d"]) map.set(key, key.charCodeAt(0));
    expect(map.size).toBe(3);
    expect(map.get("a")).toBeUndefined();
    expect(map.get("d")).toBe("d".charCodeAt(0));
  });

  it("take reads an entry once", () => {
    const map = new BoundedTtlMap<string>(100, 5_000);
    map.set("a", "1");
    expect(map.take("a")).toBe("1");
    expect(map.take("a")).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it("forgets entries after their time to live, and frees them on the next write", () => {
    let now = 1_000;
    const map = new BoundedTtlMap<string>(100, 5_000, () => now);
    map.set("a", "1");
    map.set("b", "2");
    now += 5_000;
    expect(map.get("a")).toBeUndefined();
    map.set("c", "3");
    expect(map.size).toBe(1);
    expect(map.get("c")).toBe("3");
  });
});
