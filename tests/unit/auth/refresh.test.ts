import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { callWithMemberSession } from "@/lib/auth/member-session";
import { accessTokenRenewalTime, REFRESH_MARGIN_MS } from "@/lib/auth/token-times";
import { ensureFreshTokens, ROTATION_SETTLE_MS } from "@/lib/auth/tokens";
import { sealWithSessionSecret } from "@/lib/session/seal";
import { loadSession, markSessionEnded, saveSession, sessionCookieName } from "@/lib/session/session";
import {
  InMemoryBackend,
  InMemorySharedState,
  setSharedStateForTests,
  SharedStateUnavailableError,
  type Lease,
  type LockOptions,
  type SharedStateStore,
} from "@/lib/session/shared-state";
import { LayerError } from "@/lib/errors/layer-error";
import { SiteError } from "@/lib/site/errors";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { runAccountOperation } from "@/lib/account-api/client";

import { captureLog } from "../../support/captured-log";
import { setUpDashboardOnFakeSite, sharedStateDownFromTheGrant } from "../../support/dashboard-on-fake-site";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../../support/env";
import { memoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";
import { PROBE_OPERATION } from "../../support/probe-operation";

const site = setUpDashboardOnFakeSite();
let issued = 0;

beforeEach(() => {
  issued = 0;
  // A rotating site: every refresh returns a new refresh token and kills the old one at once.
  const live = new Set(["rt-0"]);
  site.handlers.set("POST /api/oauth/token", (call) => {
    const body = call.body as URLSearchParams;
    const presented = body.get("refresh_token")!;
    if (!live.delete(presented)) return { status: 400, json: { error: "invalid_grant", error_description: "refresh token was rotated" } };
    issued += 1;
    live.add(`rt-${issued}`);
    return {
      json: {
        access_token: `at-${issued}`,
        token_type: "Bearer",
        expires_in: 7200,
        refresh_token: `rt-${issued}`,
        scope: "openid account:read",
      },
    };
  });
});

describe("refresh", () => {
  it("refreshes shortly before expiry with client_secret_post and resource", async () => {
    const { session, changed } = await ensureFreshTokens(expiringSession());
    expect(changed).toBe(true);
    expect(session.accessToken).toBe("at-1");
    expect(session.refreshToken).toBe("rt-1");
    const body = site.callsTo("/api/oauth/token")[0]!.body as URLSearchParams;
    expect(body.get("grant_type")).toBe("refresh_token");
    expect(body.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(body.get("client_secret")).toBe(TEST_CLIENT_SECRET);
    expect(body.get("resource")).toBe(site.url);
  });

  it("answers nothing when the session is ended (another device) while its request runs a refresh: sign in again", async () => {
    const jar = memoryJar();
    const data = expiringSession();
    await saveSession(jar, data);
    const error: unknown = await callWithMemberSession(jar, async () => {
      // "Sign out there" from the member's phone while this request holds the renewed tokens.
      await markSessionEnded(data);
      return "the member's courses";
    }).catch((thrown: unknown) => thrown);
    // OWASP ASVS 5 V7.4.1: an ended session answers no data, and its renewed tokens are not written back.
    expect(error).toMatchObject({ code: "unauthenticated" });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    expect(await loadSession(jar)).toBeNull();
  });

  it("does not refresh a token far from expiry", async () => {
    const { changed } = await ensureFreshTokens(expiringSession({ accessTokenExpiresAt: Date.now() + 3_600_000 }));
    expect(changed).toBe(false);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
  });

  it("renews a token a minute before it expires, or half-way through a life shorter than two minutes", () => {
    expect(accessTokenRenewalTime(0, 7_200_000)).toBe(7_140_000);
    expect(accessTokenRenewalTime(0, 120_000)).toBe(60_000);
    expect(accessTokenRenewalTime(0, 30_000)).toBe(15_000);
    expect(accessTokenRenewalTime(0, 0)).toBe(0);
  });

  it("a site's 30-second tokens are renewed once half their life has passed, not for every request", async () => {
    // The renewal answers another 30-second token: it is due in 15 s.
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-short", token_type: "Bearer", expires_in: 30, refresh_token: "rt-short" },
    }));
    const now = Date.now();
    const session = expiringSession({ accessTokenExpiresAt: now + 30_000, accessTokenRenewAt: accessTokenRenewalTime(now, now + 30_000) });
    expect((await ensureFreshTokens(session, { now: now + 14_000 })).changed).toBe(false);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    const renewed = await ensureFreshTokens(session, { now: now + 16_000 });
    expect(renewed.changed).toBe(true);
    expect(renewed.session.accessToken).toBe("at-short");
    expect(renewed.session.accessTokenExpiresAt - renewed.session.accessTokenRenewAt!).toBe(15_000);
    expect((await ensureFreshTokens(renewed.session)).changed).toBe(false);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("a cookie sealed by another instance opens with when its token is due", async () => {
    const now = Date.now();
    const session = expiringSession({ accessTokenExpiresAt: now + 30_000, accessTokenRenewAt: accessTokenRenewalTime(now, now + 30_000) });
    // Sealed apart from this process's saveSession, so its opening is not remembered from the writing.
    const jar = memoryJar({ [sessionCookieName()]: await sealWithSessionSecret(session, 3_600) });
    const opened = (await loadSession(jar))!.data;
    expect(opened.accessTokenRenewAt).toBe(now + 15_000);
    expect((await ensureFreshTokens(opened)).changed).toBe(false);
  });

  it("a renewal recorded by an older instance, without its renewal time, is adopted with the margin's", async () => {
    const store = new InMemorySharedState();
    setSharedStateForTests(store);
    const expiresAt = Date.now() + 3_600_000;
    const olderRecord = { accessToken: "at-older", refreshToken: "rt-older", accessTokenExpiresAt: expiresAt, scopes: ["openid"] };
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    await store.publishOnce(record, await sealWithSessionSecret(olderRecord, 0), 60_000);
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ accessTokenRenewAt: Date.now() - 1_000 }));
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-older");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect((await loadSession(jar))!.data.accessTokenRenewAt).toBe(expiresAt - REFRESH_MARGIN_MS);
  });

  it("a token past its expiry is renewed whatever its renewal time says", async () => {
    const now = Date.now();
    const { changed } = await ensureFreshTokens(expiringSession({ accessTokenExpiresAt: now - 1_000, accessTokenRenewAt: now + 60_000 }));
    expect(changed).toBe(true);
  });

  it("50 parallel requests at expiry cause exactly one refresh and all succeed, including late ones with the old cookie", async () => {
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const staleCookies = Object.fromEntries(jar.cookies);
    site.handlers.set("POST /account/graphql", (call) => ({ json: { data: { viewer: { id: String(call.headers.authorization) } } } }));
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        callWithMemberSession(memoryJar(staleCookies), (token) => runAccountOperation(token, PROBE_OPERATION)),
      ),
    );
    // A request that left the browser before the rotated cookie arrived still succeeds.
    const late = await callWithMemberSession(memoryJar(staleCookies), (token) => Promise.resolve(token));
    expect(late).toBe("at-1");
    expect(results.every((result) => result.viewer.id === "Bearer at-1")).toBe(true);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("ends the session on invalid_grant instead of leaving a zombie", async () => {
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ refreshToken: "rt-revoked" }));
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "unauthenticated" });
    expect(await loadSession(jar)).toBeNull();
    expect(jar.cookies.size).toBe(0);
  });

  // GitHub's OAuth apps answer a refused grant with 200 and the error body (RFC 6749 section 5.2 asks for 400).
  it.each([
    { error: "invalid_grant", code: "session_ended", detail: "access_withdrawn" },
    { error: "bad_refresh_token", code: "session_ended", detail: "unknown" },
    { error: "invalid_client", code: "session_ended", detail: "invalid_client" },
    { error: "temporarily_unavailable", code: "refresh_unavailable", detail: undefined },
    { error: "server_error", code: "refresh_unavailable", detail: undefined },
  ])("reads a renewal refused with 200 and $error as that error: $code", async ({ error, code, detail }) => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 200, json: { error, error_description: "Refused." } }));
    await expect(ensureFreshTokens(expiringSession({ refreshToken: "rt-refused-with-200" }))).rejects.toMatchObject({ code, detail });
  });

  it("keeps the session on a transient failure and says try again", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 503, json: { error: "temporarily_unavailable" } }));
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "refresh_unavailable" });
    expect(await loadSession(jar)).not.toBeNull();
  });
});

