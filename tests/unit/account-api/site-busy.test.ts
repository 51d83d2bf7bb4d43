/**
 * How a site says it limits how often it answers: 429 (RFC 6585 section 4), 403 with Retry-After (GitHub's
 * secondary limits), or a GraphQL error coded THROTTLED (Shopify) or typed RATE_LIMITED (GitHub) at 200.
 * Each is a SiteError "site_busy", asked once and never again on its own; the wait it names is read from
 * Retry-After (seconds or an HTTP-date) and told to the member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { runAccountOperation } from "@/lib/account-api/client";
import type { AccountOperation } from "@/lib/account-api/operation";
import { resetConfigForTests } from "@/lib/config";
import { describeApiError } from "@/lib/http/error-responses";
import { LONGEST_WAIT_SECONDS } from "@/lib/contract/paths";
import { SITE_BUSY } from "@/lib/contract/errors";
import { retryAfterSeconds } from "@/lib/site/site-busy";

import { configureDashboard } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";

const site = setUpFakeSite({ idTokens: false });
beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});

const operation: AccountOperation<{ viewer: { id: string } }> = {
  document: "query DashboardProbeBusy { viewer { id } }",
  answer: z.object({ viewer: z.object({ id: z.string() }) }),
};

async function failureOf(handler: Handler): Promise<unknown> {
  site.handlers.set("POST /account/graphql", handler);
  const error = await runAccountOperation("access-token", operation).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeDefined();
  return error;
}

describe("an answer by which the site says it is busy", () => {
  /** Seconds since the epoch, `seconds` from now, as GitHub writes `x-ratelimit-reset`. */
  const epochIn = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

  it.each<{ name: string; handler: Handler; wait: number | [number, number] | undefined }>([
    {
      name: "429 with Retry-After in seconds",
      handler: () => ({ status: 429, json: { errors: [{ message: "Too many requests" }] }, headers: { "retry-after": "30" } }),
      wait: 30,
    },
    {
      name: "429 with a page of text and no Retry-After",
      handler: () => ({ status: 429, text: "Slow down", headers: { "content-type": "text/plain" } }),
      wait: undefined,
    },
    {
      name: "403 with Retry-After (GitHub's secondary limit)",
      handler: () => ({ status: 403, json: { message: "You have exceeded a secondary rate limit." }, headers: { "retry-after": "60" } }),
      wait: 60,
    },
    {
      name: "403 with GitHub's primary limit used up (x-ratelimit-remaining 0, x-ratelimit-reset an epoch time)",
      handler: () => ({
        status: 403,
        json: { message: "API rate limit exceeded for user ID 1." },
        headers: { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": epochIn(90) },
      }),
      wait: [89, 90],
    },
    {
      name: "429 with the IETF draft's fields used up (ratelimit-remaining 0, ratelimit-reset in seconds)",
      handler: () => ({ status: 429, text: "Slow down", headers: { "ratelimit-remaining": "0", "ratelimit-reset": "45" } }),
      wait: 45,
    },
    {
      name: "429 with Retry-After and a used-up limit's reset: Retry-After names the wait",
      handler: () => ({
        status: 429,
        text: "Slow down",
        headers: { "retry-after": "30", "x-ratelimit-remaining": "0", "x-ratelimit-reset": epochIn(600) },
      }),
      wait: 30,
    },
    {
      name: "429 with a limit not used up and its reset: no wait named",
      handler: () => ({ status: 429, text: "Slow down", headers: { "x-ratelimit-remaining": "3", "x-ratelimit-reset": epochIn(600) } }),
      wait: undefined,
    },
    {
      name: "429 with a used-up limit whose reset is over a day away: no wait named",
      handler: () => ({
        status: 429,
        text: "Slow down",
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": epochIn(2 * 86_400) },
      }),
      wait: undefined,
    },
    {
      name: "200 with a THROTTLED error (Shopify's shape)",
      handler: () => ({ json: { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] } }),
      wait: undefined,
    },
    {
      name: "200 with a RATE_LIMITED error type (GitHub's shape) and Retry-After",
      handler: () => ({
        json: { data: null, errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded" }] },
        headers: { "retry-after": "5" },
      }),
      wait: 5,
    },
    {
      name: "400 with RATE_LIMITED on the root field",
      handler: () => ({
        status: 400,
        json: { errors: [{ message: "Slow down", path: ["viewer"], extensions: { code: "RATE_LIMITED" } }] },
      }),
      wait: undefined,
    },
  ])("$name is the site being busy, asked once", async ({ handler, wait }) => {
    const error = await failureOf(handler);
    expect(error).toMatchObject({ name: "SiteError", code: "account_api_failed", detail: SITE_BUSY });
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
    const [least, most] = Array.isArray(wait) ? wait : [wait, wait];
    expect(describeApiError(error)).toEqual({
      status: 503,
      code: "site_busy",
      message: "The site is busy right now. Please try again in a moment.",
      ...(wait === undefined
        ? {}
        : { retryAfterSeconds: expect.toSatisfy((seconds: number) => seconds >= least! && seconds <= most!) as number }),
    });
  });
});

