/**
 * Security checklist case 42 at the routes: a session cookie the dashboard itself sealed, then tampered
 * with, truncated, sealed with another password under our password's id, or past its seal's own TTL
 * (alone: the session inside is within its idle and absolute lifetimes), is no session. A data route
 * answers 401 with our own words, a page sends the browser to sign in, the proxy lets the page through;
 * never a 500, never the cookie, a token or a stack in the answer, and no call to the site.
 */
import { randomBytes } from "node:crypto";

import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import CoursesPage from "@/app/(member)/courses/page";
import { resetConfigForTests } from "@/lib/config";
import { sealWithSessionSecret } from "@/lib/session/seal";
import { saveSession, SESSION_IDLE_LIFETIME_MS, sessionCookieName, type SessionData } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { proxy } from "@/proxy";

import { configureDashboard, TEST_APP_URL } from "../support/env";
import { setUpFakeSite } from "../support/fake-site";
import { memoryJar } from "../support/memory-jar";
import { requestHeaders } from "../support/request-headers";
import { sessionData } from "../support/session-data";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

// No handler beyond discovery and keys: any call to the site fails the test (setUpFakeSite).
const site = setUpFakeSite();

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});

/** A session whose access token has run out, so that a page render signed in calls nothing. */
function member(): SessionData {
  return sessionData({ accessToken: "at-secret-42", refreshToken: "rt-secret-42", accessTokenExpiresAt: Date.now() - 1_000 });
}

/** The session cookie's value as saveSession writes it (a fresh seal each time, never remembered as opened). */
async function sealedCookie(data: SessionData): Promise<string> {
  const jar = memoryJar();
  await saveSession(jar, data);
  return jar.cookies.get(sessionCookieName())!;
}

/** iron's seal: Fe26.2*passwordId*salt*iv*ciphertext*expiration*hmacSalt*hmac. */
const sealParts = (seal: string) => seal.split("*");

function documentRequest(path: string, cookie: string): NextRequest {
  return new NextRequest(`${TEST_APP_URL}${path}`, {
    headers: { cookie: `${sessionCookieName()}=${cookie}`, "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" },
  });
}

/** Renders /courses as Next.js would for this request, and returns where it redirected (or null when it rendered). */
async function renderCoursesPage(cookie: string): Promise<string | null> {
  requestHeaders.current = new Headers({ cookie: `${sessionCookieName()}=${cookie}`, "sec-fetch-dest": "document" });
  try {
    await CoursesPage({ searchParams: Promise.resolve({}) });
    return null;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT;")) throw error;
    return digest.split(";")[2]!;
  }
}

async function expectNoSession(cookie: string): Promise<void> {
  const secrets = [cookie, "at-secret-42", "rt-secret-42", "Fe26"];

  for (const response of [
    await sessionRoute(documentRequest("/api/session", cookie)),
    await accountRoute(documentRequest("/api/account/courses", cookie), { params: Promise.resolve({ resource: "courses" }) }),
  ]) {
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: { code: "unauthenticated", message: "Please sign in again." } });
    for (const secret of secrets) expect(body).not.toContain(secret);
    expect(body).not.toMatch(/\n\s+at |Error:/);
  }

  // The proxy lets the page through (no 500, no "access withdrawn"), and writes no session back.
  const passed = await proxy(documentRequest("/courses", cookie));
  expect(passed.status).toBe(200);
  expect(passed.headers.get("location")).toBeNull();
  expect(passed.headers.getSetCookie().join("\n")).not.toMatch(new RegExp(`${sessionCookieName()}=[^;]`));

  // The page, with a session cookie that opens to nothing, sends the browser to sign in and back.
  expect(await renderCoursesPage(cookie)).toBe("/api/auth/login?returnTo=%2Fcourses");
}