/**
 * Two instances sharing one backend: each call's process-local single-flight alternates between them (so
 * only the shared lock can keep them from refreshing twice); everything else reaches the shared backend.
 */
function twoInstancesTakingTurns(): SharedStateStore {
  const backend = new InMemoryBackend();
  const [first, second] = [new InMemorySharedState(backend), new InMemorySharedState(backend)];
  let turn = 0;
  return { ...delegatingTo(() => first), singleFlight: (key, task) => ((turn += 1) % 2 === 0 ? first : second).singleFlight(key, task) };
}

/** Every operation of the store `current()` names at the time of the call: a fake overrides only what it changes. */
function delegatingTo(current: () => SharedStateStore): SharedStateStore {
  return {
    singleFlight: (key, task) => current().singleFlight(key, task),
    withLock: (key, options, task) => current().withLock(key, options, task),
    remember: (key, value, ttlMs) => current().remember(key, value, ttlMs),
    recall: (key) => current().recall(key),
    claim: (key, ttlMs) => current().claim(key, ttlMs),
    countInWindow: (key, windowMs) => current().countInWindow(key, windowMs),
    setField: (key, field, value, ttlMs) => current().setField(key, field, value, ttlMs),
    readFields: (key) => current().readFields(key),
    deleteField: (key, field) => current().deleteField(key, field),
    ping: () => current().ping(),
    close: () => Promise.resolve(),
    rememberDurably: (key, value, ttlMs) => current().rememberDurably(key, value, ttlMs),
    publishOnce: (key, value, ttlMs) => current().publishOnce(key, value, ttlMs),
  };
}

