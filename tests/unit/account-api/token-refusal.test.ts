/**
 * How the Account API says it does not take the access token, beyond the documented 401 with a Bearer
 * challenge: a 401 without the challenge (any body), or a GraphQL error coded UNAUTHENTICATED on the request
 * or its root field (Apollo's manner, often with 200). Each is the `token_refused` a data route answers by
 * renewing once and asking once more; nothing else is read as one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { runAccountOperation } from "@/lib/account-api/client";
import { optionalFields, type AccountOperation } from "@/lib/account-api/operation";
import { resetConfigForTests } from "@/lib/config";

import { configureDashboard } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";

const site = setUpFakeSite({ idTokens: false });
beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});

const operation: AccountOperation<{ viewer: { id: string; eventRegistrations?: { nodes: { id: string }[] } | null } }> = {
  document: "query DashboardProbeRefusal { viewer { id eventRegistrations(first: 5) { nodes { id } } } }",
  answer: z.object({
    viewer: z.object({
      id: z.string(),
      eventRegistrations: z
        .object({ nodes: z.array(z.object({ id: z.string() })) })
        .nullish()
        .optional(),
    }),
  }),
  optionalFields: optionalFields("Viewer.eventRegistrations"),
};

const unauthenticated = (path?: string[]) => ({
  message: "You must be signed in",
  ...(path ? { path } : {}),
  extensions: { code: "UNAUTHENTICATED" },
});

function answerWith(handler: Handler): Promise<unknown> {
  site.handlers.set("POST /account/graphql", handler);
  return runAccountOperation("access-token", operation);
}

describe("a refusal of the token without a Bearer challenge", () => {
  it.each<{ name: string; handler: Handler; detail: string }>([
    {
      name: "401 with the OAuth error body",
      handler: () => ({ status: 401, json: { error: "invalid_token", error_description: "expired" } }),
      detail: "invalid_token_without_challenge",
    },
    {
      name: "401 with a GraphQL error body (Adobe Commerce's shape)",
      handler: () => ({ status: 401, json: { errors: [{ message: "The current customer isn't authorized." }] } }),
      detail: "invalid_token_without_challenge",
    },
    {
      name: "401 with a page of HTML",
      handler: () => ({ status: 401, text: "<h1>Unauthorized</h1>", headers: { "content-type": "text/html" } }),
      detail: "invalid_token_without_challenge",
    },
    {
      name: "200 with UNAUTHENTICATED and no data (Apollo Server's AuthenticationError)",
      handler: () => ({ json: { data: null, errors: [unauthenticated()] } }),
      detail: "graphql_unauthenticated",
    },
    {
      name: "200 with UNAUTHENTICATED on the root field",
      handler: () => ({ json: { data: { viewer: null }, errors: [unauthenticated(["viewer"])] } }),
      detail: "graphql_unauthenticated",
    },
    {
      name: "200 with AUTH_NOT_AUTHENTICATED on the root field (Hot Chocolate's code)",
      handler: () => ({
        json: {
          data: { viewer: null },
          errors: [
            {
              message: "The current user is not authorized to access this resource.",
              path: ["viewer"],
              extensions: { code: "AUTH_NOT_AUTHENTICATED" },
            },
          ],
        },
      }),
      detail: "graphql_unauthenticated",
    },
    {
      name: "400 with UNAUTHENTICATED",
      handler: () => ({ status: 400, json: { errors: [unauthenticated()] } }),
      detail: "graphql_unauthenticated",
    },
  ])("$name is a refused token, asked once", async ({ handler, detail }) => {
    await expect(answerWith(handler)).rejects.toMatchObject({ name: "SiteError", code: "token_refused", detail });
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
  });
});

describe("what is not a refusal of the token", () => {
  it("UNAUTHENTICATED on a field inside the answer is that field's failure: the rest is kept", async () => {
    const answer = await answerWith(() => ({
      json: { data: { viewer: { id: "m1", eventRegistrations: null } }, errors: [unauthenticated(["viewer", "eventRegistrations"])] },
    }));
    expect(answer).toEqual({ viewer: { id: "m1" } });
  });

  it("UNAUTHENTICATED in a 5xx answer is the site failing", async () => {
    await expect(answerWith(() => ({ status: 503, json: { errors: [unauthenticated()] } }))).rejects.toMatchObject({
      code: "account_api_failed",
      detail: "http_503",
    });
  });

  it("403 without a challenge is the site refusing the request, not the token (a firewall's page)", async () => {
    await expect(answerWith(() => ({ status: 403, text: "Forbidden", headers: { "content-type": "text/plain" } }))).rejects.toMatchObject({
      code: "account_api_failed",
      detail: "http_403",
    });
  });

  it("a GraphQL error with another code is the query's failure", async () => {
    await expect(
      answerWith(() => ({ json: { data: null, errors: [{ message: "No", extensions: { code: "FORBIDDEN" } }] } })),
    ).rejects.toMatchObject({ code: "account_api_failed", detail: "graphql_error" });
  });
});
