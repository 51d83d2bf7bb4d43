import { describe, expect, it } from "vitest";

import { AuthError } from "@/lib/auth/errors";
import { isPublicErrorCode } from "@/lib/contract/errors";
import { apiErrorResponse, describeApiError } from "@/lib/http/error-responses";
import { RequestError } from "@/lib/http/request-errors";
import { SessionError, SharedStateUnavailableError } from "@/lib/session/errors";
import { SiteError } from "@/lib/site/errors";
import { SiteFetchError } from "@/lib/site/site-call-policy";

/**
 * Each layer has its own error type (sign-in: AuthError, site: SiteError, session: SessionError); the
 * browser sees the same public codes and statuses whichever layer raised them.
 */
describe("one mapping from every layer's error to the browser's answer", () => {
  it.each([
    ["a session that is gone", new SessionError("unauthenticated", "No one is signed in."), 401, "unauthenticated", undefined],
    [
      "the shared state not answering",
      new SharedStateUnavailableError("Redis did not answer (recall)."),
      503,
      "temporarily_unavailable",
      undefined,
    ],
    ["a token the site refused", new SiteError("token_refused", "refused", { detail: "invalid_token" }), 401, "unauthenticated", undefined],
    [
      "a missing permission",
      new SiteError("insufficient_scope", "scope", { detail: "account:read" }),
      403,
      "insufficient_scope",
      "account:read",
    ],
    [
      "a query the site could not run",
      new SiteError("account_api_failed", "query", { detail: "graphql_error" }),
      502,
      "query_failed",
      undefined,
    ],
    ["an Account API that failed", new SiteError("account_api_failed", "down", { detail: "http_502" }), 503, "site_unavailable", undefined],
    ["tokens meant for another resource", new SiteError("token_audience_mismatch", "audience"), 502, "site_misconfigured", undefined],
    [
      "a grant the site no longer accepts",
      new AuthError("session_ended", "ended", { detail: "invalid_grant" }),
      401,
      "unauthenticated",
      undefined,
    ],
    ["a refresh the site could not make", new AuthError("refresh_unavailable", "later"), 503, "refresh_unavailable", undefined],
    ["a request from elsewhere", new AuthError("csrf_rejected", "csrf", { detail: "origin" }), 403, "csrf_rejected", undefined],
    [
      "a site refusing to revoke",
      new AuthError("revocation_refused", "refused", { detail: "invalid_client" }),
      502,
      "revocation_refused",
      "invalid_client",
    ],
    ["a misconfigured site", new AuthError("site_misconfigured", "metadata"), 502, "site_misconfigured", undefined],
    ["an account page that does not exist", new RequestError("not_found", "no such page"), 404, "not_found", undefined],
    ["a cursor that cannot be one", new RequestError("invalid_cursor", "bad cursor"), 400, "invalid_cursor", undefined],
    ["a body that names no sign-in to end", new RequestError("invalid_session_choice", "no id"), 400, "invalid_request", undefined],
    ["a body that carries no handoff", new RequestError("invalid_handoff_request", "no code"), 400, "invalid_request", undefined],
    ["a site that did not answer in time", new SiteFetchError("timeout", "graphql", "late"), 504, "site_timeout", undefined],
    ["a site that answered too much", new SiteFetchError("too_large", "graphql", "large"), 502, "answer_too_large", undefined],
    ["anything else", new Error("boom"), 500, "unexpected", undefined],
  ])("%s", (_, error, status, code, detail) => {
    const described = describeApiError(error);
    expect(described).toMatchObject({ status, code });
    expect(described.detail).toBe(detail);
    expect(isPublicErrorCode(described.code)).toBe(true);
  });

  it("tells the shared state's outage by its code, whichever bundle's class raised it", () => {
    const foreign = Object.assign(new Error("Redis did not answer."), { code: "shared_state_unavailable" });
    expect(describeApiError(foreign)).toMatchObject({ status: 503, code: "temporarily_unavailable" });
  });

  it("says when to come back after a shared-state outage (RFC 9110 section 10.2.3), and never the error's own words", async () => {
    const response = apiErrorResponse(new SharedStateUnavailableError("Redis did not answer (recall)."));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).not.toBeNull();
    expect(JSON.stringify(await response.json())).not.toContain("Redis");
  });

  it("checklist 69: answers an error no layer knows with its own words: never the error's message, stack or a token in it", async () => {
    const unknown = new TypeError("Cannot read properties of undefined (reading 'at-7f3c9e1b2d4a6f8e0c5b7d9a1e3f5c7b')");
    const response = apiErrorResponse(unknown);
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body: unknown = await response.json();
    expect(body).toEqual({ error: { code: "unexpected", message: "Something went wrong on our side. Please try again." } });
    expect(JSON.stringify(body)).not.toContain("at-7f3c9e1b2d4a6f8e0c5b7d9a1e3f5c7b");
  });
});