describe("refresh across instances", () => {
  it("parallel requests at expiry on two instances make exactly one grant: the lock elects one holder", async () => {
    setSharedStateForTests(twoInstancesTakingTurns());
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const cookies = Object.fromEntries(jar.cookies);
    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => callWithMemberSession(memoryJar(cookies), (token) => Promise.resolve(token))),
    );
    expect(new Set(tokens)).toEqual(new Set(["at-1"]));
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("requests at expiry in one instance share its one refresh: one turn at the lock, not one a request", async () => {
    // The lock and the rotation record alone would also give one grant; the process's single flight saves
    // the other requests their round trips to the shared state, and their wait for the lock.
    const store = new InMemorySharedState();
    let locks = 0;
    setSharedStateForTests({
      ...delegatingTo(() => store),
      withLock: (key, options, task) => {
        locks += 1;
        return store.withLock(key, options, task);
      },
    });
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const cookies = Object.fromEntries(jar.cookies);
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () => callWithMemberSession(memoryJar(cookies), (token) => Promise.resolve(token))),
    );
    expect(new Set(tokens)).toEqual(new Set(["at-1"]));
    expect(locks).toBe(1);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("checklist 51: a holder that takes the lock after another instance's whole refresh uses its rotation and spends nothing", async () => {
    // Two instances on one backend. The first request (instance two) finds no rotation, then takes the lock
    // only once the second request (instance one) has refreshed, published and released it: the lock was
    // free all along, so only the holder's own look in the shared state keeps it from replaying rt-0.
    const backend = new InMemoryBackend();
    const [first, second] = [new InMemorySharedState(backend), new InMemorySharedState(backend)];
    let reachedLock!: () => void;
    const atLock = new Promise<void>((resolve) => (reachedLock = resolve));
    let openLock!: () => void;
    const lockOpen = new Promise<void>((resolve) => (openLock = resolve));
    let flights = 0;
    let locks = 0;
    setSharedStateForTests({
      ...delegatingTo(() => first),
      singleFlight: (key, task) => ((flights += 1) === 1 ? second : first).singleFlight(key, task),
      withLock: async (key, options, task) => {
        if ((locks += 1) === 1) {
          reachedLock();
          await lockOpen;
        }
        return first.withLock(key, options, task);
      },
    });
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const cookies = Object.fromEntries(jar.cookies);
    const waiting = callWithMemberSession(memoryJar(cookies), (token) => Promise.resolve(token));
    await atLock;
    const refreshedFirst = await callWithMemberSession(memoryJar(cookies), (token) => Promise.resolve(token));
    openLock();
    expect([refreshedFirst, await waiting]).toEqual(["at-1", "at-1"]);
    // One grant: rt-0 went to the site once, so a rotating site never saw a replay (RFC 9700 section 4.14.2).
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("never sends the grant when the refresh lock's lease is nearly spent", async () => {
    class NearlySpentLease extends InMemorySharedState {
      override withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>) {
        return super.withLock(key, options, () => task({ remainingMs: () => 1_000 }));
      }
    }
    setSharedStateForTests(new NearlySpentLease());
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "refresh_unavailable" });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(await loadSession(jar)).not.toBeNull();
  });

  it("keeps the rotated refresh token in the cookie when the shared state goes away right after the grant", async () => {
    const sharedState = sharedStateDownFromTheGrant(site);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toBeInstanceOf(SharedStateUnavailableError);
    sharedState.recover();
    // The spent rt-0 is gone from the cookie: the next request does not replay it (which would revoke the grant).
    expect((await loadSession(jar))?.data.refreshToken).toBe("rt-1");
  });

  it("fails closed without the lock: no grant, the shared-state error, and the cookie untouched", async () => {
    class LockUnavailable extends InMemorySharedState {
      override withLock(): Promise<never> {
        return Promise.reject(new SharedStateUnavailableError("Redis did not answer (lock)."));
      }
    }
    setSharedStateForTests(new LockUnavailable());
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const before = new Map(jar.cookies);
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toBeInstanceOf(SharedStateUnavailableError);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(jar.cookies).toEqual(before);
  });
});

