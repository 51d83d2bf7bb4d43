import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, asApiError, errorKindOf, getJson, postAction, postJsonAction } from "@/lib/client/api";
import type * as ClientApi from "@/lib/client/api";
import { PUBLIC_ERROR_CODES } from "@/lib/contract/errors";
import { loginPath } from "@/lib/contract/paths";
import { accountKeys } from "@/lib/client/keys";
import { pagedAccountPageQueryOptions } from "@/lib/client/queries";
import { makeQueryClient, shouldRetry } from "@/lib/client/query-client";

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("accountKeys", () => {
  it("nests every account key under one root, apart from the session", () => {
    expect(accountKeys.page("courses")).toEqual(["account", "courses"]);
    expect(accountKeys.page("overview").slice(0, 1)).toEqual(accountKeys.all);
    expect(accountKeys.session()).toEqual(["session"]);
  });
});

describe("loginPath", () => {
  it("keeps only same-origin relative paths", () => {
    expect(loginPath("/courses?x=1")).toBe("/api/auth/login?returnTo=%2Fcourses%3Fx%3D1");
    expect(loginPath("//evil.example.com")).toBe("/api/auth/login?returnTo=%2F");
    expect(loginPath("https://evil.example.com")).toBe("/api/auth/login?returnTo=%2F");
  });
});

describe("getJson", () => {
  it("turns the BFF's error body into an ApiError with its code", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(jsonResponse(503, { error: { code: "site_unavailable", message: "down" } }))),
    );
    const error = await getJson("/api/account/orders").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: "site_unavailable", kind: "site_unavailable" });
  });

  it("sends the browser to sign in and back on 401", async () => {
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { pathname: "/events", search: "?tab=past", assign } });
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(jsonResponse(401, { error: { code: "unauthenticated", message: "" } }))),
    );
    const error = await getJson("/api/account/events").catch((caught: unknown) => caught);
    expect(errorKindOf(error)).toBe("unauthenticated");
    expect(assign).toHaveBeenCalledWith("/api/auth/login?returnTo=%2Fevents%3Ftab%3Dpast");
  });

  it("reports a network failure as such", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );
    const error = await getJson("/api/session").catch((caught: unknown) => caught);
    expect(errorKindOf(error)).toBe("network");
  });

  it("fetches the next page with the after cursor", async () => {
    const fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(() =>
      Promise.resolve(jsonResponse(200, { items: [], totalCount: 0, nextCursor: null })),
    );
    vi.stubGlobal("fetch", fetchMock);
    const client = makeQueryClient();
    await client.fetchInfiniteQuery({ ...pagedAccountPageQueryOptions("courses"), initialPageParam: "abc/=" });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/account/courses?after=abc%2F%3D");
    // Never from the browser's HTTP cache: the answer is the member's, as of now.
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: "GET", credentials: "same-origin", cache: "no-store" });
  });
});

describe("makeQueryClient on the server", () => {
  afterEach(() => vi.useRealTimers());

  it("keeps nothing once the render is done: a prefetched page schedules no removal timer", async () => {
    vi.useFakeTimers();
    const client = makeQueryClient();
    await client.prefetchInfiniteQuery({
      queryKey: accountKeys.page("courses"),
      queryFn: () => Promise.resolve({ items: ["a course"], totalCount: 1, nextCursor: null }),
      initialPageParam: null,
      getNextPageParam: () => undefined,
    });
    expect(client.getQueryData(accountKeys.page("courses"))).toMatchObject({ pages: [{ items: ["a course"] }] });
    // A timer would hold the client and the member's data for its whole gcTime after the answer was sent.
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("postAction", () => {
  it("sends the custom header with same-origin credentials, with a JSON body too (OWASP ASVS 5 V3.5.2)", async () => {
    const fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(() => Promise.resolve(jsonResponse(200, {})));
    vi.stubGlobal("fetch", fetchMock);
    await postAction("/api/auth/revoke");
    await postJsonAction("/api/sessions/end", { sid: "s" });
    for (const [, init] of fetchMock.mock.calls) {
      expect(init).toMatchObject({ method: "POST", credentials: "same-origin", cache: "no-store" });
      expect(new Headers(init?.headers).get("X-Requested-With")).toBe("companion-dashboard");
    }
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBe('{"sid":"s"}');
  });

  it.each([
    ["Revoke access", (api: typeof ClientApi) => api.postAction("/api/auth/revoke")],
    ["Sign out there", (api: typeof ClientApi) => api.postJsonAction("/api/sessions/end", { sid: "s" })],
  ])("%s after the session ended elsewhere: a 401 sends the browser to sign in and back, as its words say", async (_action, act) => {
    // A module of its own: a page leaves once (the getJson test above already left).
    vi.resetModules();
    const api = await import("@/lib/client/api");
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { pathname: "/settings", search: "", assign } });
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(jsonResponse(401, { error: { code: "unauthenticated", message: "" } }))),
    );
    const error = await act(api).catch((caught: unknown) => caught);
    expect(api.errorKindOf(error)).toBe("unauthenticated");
    expect(assign).toHaveBeenCalledWith("/api/auth/login?returnTo=%2Fsettings");
  });

  it("rejects with the BFF's code when the action fails", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(jsonResponse(403, { error: { code: "csrf_rejected", message: "" } }))),
    );
    await expect(postAction("/api/auth/revoke")).rejects.toMatchObject({ status: 403, code: "csrf_rejected" });
  });
});

