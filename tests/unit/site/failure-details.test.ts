import { createServer } from "node:net";

import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";

import { AuthError } from "@/lib/auth/errors";
import { siteFailureDetails } from "@/lib/site/failure-details";

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function fetchFailure(url: string): Promise<AuthError> {
  try {
    await fetch(url);
  } catch (cause) {
    return new AuthError("site_unavailable", "The site's authorization server metadata could not be read.", { cause });
  }
  throw new Error(`${url} answered`);
}

describe("what a log line says about a site that did not answer", () => {
  it("names the network error's code when nothing listens", async () => {
    const details = siteFailureDetails(await fetchFailure(`http://127.0.0.1:${await closedPort()}/.well-known/oauth-authorization-server`));
    expect(details).toMatchObject({ siteErrorCode: "ECONNREFUSED", siteErrorMessage: expect.stringContaining("ECONNREFUSED") as string });
  });

  it("says why fetch refused to call at all (a port browsers and fetch block)", async () => {
    expect(siteFailureDetails(await fetchFailure("http://127.0.0.1:4190/")).siteErrorMessage).toBe("bad port");
  });

  it("adds nothing to our own error without a cause", () => {
    expect(siteFailureDetails(new AuthError("site_misconfigured", "The site's metadata lacks the token endpoint."))).toEqual({});
  });

  it("never repeats a token, code or ID token the site's error text echoes; its plain words stay", async () => {
    const refreshToken = `srt_${"Ab3-_x".repeat(8)}`;
    const idToken = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtZW1iZXJfN2MxZTkwIn0.c2lnbmF0dXJl";
    const answer = {
      error: "invalid_grant",
      error_description: `The refresh token ${refreshToken} was revoked; id_token_hint ${idToken} is stale.`,
    };
    const response = new Response(JSON.stringify(answer), { status: 400, headers: { "content-type": "application/json" } });
    const as = { issuer: "https://school.example.com", token_endpoint: "https://school.example.com/api/oauth/token" };
    const failure = await oauth.processRefreshTokenResponse(as, { client_id: "dashboard" }, response).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
    expect(siteFailureDetails(failure)).toMatchObject({
      siteStatus: 400,
      siteErrorCode: "invalid_grant",
      siteErrorMessage: "The refresh token [redacted] was revoked; id_token_hint [redacted] is stale.",
    });
  });
});