/**
 * Two instances sharing one backend whose refresh lock was lost (a failover, a pause longer than the lease):
 * both believe they hold it. Each call's single-flight alternates between them, so both spend the refresh token.
 */
function twoInstancesWithALostLock(backend = new InMemoryBackend()): SharedStateStore {
  const [first, second] = [new InMemorySharedState(backend), new InMemorySharedState(backend)];
  let turn = 0;
  return {
    ...delegatingTo(() => first),
    singleFlight: (key, task) => ((turn += 1) % 2 === 0 ? first : second).singleFlight(key, task),
    withLock: async (_key, options, task) => ({ acquired: true, value: await task({ remainingMs: () => options.leaseMs }) }),
  };
}

/**
 * A primary whose replica acknowledges nothing (every lock and record unreplicated), and the failover that loses
 * what it held: the promoted replica starts empty, and the instance runs its arrival tasks there. The first
 * `refusedPublishes` rotation records are refused (Redis did not answer), as in the midst of a failover.
 */
function primaryWithoutReplica(refusedPublishes = 0): { store: SharedStateStore; promoteReplica: () => Promise<void> } {
  let primary = new InMemorySharedState();
  let refusals = refusedPublishes;
  const arrivalTasks: (() => Promise<void>)[] = [];
  const store: SharedStateStore = {
    ...delegatingTo(() => primary),
    withLock: (key, options, task) =>
      primary.withLock(key, options, (lease) => task({ remainingMs: () => lease.remainingMs(), unreplicated: true })),
    publishOnce: async (key, value, ttlMs) => {
      if (refusals > 0) {
        refusals -= 1;
        throw new SharedStateUnavailableError("Redis did not answer (publish_once).");
      }
      const outcome = await primary.publishOnce(key, value, ttlMs);
      return outcome.stored ? { ...outcome, durability: "unreplicated" } : outcome;
    },
    onPrimaryReached: (task) => void arrivalTasks.push(task),
    othersReachedPrimary: () => Promise.resolve(true),
  };
  const promoteReplica = async () => {
    primary = new InMemorySharedState();
    for (const task of arrivalTasks) await task();
  };
  return { store, promoteReplica };
}

async function stormWithOneCookie(size: number): Promise<string[]> {
  const jar = memoryJar();
  await saveSession(jar, expiringSession());
  const cookies = Object.fromEntries(jar.cookies);
  return Promise.all(Array.from({ length: size }, () => callWithMemberSession(memoryJar(cookies), (token) => Promise.resolve(token))));
}