describe("what is not the site being busy", () => {
  it("403 without Retry-After is the site refusing the request (a firewall's page)", async () => {
    const error = await failureOf(() => ({ status: 403, text: "Forbidden", headers: { "content-type": "text/plain" } }));
    expect(error).toMatchObject({ code: "account_api_failed", detail: "http_403" });
    expect(describeApiError(error)).toMatchObject({ code: "site_unavailable" });
  });

  it("403 with a rate limit not used up is the site refusing the request", async () => {
    const error = await failureOf(() => ({
      status: 403,
      json: { message: "Resource not accessible by integration" },
      headers: { "x-ratelimit-remaining": "4999", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 600) },
    }));
    expect(error).toMatchObject({ code: "account_api_failed", detail: "http_403" });
  });

  it("503 with Retry-After is the site not being available, for as long as it named (RFC 9110 section 15.6.4)", async () => {
    const error = await failureOf(() => ({ status: 503, text: "Down for maintenance", headers: { "retry-after": "120" } }));
    expect(describeApiError(error)).toEqual({
      status: 503,
      code: "site_unavailable",
      message: "The site is not available right now. Please try again in a moment.",
      retryAfterSeconds: 120,
    });
    // A wait on another failing status is none.
    const failing = await failureOf(() => ({ status: 500, text: "Oops", headers: { "retry-after": "120" } }));
    expect(describeApiError(failing)).toEqual({
      status: 503,
      code: "site_unavailable",
      message: "The site is not available right now. Please try again in a moment.",
    });
  });

  it("THROTTLED on a field inside the answer is that field's failure, not the whole site's", async () => {
    const error = await failureOf(() => ({
      json: { data: null, errors: [{ message: "Throttled", path: ["viewer", "id"], extensions: { code: "THROTTLED" } }] },
    }));
    expect(error).toMatchObject({ code: "account_api_failed", detail: "graphql_error" });
  });

  it("THROTTLED in a 5xx answer is the site failing", async () => {
    const error = await failureOf(() => ({ status: 502, json: { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] } }));
    expect(error).toMatchObject({ code: "account_api_failed", detail: "http_502" });
  });
});

describe("the wait a Retry-After value names (RFC 9110 section 10.2.3)", () => {
  const now = Date.parse("2026-12-06T12:00:00Z");

  it("reads seconds and an HTTP-date", () => {
    expect(retryAfterSeconds("30", now)).toBe(30);
    expect(retryAfterSeconds(" 7 ", now)).toBe(7);
    expect(retryAfterSeconds("Sun, 06 Dec 2026 12:02:00 GMT", now)).toBe(120);
    // A date part of a second ahead is one whole second.
    expect(retryAfterSeconds("Sun, 06 Dec 2026 12:00:01 GMT", now - 400)).toBe(2);
  });

  it("names no wait for nothing, a past moment, a wait over a day, or a value of neither form", () => {
    for (const value of [
      null,
      undefined,
      "",
      "0",
      "Sun, 06 Dec 2026 11:59:00 GMT",
      String(LONGEST_WAIT_SECONDS + 1),
      "soon",
      "-5",
      "1.5",
      "12345678901",
    ]) {
      expect(retryAfterSeconds(value, now), String(value)).toBeUndefined();
    }
    expect(retryAfterSeconds(String(LONGEST_WAIT_SECONDS), now)).toBe(LONGEST_WAIT_SECONDS);
  });
});