describe("shouldRetry", () => {
  it("retries only a request that never reached the dashboard, twice; never anything the BFF answered", () => {
    expect(shouldRetry(0, new ApiError(0, "network_error", ""))).toBe(true);
    expect(shouldRetry(2, new ApiError(0, "network_error", ""))).toBe(false);
    for (const code of PUBLIC_ERROR_CODES) {
      expect(shouldRetry(0, new ApiError(code === "site_timeout" ? 504 : 502, code, ""))).toBe(false);
    }
    expect(shouldRetry(0, new ApiError(503, "http_503", ""))).toBe(false);
  });
});

describe("error kinds", () => {
  it("gives every public code of the BFF a kind of its own, never the generic one", () => {
    for (const code of PUBLIC_ERROR_CODES.filter((code) => code !== "unexpected")) {
      expect(errorKindOf(new ApiError(400, code, "")), code).not.toBe("unknown");
    }
    expect(errorKindOf(new ApiError(502, "query_failed", ""))).toBe("query_failed");
    expect(errorKindOf(new ApiError(504, "site_timeout", ""))).toBe("site_timeout");
    expect(errorKindOf(new ApiError(502, "answer_too_large", ""))).toBe("answer_too_large");
    expect(errorKindOf(new ApiError(503, "site_unavailable", ""))).toBe("site_unavailable");
  });

  it("judges an answer that is not the BFF's own (a proxy in between) by its status", async () => {
    expect(["401", "504", "502", "503", "418"].map((status) => new ApiError(Number(status), `http_${status}`, "").kind)).toEqual([
      "unauthenticated",
      "site_timeout",
      "site_unavailable",
      "site_unavailable",
      "unknown",
    ]);
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }))),
    );
    const error = await getJson("/api/account/orders").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: "http_502", kind: "site_unavailable" });
  });

  it("tells a refresh or revocation the site could not do from one it refused", () => {
    expect(new ApiError(503, "refresh_unavailable", "").kind).toBe("site_unavailable");
    expect(new ApiError(503, "revocation_unavailable", "").kind).toBe("site_unavailable");
    expect(new ApiError(502, "revocation_refused", "").kind).toBe("site_misconfigured");
  });

  it("reads an error the server serialised into the page like the ApiError it was", () => {
    const serialised: unknown = JSON.parse(JSON.stringify(new ApiError(403, "insufficient_scope", "no", "account:read")));
    expect(asApiError(serialised)).toMatchObject({ status: 403, code: "insufficient_scope", detail: "account:read" });
    expect(errorKindOf(serialised)).toBe("insufficient_scope");
    expect(errorKindOf({ message: "plain" })).toBe("unknown");
  });

  it("reads as an ApiError only what has a numeric status and a string code, and drops fields of another type", () => {
    for (const notAnError of [
      null,
      undefined,
      "insufficient_scope",
      403,
      { status: "403", code: "insufficient_scope" },
      { status: 403, code: 403 },
    ]) {
      expect(asApiError(notAnError), JSON.stringify(notAnError)).toBeUndefined();
    }
    const odd = asApiError({ status: 403, code: "insufficient_scope", message: { text: "no" }, detail: ["account:read"] });
    expect(odd).toBeInstanceOf(ApiError);
    expect(odd).toMatchObject({ status: 403, code: "insufficient_scope", message: "" });
    expect(odd?.detail).toBeUndefined();
  });
});