describe("a lost refresh lock costs nothing (docs/architecture.md section 8)", () => {
  it("the holder the site refuses with invalid_grant (the token was just rotated by the other) uses the other's tokens", async () => {
    setSharedStateForTests(twoInstancesWithALostLock());
    const tokens = await stormWithOneCookie(2);
    // Both spent rt-0: the site answered the second with invalid_grant, and no session ended.
    expect(site.callsTo("/api/oauth/token")).toHaveLength(2);
    expect(tokens).toEqual(["at-1", "at-1"]);
  });

  it("a session ends for a refused refresh only when no newer tokens exist", async () => {
    setSharedStateForTests(twoInstancesWithALostLock());
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ refreshToken: "rt-revoked" }));
    const started = Date.now();
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "unauthenticated" });
    // It looked for newer tokens, briefly.
    expect(Date.now() - started).toBeGreaterThanOrEqual(ROTATION_SETTLE_MS - 50);
    expect(await loadSession(jar)).toBeNull();
  });

  it("at a site that honours a just-rotated refresh token once more, the second holder adopts the record the first published", async () => {
    // Such a site (a reuse grace period) answers both holders with new tokens: the record, written once by
    // compare-and-set, decides which tokens every instance uses.
    site.handlers.set("POST /api/oauth/token", () => {
      issued += 1;
      return { json: { access_token: `at-${issued}`, token_type: "Bearer", expires_in: 7200, refresh_token: `rt-${issued}` } };
    });
    setSharedStateForTests(twoInstancesWithALostLock());
    const tokens = await stormWithOneCookie(2);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(2);
    expect(new Set(tokens).size).toBe(1);
  });

  /** A store that does not take the next `failures` rotation records (publishOnce), as Redis mid-failover. */
  class PublishRefused extends InMemorySharedState {
    constructor(public failures: number) {
      super();
    }
    override publishOnce(key: string, value: string, ttlMs: number) {
      if (this.failures > 0) {
        this.failures -= 1;
        return Promise.reject(new SharedStateUnavailableError("Redis did not answer (publish_once)."));
      }
      return super.publishOnce(key, value, ttlMs);
    }
  }

  it("a rotation the shared state could not take is published once it answers again, for requests with the old cookie", async () => {
    const store = new PublishRefused(2);
    setSharedStateForTests(store);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const staleCookies = Object.fromEntries(jar.cookies);
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
    // Offered again in the background until the store takes it (here: the third offer).
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    await vi.waitFor(async () => expect(await store.recall(record)).toBeDefined(), { timeout: 2_000 });
    expect(store.failures).toBe(0);
    expect(await callWithMemberSession(memoryJar(staleCookies), (token) => Promise.resolve(token))).toBe("at-1");
    // The old cookie found the new tokens: rt-0 was never replayed.
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("while its rotation is unpublished, this instance never replays the spent refresh token (a failover lost the lock)", async () => {
    // The promoted replica answers, but it has neither the lock nor the record the old primary took with it.
    const store = new PublishRefused(Number.POSITIVE_INFINITY);
    setSharedStateForTests(store);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const staleCookies = Object.fromEntries(jar.cookies);
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
    // A request with the pre-rotation cookie: the lock is free and no record exists, yet rt-0 stays spent.
    expect(await callWithMemberSession(memoryJar(staleCookies), (token) => Promise.resolve(token))).toBe("at-1");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    // The offer lands once the store takes it (and this process's memory of it ends there).
    store.failures = 0;
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    await vi.waitFor(async () => expect(await store.recall(record)).toBeDefined(), { timeout: 2_000 });
  });

  it.each([
    ["no refresh_token in its answer", {}],
    ["the same refresh_token in its answer", { refresh_token: "rt-0" }],
  ])(
    "at a site that keeps its refresh token (%s), a renewal due later reaches the site while no replica has the last",
    async (_name, kept) => {
      // RFC 6749 section 6: rt-0 stays good, and access tokens live 90 s.
      site.handlers.set("POST /api/oauth/token", () => {
        issued += 1;
        return { json: { access_token: `at-${issued}`, token_type: "Bearer", expires_in: 90, ...kept } };
      });
      // This instance keeps each renewal no replica acknowledged, to offer it to the next primary.
      setSharedStateForTests(primaryWithoutReplica().store);
      const jar = memoryJar();
      await saveSession(jar, expiringSession());
      expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
      // 46 s on, at-1 has less than half its life left, inside the refresh margin: the renewal goes to the site,
      // not to the record or to the copy this instance keeps (both lasted half of at-1's 90 s).
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 46_000 });
      try {
        expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-2");
      } finally {
        vi.useRealTimers();
      }
      expect(site.callsTo("/api/oauth/token")).toHaveLength(2);
    },
  );

  it("at a site that keeps its refresh token, a refused token's renewal does not join one that adopts the record holding it", async () => {
    site.handlers.set("POST /api/oauth/token", () => {
      issued += 1;
      return { json: { access_token: `at-${issued}`, token_type: "Bearer", expires_in: 3600 } };
    });
    /** Reads renewal records slowly once armed, and says when the first slow read began. */
    class SlowRecall extends InMemorySharedState {
      armed = false;
      private began: () => void = () => undefined;
      readonly reading = new Promise<void>((resolve) => (this.began = resolve));
      override async recall(key: string) {
        if (this.armed && key.startsWith("rotated:")) {
          this.began();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return super.recall(key);
      }
    }
    const store = new SlowRecall();
    setSharedStateForTests(store);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    const beforeRenewal = Object.fromEntries(jar.cookies);
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
    // A cookie from before the renewal is adopting its record (at-1) when the site refuses at-1 to another request.
    store.armed = true;
    const adopting = callWithMemberSession(memoryJar(beforeRenewal), (token) => Promise.resolve(token));
    await store.reading;
    const refusedOnce = callWithMemberSession(jar, (token) =>
      token === "at-1"
        ? Promise.reject(new SiteError("token_refused", "The Account API refused the access token."))
        : Promise.resolve(token),
    );
    expect(await adopting).toBe("at-1");
    expect(await refusedOnce).toBe("at-2");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(2);
  });

  it("on a lock no replica acknowledged (a primary just promoted), another instance's late offer is awaited, not replayed", async () => {
    class JustPromoted extends InMemorySharedState {
      /** The instance of the former primary arrives with its offer. */
      arrived = false;
      override withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>) {
        return super.withLock(key, options, (lease) => task({ remainingMs: () => lease.remainingMs(), unreplicated: true }));
      }
      othersReachedPrimary() {
        return Promise.resolve(this.arrived);
      }
    }
    const store = new JustPromoted();
    setSharedStateForTests(store);
    // Another instance spent rt-0 on the old primary; its background offer reaches the new one 300 ms later.
    const elsewhere = {
      accessToken: "at-elsewhere",
      refreshToken: "rt-elsewhere",
      accessTokenExpiresAt: Date.now() + 3_600_000,
      scopes: ["openid", "account:read"],
      tokenType: undefined,
    };
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    setTimeout(
      () =>
        void sealWithSessionSecret(elsewhere, 0)
          .then((sealed) => store.publishOnce(record, sealed, 60_000))
          .then(() => (store.arrived = true)),
      300,
    );
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-elsewhere");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
  });

  it("a rotation no replica acknowledged is offered again on the next primary this instance reaches", async () => {
    const failingOver = primaryWithoutReplica();
    setSharedStateForTests(failingOver.store);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    // Every other instance is already on this primary: the holder refreshes without waiting out the bound.
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    expect(await failingOver.store.recall(record)).toBeDefined();
    // The primary dies before a replica has the record; the promoted one starts without it.
    await failingOver.promoteReplica();
    expect(await failingOver.store.recall(record)).toBeDefined();
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });

  it("a rotation taken late, by a primary no replica acknowledged, is offered again on the next primary too", async () => {
    const failingOver = primaryWithoutReplica(1);
    setSharedStateForTests(failingOver.store);
    const jar = memoryJar();
    await saveSession(jar, expiringSession());
    expect(await callWithMemberSession(jar, (token) => Promise.resolve(token))).toBe("at-1");
    // The first offer was refused; the one in the background lands, unreplicated.
    const record = `rotated:${createHash("sha256").update("rt-0").digest("base64url")}`;
    await vi.waitFor(async () => expect(await failingOver.store.recall(record)).toBeDefined(), { timeout: 2_000 });
    await failingOver.promoteReplica();
    expect(await failingOver.store.recall(record)).toBeDefined();
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });
});

