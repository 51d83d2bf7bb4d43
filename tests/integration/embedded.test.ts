import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { POST as embeddedRoute } from "@/app/api/auth/embedded/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { createHandoff, redeemHandoff } from "@/lib/auth/embedded-handoff";
import { signInsFailed } from "@/lib/metrics/registry";
import { getSharedState } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";

import { captureLog } from "../support/captured-log";
import { TEST_APP_URL } from "../support/env";
import { deltas, deltasAndResult } from "../support/metric-deltas";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";
import { sessionData } from "../support/session-data";
import { renewalClock } from "../support/renewal-clock";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds: 20 });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.resetRequests());

async function bindingFor(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString("base64url");
}

const VERIFIER = "v".repeat(43);

/** Runs the popup's sign-in and returns the handoff code from the popup-done redirect. */
async function popupSignIn(): Promise<{ popup: RouteBrowser; code: string }> {
  const popup = new RouteBrowser();
  const done = await signInThroughRoutes(popup, { login: `/api/auth/login?display=popup&binding=${await bindingFor(VERIFIER)}` });
  const location = new URL(done.headers.get("location")!);
  expect(location.pathname).toBe("/auth/popup-done");
  const code = new URLSearchParams(location.hash.slice(1)).get("handoff");
  expect(code).toMatch(/^[\w-]{43}$/);
  return { popup, code: code! };
}