describe("checklist 42: a session cookie that is not ours as it was sealed is no session", () => {
  let valid: string;
  beforeEach(async () => {
    // A shared state of its own per test: nothing one case records (an "ended" mark) can decide another.
    setSharedStateForTests(new InMemorySharedState());
    valid = await sealedCookie(member());
  });

  it("checklist 42: the cookie as sealed is a session: the data route answers it and the page renders", async () => {
    const response = await sessionRoute(documentRequest("/api/session", valid));
    expect(response.status).toBe(200);
    expect(await renderCoursesPage(valid)).toBeNull();
  });

  it("checklist 42: tampered with (one character of the ciphertext changed): 401, sign-in, never a 500", async () => {
    const parts = sealParts(valid);
    const ciphertext = parts[4]!;
    parts[4] = `${ciphertext.slice(0, 10)}${ciphertext[10] === "A" ? "B" : "A"}${ciphertext.slice(11)}`;
    await expectNoSession(parts.join("*"));
  });

  it.each([
    ["its HMAC cut short", (seal: string) => seal.slice(0, -12)],
    ["cut in half", (seal: string) => seal.slice(0, Math.floor(seal.length / 2))],
  ])("checklist 42: truncated (%s): 401, sign-in, never a 500", async (_name, truncate) => {
    await expectNoSession(truncate(valid));
  });

  it.each([
    ["another version of the session's form", { v: 2 }],
    ["no version", { v: undefined }],
  ])("checklist 42: sealed by us with %s (a dashboard of another release): 401, sign-in, never a 500", async (_name, change) => {
    // Sealed as the dashboard seals its cookie, but never opened by this process (so not remembered as opened).
    await expectNoSession(await sealWithSessionSecret({ ...member(), ...change }, Math.ceil(SESSION_IDLE_LIFETIME_MS / 1000)));
  });

  it("checklist 42: sealed with another password under our password's id: 401, sign-in, never a 500", async () => {
    const ourId = sealParts(valid)[1]!;
    const foreign = await sealData(member(), {
      password: { [ourId]: randomBytes(32).toString("base64url") },
      ttl: Math.ceil(SESSION_IDLE_LIFETIME_MS / 1000),
    });
    expect(sealParts(foreign)[1]).toBe(ourId);
    await expectNoSession(foreign);
  });

  /**
   * The session as the dashboard sealed it 25 hours ago: the seal's TTL (the idle lifetime, 24 hours) ran
   * out an hour ago, while the session it holds was created and last seen a minute ago.
   */
  async function expiredSeal(): Promise<{ data: SessionData; expired: string; expiresAt: number }> {
    const now = Date.now();
    const data = member();
    Object.assign(data, { createdAt: now - 60_000, lastSeenAt: now - 60_000 });
    vi.useFakeTimers({ toFake: ["Date"], now: now - SESSION_IDLE_LIFETIME_MS - 60 * 60_000 });
    let expired: string;
    try {
      expired = await sealedCookie(data);
    } finally {
      vi.useRealTimers();
    }
    const expiresAt = Number(sealParts(expired)[5]);
    expect(expiresAt).toBeLessThan(now - 30 * 60_000);
    return { data, expired, expiresAt };
  }

  it("checklist 42: expired (the seal's own TTL elapsed, the session inside within its lifetimes): 401, sign-in, never a 500", async () => {
    const { data, expired } = await expiredSeal();
    // Sealed now, the very same session opens: only the seal's expiry is wrong.
    expect((await sessionRoute(documentRequest("/api/session", await sealedCookie(data)))).status).toBe(200);
    await expectNoSession(expired);
  });

  it("checklist 42: expired, its expiry then moved a day forward by hand (the HMAC covers it): 401, sign-in, never a 500", async () => {
    const { expired, expiresAt } = await expiredSeal();
    const extended = sealParts(expired);
    extended[5] = String(expiresAt + SESSION_IDLE_LIFETIME_MS);
    await expectNoSession(extended.join("*"));
  });
});