describe("Account API chokepoint", () => {
  it("sends only the bearer token, never the browser's cookies", async () => {
    site.handlers.set("POST /account/graphql", () => ({ json: { data: { viewer: { id: "v1" } } } }));
    await runAccountOperation("at-x", PROBE_OPERATION);
    const call = site.callsTo("/account/graphql")[0]!;
    expect(call.headers.authorization).toBe("Bearer at-x");
    expect(call.headers.cookie).toBeUndefined();
    expect(call.body).toMatchObject({ query: PROBE_OPERATION.document });
  });

  it("on 401 invalid_token refreshes once and retries once", async () => {
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ accessTokenExpiresAt: Date.now() + 3_600_000 }));
    site.handlers.set("POST /account/graphql", (call) =>
      call.headers.authorization === "Bearer at-0"
        ? { status: 401, json: { error: "invalid_token" }, headers: { "www-authenticate": 'Bearer error="invalid_token"' } }
        : { json: { data: { viewer: { id: "ok" } } } },
    );
    const result = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION));
    expect(result.viewer.id).toBe("ok");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    expect(site.callsTo("/account/graphql")).toHaveLength(2);
    expect((await loadSession(jar))?.data.accessToken).toBe("at-1");
  });

  it.each([
    ["sends the member back to sign in when a refreshed token is still refused", undefined, 2],
    // A site whose refresh answers with the access token its Account API just refused: not sent again.
    ["checklist 53: a refresh that hands back the refused token ends the session without sending that token again", "at-0", 1],
  ])("%s", async (_name, refreshedAccessToken, accountApiCalls) => {
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ accessTokenExpiresAt: Date.now() + 3_600_000 }));
    if (refreshedAccessToken) {
      site.handlers.set("POST /api/oauth/token", () => ({
        json: {
          access_token: refreshedAccessToken,
          token_type: "Bearer",
          expires_in: 7200,
          refresh_token: "rt-1",
          scope: "openid account:read",
        },
      }));
    }
    site.handlers.set("POST /account/graphql", () => ({
      status: 401,
      json: { error: "invalid_token" },
      headers: { "www-authenticate": 'Bearer error="invalid_token"' },
    }));
    await expect(callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION))).rejects.toMatchObject({
      code: "unauthenticated",
    });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    expect(site.callsTo("/account/graphql")).toHaveLength(accountApiCalls);
    expect(await loadSession(jar)).toBeNull();
  });

  it("reports a resource_metadata pointer for another resource as a configuration error, without fetching it", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      status: 401,
      json: { error: "invalid_token" },
      headers: {
        "www-authenticate": 'Bearer error="invalid_token", resource_metadata="https://other.example/.well-known/oauth-protected-resource"',
      },
    }));
    await expect(runAccountOperation("at", PROBE_OPERATION)).rejects.toMatchObject({ code: "token_audience_mismatch" });
  });

  it("reports a freshly issued token that is still refused with resource_metadata as a configuration error", async () => {
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ accessTokenExpiresAt: Date.now() + 3_600_000 }));
    site.handlers.set("POST /account/graphql", () => ({
      status: 401,
      json: { error: "invalid_token" },
      headers: { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${site.url}/.well-known/oauth-protected-resource"` },
    }));
    await expect(callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION))).rejects.toMatchObject({
      code: "token_audience_mismatch",
    });
  });

  it("names the missing scope on 403 insufficient_scope", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      status: 403,
      json: { error: "insufficient_scope" },
      headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="account:read"' },
    }));
    await expect(runAccountOperation("at", PROBE_OPERATION)).rejects.toMatchObject({ code: "insufficient_scope", detail: "account:read" });
  });

  it("turns GraphQL errors into a query failure and a 5xx into unavailable", async () => {
    site.handlers.set("POST /account/graphql", () => ({ json: { errors: [{ message: "Cannot query field orders" }] } }));
    await expect(runAccountOperation("at", PROBE_OPERATION)).rejects.toMatchObject({ code: "account_api_failed", detail: "graphql_error" });
    site.handlers.set("POST /account/graphql", () => ({ status: 502, text: "bad gateway" }));
    await expect(runAccountOperation("at", PROBE_OPERATION)).rejects.toMatchObject({ code: "account_api_failed", detail: "http_502" });
  });
});