function redeemRequest(frame: RouteBrowser, body: unknown, headers: Record<string, string> = SAME_ORIGIN_HEADERS) {
  return embeddedRoute(
    frame.request("/api/auth/embedded", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

describe("sign-in from the embedded dashboard", () => {
  it("never sends a framed request to the site's sign-in page", async () => {
    const browser = new RouteBrowser();
    const response = await loginRoute(browser.request("/api/auth/login", { headers: { "sec-fetch-dest": "iframe" } }));
    expect(response.headers.get("location")).toBe(`${TEST_APP_URL}/`);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a popup sign-in without a valid binding", async () => {
    const response = await loginRoute(new RouteBrowser().request("/api/auth/login?display=popup&binding=short"));
    expect(response.headers.get("location")).toContain("/sign-in-problem");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("hands the session to the frame: the popup keeps none, the frame gets a partitioned SameSite=None cookie", async () => {
    const { popup, code } = await popupSignIn();
    expect([...popup.cookies.keys()].some((name) => name.includes("session") || name.includes("embedded"))).toBe(false);
    const frame = new RouteBrowser();
    const response = frame.absorb(await redeemRequest(frame, { code, verifier: VERIFIER }));
    expect(response.status).toBe(200);
    const line = frame.setCookieLines.find((entry) => entry.startsWith("__Host-dash_embedded="))!;
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=none/i);
    expect(line).toMatch(/; Partitioned/i);
    expect(line).toMatch(/; Path=\//i);
    expect(line).not.toMatch(/; Domain=/i);
    const session = await sessionRoute(frame.request("/api/session"));
    expect(await session.json()).toMatchObject({ email: "maya@example.com" });
  });

  const { comeBackWhenRenewalIsDue } = renewalClock();

  it("keeps a refreshed session in the frame's own cookie", async () => {
    const { code } = await popupSignIn();
    const frame = new RouteBrowser();
    frame.absorb(await redeemRequest(frame, { code, verifier: VERIFIER }));
    const before = frame.cookies.get("__Host-dash_embedded");
    frame.setCookieLines = [];
    // 20-second access tokens, due after 10 s: this request renews them, and the rotated session goes back where it came from.
    comeBackWhenRenewalIsDue(20);
    const courses = frame.absorb(
      await accountRoute(frame.request("/api/account/courses"), { params: Promise.resolve({ resource: "courses" }) }),
    );
    expect(courses.status).toBe(200);
    expect(sandbox.requests().filter((entry) => entry.grantType === "refresh_token")).toHaveLength(1);
    expect(frame.setCookieLines.some((entry) => entry.startsWith("__Host-dash_embedded=") && /Partitioned/i.test(entry))).toBe(true);
    expect(frame.setCookieLines.some((entry) => entry.startsWith("dash_session="))).toBe(false);
    expect(frame.cookies.get("__Host-dash_embedded")).not.toBe(before);
  });

  it("redeems only with the frame's secret, and logs and counts a failed sign-in, not a site error", async () => {
    const { code } = await popupSignIn();
    const frame = new RouteBrowser();
    const log = captureLog();
    const { changes: counted, result: wrong } = await deltasAndResult([[signInsFailed, { code: "login_state_mismatch" }]], () =>
      redeemRequest(frame, { code, verifier: "w".repeat(43) }),
    );
    expect(counted).toEqual([1]);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: "login_state_mismatch" } });
    expect(log.events()).toContainEqual(expect.objectContaining({ event: "sign_in_failed", errorCode: "login_state_mismatch" }));
    expect(log.events().filter((event) => event.event === "site_error")).toEqual([]);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("counts a handoff whose session cannot be started as a failed sign-in, not only one it cannot redeem", async () => {
    // A session that would need more than four cookies (checklist 46): redeemed, then refused as the frame's session.
    const code = await createHandoff(sessionData({ accessToken: "a".repeat(20_000) }), await bindingFor(VERIFIER));
    const frame = new RouteBrowser();
    const { changes: counted, result: answer } = await deltasAndResult([[signInsFailed, { code: "sign_in_too_large" }]], () =>
      redeemRequest(frame, { code, verifier: VERIFIER }),
    );
    expect(counted).toEqual([1]);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "sign_in_too_large" } });
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it("answers a body that is not a handoff with 400 invalid_request, not as a sign-in that did not match", async () => {
    const frame = new RouteBrowser();
    let answers: Response[] = [];
    // The request's own form is not a failed sign-in: nothing is counted, under any code.
    const counted = await deltas(
      ["unexpected", "invalid_handoff_request", "invalid_request"].map((code) => [signInsFailed, { code }]),
      async () => {
        const notJson = await embeddedRoute(
          frame.request("/api/auth/embedded", {
            method: "POST",
            headers: { ...SAME_ORIGIN_HEADERS, "content-type": "application/json" },
            body: "{",
          }),
        );
        const others = [{ code: "c" }, { verifier: VERIFIER }, { code: 5, verifier: VERIFIER }, null].map((body) =>
          redeemRequest(frame, body),
        );
        answers = [notJson, ...(await Promise.all(others))];
      },
    );
    expect(counted).toEqual([0, 0, 0]);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: { code: "invalid_request", message: expect.stringContaining("carries no sign-in handoff") as string },
      });
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("refuses an unknown code, a cross-site request, and a request without the custom header", async () => {
    const { code } = await popupSignIn();
    const frame = new RouteBrowser();
    const log = captureLog();
    const { changes, result: unknown } = await deltasAndResult([[signInsFailed, { code: "login_expired" }]], () =>
      redeemRequest(frame, { code: "unknown", verifier: VERIFIER }),
    );
    expect(changes).toEqual([1]);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: "login_expired" } });
    expect(log.events()).toContainEqual(expect.objectContaining({ event: "sign_in_failed", errorCode: "login_expired" }));
    // A forged request is refused before it is a sign-in, and is not counted as one.
    const forged = await deltas([[signInsFailed, { code: "csrf_rejected" }]], async () => {
      expect(
        (await redeemRequest(frame, { code, verifier: VERIFIER }, { origin: sandbox.url, "x-requested-with": "companion-dashboard" }))
          .status,
      ).toBe(403);
      expect((await redeemRequest(frame, { code, verifier: VERIFIER }, { origin: TEST_APP_URL })).status).toBe(403);
    });
    expect(forged).toEqual([0]);
    expect(frame.cookies.size).toBe(0);
  });

  it("takes only a secret of 43 to 128 characters, as a PKCE verifier (RFC 7636 section 4.1), even one that matches", async () => {
    for (const length of [43, 128]) {
      const verifier = "v".repeat(length);
      const session = sessionData();
      await expect(redeemHandoff(await createHandoff(session, await bindingFor(verifier)), verifier)).resolves.toMatchObject({
        sid: session.sid,
      });
    }
    for (const length of [42, 129]) {
      const verifier = "v".repeat(length);
      const code = await createHandoff(sessionData(), await bindingFor(verifier));
      await expect(redeemHandoff(code, verifier)).rejects.toMatchObject({ code: "login_state_mismatch" });
    }
  });

  it("looks up no code longer than the codes it hands out: the shared state is not asked", async () => {
    const recall = vi.spyOn(getSharedState(), "recall");
    try {
      await expect(redeemHandoff("c".repeat(65), VERIFIER)).rejects.toMatchObject({ code: "login_expired" });
      expect(recall).not.toHaveBeenCalled();
    } finally {
      recall.mockRestore();
    }
  });

  it("expires the handoff after a minute", async () => {
    const now = Date.now();
    const session = sessionData();
    const code = await createHandoff(session, await bindingFor(VERIFIER));
    await expect(redeemHandoff(code, VERIFIER)).resolves.toMatchObject({ sid: session.sid });
    vi.useFakeTimers({ toFake: ["Date"], now: now + 61_000 });
    try {
      await expect(redeemHandoff(code, VERIFIER)).rejects.toMatchObject({ code: "login_expired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("expires the handoff's seal on its own even where the shared state still holds the code", async () => {
    const now = Date.now();
    const remember = vi.spyOn(getSharedState(), "remember");
    const code = await createHandoff(sessionData(), await bindingFor(VERIFIER));
    const sealed = remember.mock.calls.find(([key]) => key === `handoff:${code}`)?.[1];
    remember.mockRestore();
    expect(sealed).toEqual(expect.any(String));
    // A store that outlives the entry's TTL: the code is still found after the minute, and after the
    // minute more that iron allows for clocks that disagree.
    const recall = vi.spyOn(getSharedState(), "recall").mockResolvedValue(sealed);
    vi.useFakeTimers({ toFake: ["Date"], now: now + 121_000 });
    try {
      await expect(redeemHandoff(code, VERIFIER)).rejects.toMatchObject({ code: "login_expired" });
    } finally {
      vi.useRealTimers();
      recall.mockRestore();
    }
  });
});

describe("the popup's pages speak the panel's language, which the panel's cookie cannot tell a top-level window", () => {
  async function popupSignInEnd(lang: string, decision: "allow" | "deny" = "allow"): Promise<URL> {
    const login = `/api/auth/login?display=popup&binding=${await bindingFor(VERIFIER)}&lang=${lang}`;
    return new URL((await signInThroughRoutes(new RouteBrowser(), { login, decision })).headers.get("location")!);
  }

  it("sends the popup's last page, or its sign-in problem page, the language the panel asked for", async () => {
    const done = await popupSignInEnd("zh-TW");
    expect(done.pathname).toBe("/auth/popup-done");
    expect(done.searchParams.get("lang")).toBe("zh-TW");
    expect(new URLSearchParams(done.hash.slice(1)).get("handoff")).toMatch(/^[\w-]{43}$/);
    const denied = await popupSignInEnd("zh-TW", "deny");
    expect(denied.pathname).toBe("/sign-in-problem");
    expect(denied.searchParams.get("code")).toBe("authorization_denied");
    expect(denied.searchParams.get("binding")).toBe(await bindingFor(VERIFIER));
    expect(denied.searchParams.get("lang")).toBe("zh-TW");
  });

  it("passes on no language it does not speak, and none for a sign-in outside the panel", async () => {
    for (const lang of ["fr", "zh-CN", "%3Cscript%3E"]) {
      expect((await popupSignInEnd(lang)).searchParams.has("lang"), lang).toBe(false);
      expect((await popupSignInEnd(lang, "deny")).searchParams.has("lang"), lang).toBe(false);
    }
    const topLevel = await signInThroughRoutes(new RouteBrowser(), {
      login: "/api/auth/login?returnTo=%2Fcourses&lang=zh-TW",
      decision: "deny",
    });
    expect(new URL(topLevel.headers.get("location")!).searchParams.has("lang")).toBe(false);
  });
});

describe("the handoff body is capped", () => {
  function streamedRequest(chunks: () => Uint8Array | null, headers: Record<string, string> = {}): NextRequest {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks();
        if (next === null) controller.close();
        else controller.enqueue(next);
      },
    });
    return new NextRequest(`${TEST_APP_URL}/api/auth/embedded`, {
      method: "POST",
      headers: { ...SAME_ORIGIN_HEADERS, "content-type": "application/json", ...headers },
      body,
      duplex: "half",
    });
  }

  it("refuses a declared Content-Length over the cap before reading anything, and blames no site in the log", async () => {
    const log = captureLog();
    let pulled = 0;
    const response = await embeddedRoute(
      streamedRequest(
        () => {
          pulled += 1;
          return pulled > 1 ? null : new TextEncoder().encode("{}");
        },
        { "content-length": "1048576" },
      ),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "body_too_large" } });
    expect(pulled).toBeLessThanOrEqual(1);
    // The request's own fault: its request line (status 413) says it; nothing says the site failed.
    expect(log.events().filter((event) => event.event === "site_error")).toEqual([]);
    expect(log.events()).toContainEqual(expect.objectContaining({ event: "request", route: "/api/auth/embedded", status: 413 }));
  });

  it("stops reading a body without Content-Length at the cap", async () => {
    let pulled = 0;
    const response = await embeddedRoute(
      streamedRequest(() => {
        pulled += 1;
        // 64 KiB in all, far more than the cap: only the first few chunks may be read.
        return pulled > 256 ? null : new Uint8Array(256).fill(0x20);
      }),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it("still redeems a handoff within the cap", async () => {
    const { code } = await popupSignIn();
    const response = await redeemRequest(new RouteBrowser(), { code, verifier: VERIFIER });
    expect(response.status).toBe(200);
  });
});
