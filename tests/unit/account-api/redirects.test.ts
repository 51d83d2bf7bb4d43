/**
 * Security checklist case 57 (RFC 6750 section 5.3; RFC 8707; RFC 9728 section 7.4; ASVS 15.3.2): the
 * member's access token goes only to the Account API named by the configured site. An Account API that
 * answers with a redirect (301, 302, 307, 308), to the same origin or to another one, is never followed:
 * no second request leaves with or without the token, and the page gets a clean Account API error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runAccountOperation } from "@/lib/account-api/client";
import { resetConfigForTests } from "@/lib/config";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { SiteError } from "@/lib/site/errors";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";
import { setUpFakeSite, startFakeSite, type FakeSite } from "../../support/fake-site";
import { PROBE_OPERATION } from "../../support/probe-operation";

const site = setUpFakeSite({ idTokens: false });
/** Another origin (another port of the loopback), where a followed cross-origin redirect would land. */
let elsewhere: FakeSite;
const TOKEN = "at-member-secret-57";

beforeAll(async () => {
  configureDashboard(site.url);
  resetConfigForTests();
  elsewhere = await startFakeSite({ idTokens: false });
  // What a followed redirect would find there: an answer that would succeed.
  for (const path of ["/account/graphql", "/moved/graphql"]) {
    elsewhere.handlers.set(`POST ${path}`, () => ({ json: { data: { viewer: { id: "stolen" } } } }));
    elsewhere.handlers.set(`GET ${path}`, () => ({ json: { data: { viewer: { id: "stolen" } } } }));
  }
});
afterAll(async () => elsewhere.close());

describe("checklist 57: the Account API answering a redirect", () => {
  const cases = [301, 302, 307, 308].flatMap((status) => [
    { status, where: "same-origin", target: () => `${site.url}/moved/graphql` },
    { status, where: "cross-origin", target: () => `${elsewhere.url}/account/graphql` },
  ]);

  it.each(cases)(
    "checklist 57: a $status to a $where address is not followed; the token went to the site's Account API alone",
    async ({ status, target }) => {
      elsewhere.calls.length = 0;
      site.handlers.set("POST /account/graphql", () => ({ status, headers: { location: target() }, text: "" }));

      const log = captureLog();
      const error: unknown = await runAccountOperation(TOKEN, PROBE_OPERATION).then(
        () => null,
        (thrown: unknown) => thrown,
      );

      expect(error).toBeInstanceOf(SiteError);
      expect(error).toMatchObject({ code: "account_api_failed", detail: `http_${status}` });
      // One request, to the configured Account API, with the token; none to where the redirect pointed.
      expect(site.callsTo("/account/graphql")).toHaveLength(1);
      expect(site.callsTo("/account/graphql")[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(site.callsTo("/moved/graphql")).toHaveLength(0);
      expect(elsewhere.calls).toHaveLength(0);

      // What the page gets: our error body, without the token or the address the site pointed to.
      const response = apiErrorResponse(error);
      const body = await response.text();
      expect(response.status).toBe(503);
      expect(JSON.parse(body)).toMatchObject({ error: { code: "site_unavailable" } });
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain(target());
      // The log names the redirect (site_error, http_N), never the token.
      expect(log.events()).toContainEqual(expect.objectContaining({ event: "site_error", detail: `http_${status}` }));
      expect(log.text()).not.toContain(TOKEN);
    },
  );
});