describe("a refresh answer is checked like a sign-in (OpenID Connect Core 12.2)", () => {
  function refreshAnswering(extra: Record<string, unknown>) {
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-9", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-9", scope: "openid account:read", ...extra },
    }));
  }
  function claims(overrides: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return { iss: site.url, aud: TEST_CLIENT_ID, sub: "s", iat: now, exp: now + 600, ...overrides };
  }

  it("accepts a refreshed id_token for the same member", async () => {
    refreshAnswering({ id_token: await site.signIdToken(claims()) });
    const { session } = await ensureFreshTokens(expiringSession());
    expect(session.accessToken).toBe("at-9");
  });

  it.each([
    ["sub", { sub: "someone-else" }],
    ["iss", { iss: "https://evil.example" }],
    ["aud", { aud: "another-client" }],
    ["azp", { azp: "another-client" }],
  ])("ends the session when the refreshed id_token's %s differs", async (detail, overrides) => {
    refreshAnswering({ id_token: await site.signIdToken(claims(overrides)) });
    await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended", detail });
  });

  it("ends the session when the refreshed id_token's signature does not verify", async () => {
    const token = await site.signIdToken(claims());
    const [header, payload] = token.split(".");
    refreshAnswering({ id_token: `${header}.${payload}.${"A".repeat(86)}` });
    await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended", detail: "signature" });
  });

  it("ends the session when the key set that would verify the refreshed id_token cannot be read, and says so", async () => {
    // A key the dashboard has not seen sends it back to jwks_uri, which fails: the refresh token is spent,
    // so the session ends (fail closed), with the key set named as the reason rather than the token.
    site.handlers.set("GET /jwks", () => ({ status: 503, json: { error: "temporarily_unavailable" } }));
    refreshAnswering({ id_token: await site.signIdToken(claims(), { kid: "rotated-at-the-site" }) });
    await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended", detail: "jwks" });
  });

  it.each(["DPoP", "mac"])("refuses a refresh whose token_type is %s", async (tokenType) => {
    refreshAnswering({ token_type: tokenType });
    await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended" });
  });

  it("accepts token_type bEARER", async () => {
    refreshAnswering({ token_type: "bEARER" });
    expect((await ensureFreshTokens(expiringSession())).session.accessToken).toBe("at-9");
  });
});

describe("checklist 49: a refreshed id_token's nonce (OpenID Connect Core 12.2)", () => {
  function refreshedIdToken(overrides: Record<string, unknown>) {
    const now = Math.floor(Date.now() / 1000);
    return site.signIdToken({ iss: site.url, aud: TEST_CLIENT_ID, sub: "s", iat: now, exp: now + 600, ...overrides });
  }
  function refreshAnswering(idToken: string) {
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-9", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-9", id_token: idToken },
    }));
  }

  it.each([
    ["no nonce", {}],
    ["the sign-in's nonce", { nonce: "sign-in-nonce" }],
  ])("accepts a refreshed id_token with %s", async (_name, overrides) => {
    refreshAnswering(await refreshedIdToken(overrides));
    const { session } = await ensureFreshTokens(expiringSession({ idTokenNonce: "sign-in-nonce" }));
    expect(session.accessToken).toBe("at-9");
  });

  it("refuses the new tokens when the nonce differs, ends the session and calls no resource", async () => {
    refreshAnswering(await refreshedIdToken({ nonce: "another-nonce" }));
    // No Account API handler: a call to it would fail the test (tests/support/fake-site.ts).
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ idTokenNonce: "sign-in-nonce" }));
    const error: unknown = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION)).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "unauthenticated", detail: "session_ended" });
    expect((error as { cause?: unknown }).cause).toMatchObject({ code: "session_ended", detail: "nonce" });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    expect(site.callsTo("/account/graphql")).toHaveLength(0);
    expect(await loadSession(jar)).toBeNull();
  });

  it("refuses a nonce in a refreshed id_token when the sign-in had no id_token", async () => {
    refreshAnswering(await refreshedIdToken({ nonce: "any" }));
    await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended", detail: "nonce" });
  });
});

