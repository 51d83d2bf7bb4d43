import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { GET as sessionsRoute } from "@/app/api/sessions/route";
import { POST as endSessionsRoute } from "@/app/api/sessions/end/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { MAX_SESSIONS_PER_MEMBER, type SignedInSessionsBody } from "@/lib/contract/signed-in-sessions";
import { InMemoryBackend, InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";
const LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

let sandbox: RunningSandbox;
let backend: InMemoryBackend;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  backend = new InMemoryBackend();
  setSharedStateForTests(new InMemorySharedState(backend));
  sandbox.resetRequests();
});

/** A browser with its own User-Agent on every request. */
class Device extends RouteBrowser {
  constructor(readonly userAgent: string) {
    super();
  }
  override request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    return super.request(path, { ...init, headers: { "user-agent": this.userAgent, ...init.headers } });
  }
}

async function signedIn(userAgent: string, email = "maya@example.com"): Promise<Device> {
  const device = new Device(userAgent);
  await signInThroughRoutes(device, { email });
  return device;
}

async function listOf(device: Device): Promise<SignedInSessionsBody["sessions"]> {
  const response = await sessionsRoute(device.request("/api/sessions"));
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).not.toMatch(/\bs[ar]t_|accessToken|refreshToken|sid/);
  return (JSON.parse(text) as SignedInSessionsBody).sessions;
}

function end(device: Device, body: unknown, headers: Record<string, string> = SAME_ORIGIN_HEADERS) {
  return endSessionsRoute(
    device.request("/api/sessions/end", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

describe("Where you're signed in", () => {
  it("lists the member's sessions, this device first, browser and system in words, and keeps no token in the clear", async () => {
    const laptop = await signedIn(LAPTOP);
    const phone = await signedIn(PHONE);
    const list = await listOf(phone);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, browser: "Chrome", system: "Android", embedded: false });
    expect(list[1]).toMatchObject({ current: false, browser: "Firefox", system: "Windows", embedded: false });
    expect(Date.parse(list[1]!.signedInAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(list[1]!.lastActiveAt) % (5 * 60 * 1000)).toBe(0);
    expect((await listOf(laptop))[0]).toMatchObject({ current: true, browser: "Firefox" });
    // The shared state: the list's key names the subject's digest only; the grant is sealed.
    const stored = JSON.stringify(await new InMemorySharedState(backend).readFields([...listKeys(backend)][0]!));
    expect(stored).not.toMatch(/\bs[ar]t_|maya|Maya/);
  });

  it("Sign out there: the other session stops working at once and its grant is revoked at the site", async () => {
    const laptop = await signedIn(LAPTOP);
    const phone = await signedIn(PHONE);
    sandbox.resetRequests();
    const other = (await listOf(phone)).find((entry) => !entry.current)!;
    const response = await end(phone, { id: other.id });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ended: 1, complete: true });
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
    expect((await sessionRoute(laptop.request("/api/session"))).status).toBe(401);
    expect((await sessionRoute(phone.request("/api/session"))).status).toBe(200);
    expect(await listOf(phone)).toHaveLength(1);
  });

  it("Sign out everywhere else ends every other session and keeps this one", async () => {
    const others = [await signedIn(LAPTOP), await signedIn(LAPTOP)];
    const phone = await signedIn(PHONE);
    expect(await end(phone, { others: true }).then((response) => response.json())).toEqual({ ended: 2, complete: true });
    for (const device of others) expect((await sessionRoute(device.request("/api/session"))).status).toBe(401);
    expect(await listOf(phone)).toEqual([expect.objectContaining({ current: true })]);
  });

  it("no longer lists a sign-in that signed out on its own device", async () => {
    const laptop = await signedIn(LAPTOP);
    const phone = await signedIn(PHONE);
    expect(await listOf(phone)).toHaveLength(2);
    const out = await logoutRoute(laptop.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS }));
    expect(out.status).toBe(200);
    expect(await listOf(phone)).toEqual([expect.objectContaining({ current: true, browser: "Chrome" })]);
  });

  it("never ends this session, another member's, or one named by a cross-site request", async () => {
    const phone = await signedIn(PHONE);
    const kai = await signedIn(LAPTOP, "kai@example.com");
    const own = (await listOf(phone))[0]!;
    const kaisOwn = (await listOf(kai))[0]!;
    expect((await end(phone, { id: own.id })).status).toBe(404);
    expect((await end(phone, { id: kaisOwn.id })).status).toBe(404);
    // A body that names no sign-in, or is no JSON, is the request's fault, and is answered as such, not as "already ended".
    const notJson = await endSessionsRoute(
      phone.request("/api/sessions/end", {
        method: "POST",
        headers: { ...SAME_ORIGIN_HEADERS, "content-type": "application/json" },
        body: "{id:",
      }),
    );
    expect(notJson.status).toBe(400);
    // ASVS 5 V13.1.3: a body far larger than any choice of a sign-in is not read (and ends nothing).
    const huge = await end(phone, { id: own.id, padding: "x".repeat(10_000) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: "body_too_large" } });
    for (const malformed of [{ nothing: true }, { id: 5 }, { others: "yes" }, "junk", null]) {
      const answer = await end(phone, malformed);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: { code: "invalid_request", message: expect.stringContaining("names no sign-in to end") as string },
      });
    }
    expect((await end(kai, { others: true }, { origin: "https://evil.example", "x-requested-with": "companion-dashboard" })).status).toBe(
      403,
    );
    expect((await sessionRoute(kai.request("/api/session"))).status).toBe(200);
    expect((await sessionRoute(phone.request("/api/session"))).status).toBe(200);
  });

  it(`keeps ${MAX_SESSIONS_PER_MEMBER} sign-ins: one more ends the least recently active other, grant revoked, never the new`, async () => {
    const devices: Device[] = [];
    for (let count = 0; count < MAX_SESSIONS_PER_MEMBER; count += 1) devices.push(await signedIn(LAPTOP));
    expect(await listOf(devices.at(-1)!)).toHaveLength(MAX_SESSIONS_PER_MEMBER);
    sandbox.resetRequests();
    const newest = await signedIn(PHONE);
    const list = await listOf(newest);
    expect(list).toHaveLength(MAX_SESSIONS_PER_MEMBER);
    expect(list[0]).toMatchObject({ current: true, browser: "Chrome" });
    // All were last active in the same five minutes: the oldest sign-in is the one ended.
    expect((await sessionRoute(devices[0]!.request("/api/session"))).status).toBe(401);
    for (const device of devices.slice(1)) expect((await sessionRoute(device.request("/api/session"))).status).toBe(200);
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
  });

  it("answers 401 without a session", async () => {
    expect((await sessionsRoute(new Device(PHONE).request("/api/sessions"))).status).toBe(401);
    expect((await end(new Device(PHONE), { others: true })).status).toBe(401);
  });
});

function listKeys(store: InMemoryBackend): string[] {
  return store.keysOf("member-sessions");
}
