import { createServer } from "node:net";

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
});