describe("the resource server's challenges (security checklist 54 and 58)", () => {
  const OUR_HEADERS = ["cache-control", "content-type", "retry-after"];

  async function signedInJar() {
    const jar = memoryJar();
    await saveSession(jar, expiringSession({ accessTokenExpiresAt: Date.now() + 3_600_000 }));
    return jar;
  }

  it("checklist 54: 403 insufficient_scope for admin scopes: 'not permitted': no refresh, no re-authorization, no reflection", async () => {
    const jar = await signedInJar();
    site.handlers.set("POST /account/graphql", () => ({
      status: 403,
      json: { error: "insufficient_scope" },
      headers: {
        "www-authenticate": [
          'Bearer error="insufficient_scope"',
          'scope="admin account:write <img src=x onerror=alert(1)>"',
          'error_description="<b>ask for admin</b>"',
        ].join(", "),
      },
    }));
    const error: unknown = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION)).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "insufficient_scope", detail: "admin account:write" });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
    expect(await loadSession(jar)).not.toBeNull();

    const response = apiErrorResponse(error);
    const body = await response.text();
    expect(response.status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ error: { code: "insufficient_scope" } });
    expect(body).not.toMatch(/<|>|onerror|ask for admin/);
    expect([...response.headers.keys()].every((name) => OUR_HEADERS.includes(name))).toBe(true);
  });

  it.each<[string, string, string]>([
    ["a bare Bearer challenge (no error code)", 'Bearer realm="account"', "account:read"],
    [
      "twenty scopes: eight are repeated",
      `Bearer scope="${Array.from({ length: 20 }, (_, n) => `s${n}`).join(" ")}"`,
      "s0 s1 s2 s3 s4 s5 s6 s7",
    ],
  ])("checklist 54: a 403 with %s is 'not permitted': no refresh, no retry", async (_name, challenge, detail) => {
    const jar = await signedInJar();
    site.handlers.set("POST /account/graphql", () => ({ status: 403, json: {}, headers: { "www-authenticate": challenge } }));
    const error: unknown = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION)).catch(
      (thrown: unknown) => thrown,
    );
    // RFC 6750 section 3.1: a 403 is a token that lacks permission, whatever the challenge says; RFC 9700 section 2.3: no refresh for it.
    expect(error).toMatchObject({ code: "insufficient_scope", detail });
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
  });

  const malformedChallenges: [string, Record<string, string>][] = [
    ["an unterminated quote", { "www-authenticate": 'Bearer error="invalid_token, error_description="' }],
    ["only separators", { "www-authenticate": 'Bearer ,,, =, error=, ="x"' }],
    ["no scheme", { "www-authenticate": '="invalid_token"' }],
    [
      "a huge value",
      { "www-authenticate": `Bearer error="invalid_token", scope="${"x".repeat(6_000)}", error_description="${"x".repeat(6_000)}"` },
    ],
    [
      "what a CRLF injection leaves behind",
      {
        "www-authenticate":
          'Bearer error="invalid_token", scope="account:read%0D%0ASet-Cookie:evil=1", error_description="a%0D%0ASet-Cookie: evil=1"',
        "set-cookie": "evil=1; Path=/",
        "x-injected": "evil",
        location: "https://evil.example/",
      },
    ],
  ];
  it.each([401, 403].flatMap((status) => malformedChallenges.map(([name, headers]) => [status, name, headers] as const)))(
    "checklist 58: a %i whose WWW-Authenticate has %s is parsed defensively, and none of it reaches our answer",
    async (status, _name, headers) => {
      const log = captureLog();
      const jar = await signedInJar();
      site.handlers.set("POST /account/graphql", () => ({ status, json: { error: "invalid_token" }, headers }));
      const error: unknown = await callWithMemberSession(jar, (token) => runAccountOperation(token, PROBE_OPERATION)).catch(
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(LayerError);
      expect(site.callsTo("/account/graphql").length).toBeLessThanOrEqual(2);

      const response = apiErrorResponse(error);
      const body = await response.text();
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(600);
      expect((JSON.parse(body) as { error: { code: unknown } }).error.code).toEqual(expect.any(String));
      expect(body).not.toMatch(/evil|x{100}|Set-Cookie/i);
      expect([...response.headers.keys()].every((name) => OUR_HEADERS.includes(name))).toBe(true);
      // The operator's log: one JSON line per event, the site's text bounded and on one line.
      for (const line of log.lines) expect(line.length).toBeLessThan(2_000);
      expect(log.lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(log.lines.length);
    },
  );
});
